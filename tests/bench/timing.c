/* SPDX-License-Identifier: ISC */
/* timing: exit detection (the command exits -> its supervisor exits)
 * and deadline overshoot (-t 0.1 on a command that would sleep 10 s).
 *
 * Exit detection: the target writes its CLOCK_MONOTONIC time on fd 3
 * just before _exit; the harness reads the clock when waitpid on the
 * supervisor returns.  The same is done with no supervisor ("bare"), so
 * the harness's own wake-up and the kernel's exit path can be
 * subtracted: net = median - bare median.
 *
 * Overshoot: t0 just before posix_spawn of the supervisor; the target
 * writes the time at which SIGTERM reached it (kill) and the harness
 * reads the clock when the supervisor has exited (exit).  Overshoot =
 * that time - t0 - 100 ms; "exit" includes the supervisor's own start
 * and teardown, as a user sees them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { T_BARE, T_THREAD, T_PIDFD, T_POLL, T_GNU, T_BUSYBOX, T_TOYBOX, T_VAR, T_N };

static const char *const keys[T_N] = {
	"bare", "leash_thread", "leash_pidfd", "leash_poll", "gnu_timeout",
	"busybox_timeout", "toybox_timeout", "variant1_thread"
};
static const char *const labels[T_N] = {
	"no supervisor", "leash (thread)", "leash (pidfd)", "leash (poll)",
	"GNU timeout", "busybox timeout*", "toybox timeout",
	"--variant (thread)"
};

/* Rows running TARGET (+ ARG) under a deadline of DUR. */
static void rows(const struct setup *s, struct cmd *r, const char *dur,
		 const char *target, const char *arg)
{
	static const char *const waits[] = { "thread", "pidfd", "poll" };

	cmd_set(&r[T_BARE], keys[0], labels[0], target, arg, NULL);
	for (int i = 0; i < 3; i++) {
		cmd_set(&r[T_THREAD + i], keys[T_THREAD + i],
			labels[T_THREAD + i], s->leash, "-t", dur, target, arg,
			NULL);
		cmd_wait_env(&r[T_THREAD + i], waits[i]);
		if (!s->leash)
			strcpy(r[T_THREAD + i].why, "no leash binary yet");
	}
	cmd_set(&r[T_GNU], keys[T_GNU], labels[T_GNU], s->gnu_timeout, dur,
		target, arg, NULL);
	cmd_set(&r[T_BUSYBOX], keys[T_BUSYBOX], labels[T_BUSYBOX], s->busybox,
		"timeout", dur, target, arg, NULL);
	cmd_set(&r[T_TOYBOX], keys[T_TOYBOX], labels[T_TOYBOX], s->toybox,
		"timeout", dur, target, arg, NULL);
	/* The first --variant beside the build: a change's before/after. */
	cmd_set(&r[T_VAR], keys[T_VAR], labels[T_VAR], s->variant[0], "-t",
		dur, target, arg, NULL);
	if (!s->variant[0])
		strcpy(r[T_VAR].why, "no --variant given");
}

/* Launch C with a pipe on fd 3; the target's stamp in *STAMP, the time
 * waitpid returned in *END, the spawn time in *START.  0 when a stamp
 * came back. */
static int launch_stamped(const struct cmd *c, int devnull, int64_t *start,
			  int64_t *end, int64_t *stamp, int *status)
{
	int p[2];
	pid_t pid;
	ssize_t n;

	if (pipe_high(p) < 0)
		return -1;
	*start = now_ns();
	pid = cmd_spawn(c, devnull, -1, p[1]);
	close(p[1]);
	if (pid < 0 || cmd_wait(pid, status) < 0) {
		close(p[0]);
		return -1;
	}
	*end = now_ns();
	n = read(p[0], stamp, sizeof *stamp);
	close(p[0]);
	return n == (ssize_t)sizeof *stamp ? 0 : -1;
}

struct tseries {
	double *a, *b;              /* two measures per launch */
	int n, fails;
	struct stats sa, sb;
};

static void print_row(const struct cmd *c, struct tseries *x,
		      const char *ka, const char *kb, double base)
{
	json_obj(NULL);
	json_str("key", c->key);
	json_str("label", c->label);
	json_str("env", c->env_note);
	if (c->skip) {
		printf("  %-22s skipped: %s\n", c->label, c->why);
		json_bool("skipped", true);
		json_str("why", c->why);
		json_end();
		return;
	}
	stats_of(x->a, (size_t)x->n, &x->sa);
	stats_of(x->b, (size_t)x->n, &x->sb);
	printf("  %-22s %9.0f %9.0f %9.0f ", c->label, x->sa.med, x->sa.p10,
	       x->sa.p90);
	if (isnan(base))
		printf("%9s", "");
	else
		printf("%+9.0f", x->sa.med - base);
	printf(" | %9.0f %9.0f %9.0f %5d\n", x->sb.med, x->sb.p10, x->sb.p90,
	       x->fails);
	json_int("n", x->n);
	json_int("failures", x->fails);
	json_obj(ka);
	json_num("median_us", x->sa.med);
	json_num("p10_us", x->sa.p10);
	json_num("p90_us", x->sa.p90);
	json_end();
	json_obj(kb);
	json_num("median_us", x->sb.med);
	json_num("p10_us", x->sb.p10);
	json_num("p90_us", x->sb.p90);
	json_end();
	json_end();
}

static void tseries_free(struct tseries *x)
{
	for (int i = 0; i < T_N; i++) {
		free(x[i].a);
		free(x[i].b);
	}
}

/* Interleaved rounds; ONE fills the two measures of a launch. */
static void run_rounds(const struct setup *s, struct cmd *r,
		       struct tseries *x, int rounds,
		       int (*one)(const struct setup *, const struct cmd *,
				  double *, double *))
{
	int order[T_N];

	for (int i = 0; i < T_N; i++) {
		x[i].a = calloc((size_t)rounds, sizeof(double));
		x[i].b = calloc((size_t)rounds, sizeof(double));
	}
	for (int k = 0; k < rounds && !bench_stop; k++) {
		int m = 0;

		for (int i = 0; i < T_N; i++)
			if (!r[i].skip)
				order[m++] = i;
		shuffle(order, m);
		for (int j = 0; j < m; j++) {
			struct tseries *t = &x[order[j]];

			if (one(s, &r[order[j]], &t->a[t->n], &t->b[t->n]) < 0)
				t->fails++;
			else
				t->n++;
		}
	}
}

static char delay_us[24] = "2000";

/* Exit detection: a = latency, b = the whole launch (µs). */
int timing_exit(const struct setup *s, const struct cmd *c, double *a,
		    double *b)
{
	int64_t t0, t1, st;
	int status;

	/* the target lives 2..8 ms, so the supervisor is settled in its
	 * wait and a poller's phase is random */
	snprintf(delay_us, sizeof delay_us, "%u", 2000 + rand_next() % 6000);
	if (launch_stamped(c, s->devnull, &t0, &t1, &st, &status) < 0 ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	*a = (double)(t1 - st) / 1000.0;
	*b = (double)(t1 - t0) / 1000.0;
	return 0;
}

void sec_latency(const struct setup *s)
{
	struct cmd r[T_N];
	struct tseries x[T_N] = { 0 };
	int rounds = s->quick ? 20 : 100;
	double worst = NAN;

	strcpy(delay_us, "2000");
	rows(s, r, "10", s->t_stamp, delay_us);
	for (int i = 0; i < T_N; i++)
		cmd_preflight(&r[i], s->devnull, 0);
	run_rounds(s, r, x, rounds, timing_exit);
	printf("\nexit detection: target writes the time just before _exit;"
	       " harness wakes from waitpid\n(us; net = median - bare median;"
	       " %d rounds)\n", rounds);
	printf("  %-22s %9s %9s %9s %9s | %9s %9s %9s %5s\n", "supervisor",
	       "median", "p10", "p90", "net", "launch", "p10", "p90", "fail");
	json_obj("exit_detection");
	json_int("rounds", rounds);
	json_str("net", "latency median - the bare row's latency median");
	json_arr("rows");
	for (int i = 0; i < T_N; i++) {
		double base = x[T_BARE].n ? x[T_BARE].sa.med : 0;

		print_row(&r[i], &x[i], "latency", "launch", base);
		/* the target figure is net of the bare row */
		if (!r[i].skip && (i == T_THREAD || i == T_PIDFD))
			worst = worst_of(worst, x[i].sa.med - base);
	}
	json_end();
	json_end();
	tseries_free(x);
	if (!r[T_BUSYBOX].skip)
		printf("  * busybox execs the command in its own pid and leaves "
		       "a watcher process:\n    nothing stands between the "
		       "command's exit and its parent\n");
	fig.exit_med_us = worst;
}

/* Overshoot: a = kill time - t0 - 100 ms, b = exit time - t0 - 100 ms. */
int timing_overshoot(const struct setup *s, const struct cmd *c, double *a,
		    double *b)
{
	int64_t t0, t1, st;
	int status;

	if (launch_stamped(c, s->devnull, &t0, &t1, &st, &status) < 0)
		return -1;
	*a = (double)(st - t0) / 1000.0 - 100000.0;
	*b = (double)(t1 - t0) / 1000.0 - 100000.0;
	return 0;
}

void sec_overshoot(const struct setup *s)
{
	struct cmd r[T_N];
	struct tseries x[T_N] = { 0 };
	int rounds = s->quick ? 6 : 30;
	double worst = NAN;

	rows(s, r, "0.1", s->t_sleeper, NULL);
	r[T_BARE].skip = true;
	strcpy(r[T_BARE].why, "no deadline without a supervisor");
	for (int i = 0; i < T_N; i++)
		cmd_preflight(&r[i], s->devnull, -1);
	run_rounds(s, r, x, rounds, timing_overshoot);
	printf("\ndeadline overshoot, -t 0.1 on a 10 s sleeper (us past "
	       "100 ms from spawn; %d rounds)\n", rounds);
	printf("  %-22s %9s %9s %9s %9s | %9s %9s %9s %5s\n", "supervisor",
	       "killed", "p10", "p90", "", "exited", "p10", "p90", "fail");
	json_obj("overshoot");
	json_int("rounds", rounds);
	json_num("deadline_ms", 100);
	json_arr("rows");
	for (int i = 0; i < T_N; i++) {
		print_row(&r[i], &x[i], "killed", "exited", NAN);
		if (!r[i].skip && (i == T_THREAD || i == T_PIDFD))
			worst = worst_of(worst, x[i].sb.med);
	}
	json_end();
	json_end();
	tseries_free(x);
	if (!r[T_BUSYBOX].skip)
		printf("  * busybox's watcher counts the deadline in whole "
		       "seconds\n");
	fig.overshoot_med_us = worst;
}
