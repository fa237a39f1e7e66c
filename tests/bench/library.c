/* SPDX-License-Identifier: ISC */
/* library: a run through libleash (in-process: leash_spawn, then
 * leash_run_wait) against exec'ing timeout(1) and the leash binary, each
 * launching the static `true` with a 10 s deadline, against a bare
 * posix_spawn + waitpid of it; interleaved rounds, medians.  The issue's
 * target: the in-process overhead at most 0.05 of exec'ing timeout's.
 *
 * The same under qemu-user (the FEX stand-in: an emulated host whose
 * every exec of an emulated program starts the emulator again): this
 * bench binary, linked as `libemu`, runs under the emulator and does the
 * four launches in that emulated process; timeout and leash are exec'd
 * through the emulator, as binfmt_misc would, while `true` (the command
 * in every row) is exec'd natively, as qemu-user execs a program. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "leash.h"

extern char **environ;

enum { M_BARE, M_LIB, M_LIB_LEAF, M_GNU, M_LEASH, M_N };

static const char *const names[M_N] = {
	"true (posix_spawn + waitpid, bare)",
	"libleash: leash_spawn -t 10 + leash_run_wait",
	"libleash: the same in a fresh leaf (track)",
	"exec timeout 10 true (GNU)",
	"exec leash -t 10 true",
};
static const char *const keys[M_N] = {
	"bare", "library", "library_leaf", "gnu_timeout", "leash",
};

static int64_t spawn_wait(const char *const *argv)
{
	int64_t t0 = now_ns();
	pid_t pid;
	int st;

	if (posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv,
			environ) != 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return now_ns() - t0;
}

static int64_t through_library(const char *t_true, leash_attr_t *a)
{
	char *argv[] = { (char *)t_true, NULL };
	int64_t t0 = now_ns();
	leash_run_t *r;

	if (leash_spawn(&r, t_true, argv, NULL, a) < 0)
		return -1;
	leash_run_wait(r, -1);
	leash_run_free(r);
	return now_ns() - t0;
}

/* The emulated rows, in the emulated process. */
enum { E_BARE, E_LIB, E_GNU, E_LEASH, E_N };
static const char *const ekeys[E_N] = { "bare", "library", "gnu_timeout",
					"leash" };
static const char *const enames[E_N] = {
	"qemu-user: true (posix_spawn + waitpid, bare)",
	"qemu-user: libleash: leash_spawn -t 10 + wait",
	"qemu-user: exec timeout 10 true (GNU, emulated)",
	"qemu-user: exec leash -t 10 true (emulated)",
};

/* bench run as `libemu ROUNDS QEMU TRUE TIMEOUT LEASH` (TIMEOUT, LEASH:
 * "-" for none), under QEMU: each launch's median, "KEY MEDIAN_US" a
 * line; no line for a launch that failed. */
int library_emulated(int argc, char **argv)
{
	int rounds = argc == 6 ? atoi(argv[1]) : 0;
	const char *q = argv[2], *t_true = argv[3];
	const char *bare[] = { t_true, NULL };
	const char *gnu[] = { q, argv[4], "10", t_true, NULL };
	const char *lsh[] = { q, argv[5], "-t", "10", t_true, NULL };
	bool on[E_N] = { true, true, strcmp(argv[4], "-"), strcmp(argv[5], "-") };
	struct timespec ten = { 10, 0 };
	double *v[E_N];
	int order[E_N];
	leash_attr_t *a;

	if (rounds <= 0)
		return 2;
	leash_attr_init(&a);
	leash_attr_set_deadline(a, 0, &ten, NULL);
	for (int m = 0; m < E_N; m++)
		v[m] = calloc((size_t)rounds, sizeof *v[m]);
	for (int i = 0; i < rounds; i++) {
		for (int m = 0; m < E_N; m++)
			order[m] = m;
		shuffle(order, E_N);
		for (int k = 0; k < E_N; k++) {
			int m = order[k];
			int64_t ns = !on[m] ? 0 :
				m == E_BARE ? spawn_wait(bare) :
				m == E_LIB ? through_library(t_true, a) :
				m == E_GNU ? spawn_wait(gnu) : spawn_wait(lsh);

			if (ns < 0)
				on[m] = false;
			v[m][i] = (double)ns / 1e3;
		}
	}
	for (int m = 0; m < E_N; m++) {
		struct stats st;

		stats_of(v[m], (size_t)rounds, &st);
		if (on[m])
			printf("%s %.1f\n", ekeys[m], st.med);
		free(v[m]);
	}
	leash_attr_destroy(a);
	return 0;
}

/* Start the emulated process, read its medians into MED (NAN: none).
 * Returns false when it could not run. */
static bool emulated_medians(const struct setup *s, int rounds,
			     double med[E_N])
{
	char path[128], n[16], line[128], key[32];
	const char *argv[] = { s->qemu, path, n, s->qemu, s->t_true,
			       s->gnu_timeout ? s->gnu_timeout : "-",
			       s->leash ? s->leash : "-", NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], st = -1;
	double us;
	pid_t pid;
	FILE *f;

	for (int m = 0; m < E_N; m++)
		med[m] = NAN;
	snprintf(path, sizeof path, "%s/libemu", s->dir);
	snprintf(n, sizeof n, "%d", rounds);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return false;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (posix_spawn(&pid, s->qemu, &fa, NULL, (char *const *)argv,
			environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (f && fgets(line, sizeof line, f))
		for (int m = 0; m < E_N; m++)
			if (sscanf(line, "%31s %lf", key, &us) == 2 &&
			    !strcmp(key, ekeys[m]))
				med[m] = us;
	if (f)
		fclose(f);
	else
		close(fds[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return pid > 0 && st == 0 && !isnan(med[E_BARE]);
}

/* The emulated rows, their overheads over the emulated bare launch, and
 * the library's overhead as a share of exec'ing timeout's there. */
static void emulated_rows(const struct setup *s, int rounds)
{
	double med[E_N];

	if (!s->qemu) {
		printf("  (qemu-user rows skipped: no qemu-user, BENCH_QEMU)\n");
		return;
	}
	if (!emulated_medians(s, rounds, med)) {
		printf("  (qemu-user rows: the emulated bench failed)\n");
		return;
	}
	json_obj("qemu");
	json_int("rounds", rounds);
	for (int m = 0; m < E_N; m++) {
		if (isnan(med[m]))
			continue;
		printf("  %-48s %9.0f  +%7.0f\n", enames[m], med[m],
		       med[m] - med[E_BARE]);
		json_obj(ekeys[m]);
		json_num("median_us", med[m]);
		json_num("overhead_us", med[m] - med[E_BARE]);
		json_end();
	}
	if (!isnan(med[E_GNU])) {
		double gnu_ovh = med[E_GNU] - med[E_BARE];

		fig.qemu_lib_to_timeout = (med[E_LIB] - med[E_BARE]) / gnu_ovh;
		printf("  library overhead / exec'ing timeout's (qemu-user): "
		       "%.3f (target <= 0.05)\n", fig.qemu_lib_to_timeout);
		json_num("library_to_timeout", fig.qemu_lib_to_timeout);
		if (!isnan(med[E_LEASH]))
			json_num("leash_to_timeout",
				 (med[E_LEASH] - med[E_BARE]) / gnu_ovh);
	}
	json_end();
}

void sec_library(const struct setup *s)
{
	int rounds = s->quick ? 40 : 300;
	double *v[M_N];
	bool on[M_N] = { true, true, geteuid() == 0, !!s->gnu_timeout,
			 !!s->leash };
	const char *bare[] = { s->t_true, NULL };
	const char *gnu[] = { s->gnu_timeout, "10", s->t_true, NULL };
	const char *lsh[] = { s->leash, "-t", "10", s->t_true, NULL };
	struct timespec ten = { 10, 0 };
	leash_attr_t *a, *leaf;
	struct stats st[M_N];
	int order[M_N], n = 0;

	leash_attr_init(&a);
	leash_attr_set_deadline(a, 0, &ten, NULL);
	leash_attr_init(&leaf);
	leash_attr_set_deadline(leaf, 0, &ten, NULL);
	leash_attr_set_cgroup(leaf, LEASH_CGROUP_TRACK, NULL);
	for (int m = 0; m < M_N; m++)
		v[m] = calloc((size_t)rounds, sizeof *v[m]);
	for (int i = 0; i < rounds && !bench_stop; i++, n++) {
		for (int m = 0; m < M_N; m++)
			order[m] = m;
		shuffle(order, M_N);
		for (int k = 0; k < M_N; k++) {
			int m = order[k];
			int64_t ns = !on[m] ? 0 :
				m == M_BARE ? spawn_wait(bare) :
				m == M_LIB ? through_library(s->t_true, a) :
				m == M_LIB_LEAF ? through_library(s->t_true, leaf) :
				m == M_GNU ? spawn_wait(gnu) : spawn_wait(lsh);

			if (ns < 0)
				on[m] = false;
			v[m][i] = (double)ns / 1e3;
		}
	}
	printf("\n== library: in-process runs vs an exec'd supervisor "
	       "(median us, %d rounds)\n", n);
	json_obj("library");
	json_int("rounds", n);
	for (int m = 0; m < M_N; m++) {
		if (!on[m])
			continue;
		stats_of(v[m], (size_t)n, &st[m]);
		printf("  %-48s %9.0f  +%7.0f\n", names[m], st[m].med,
		       st[m].med - st[M_BARE].med);
		json_obj(keys[m]);
		json_num("median_us", st[m].med);
		json_num("overhead_us", st[m].med - st[M_BARE].med);
		json_end();
	}
	if (on[M_GNU]) {
		double gnu_ovh = st[M_GNU].med - st[M_BARE].med;
		double lib = (st[M_LIB].med - st[M_BARE].med) / gnu_ovh;

		printf("  library overhead / exec'ing timeout's: %.3f (target "
		       "<= 0.05)\n", lib);
		fig.lib_to_timeout = lib;
		json_num("library_to_timeout", lib);
		if (on[M_LEASH])
			json_num("leash_to_timeout",
				 (st[M_LEASH].med - st[M_BARE].med) / gnu_ovh);
		if (on[M_LIB_LEAF])
			json_num("library_leaf_to_timeout",
				 (st[M_LIB_LEAF].med - st[M_BARE].med) / gnu_ovh);
	}
	emulated_rows(s, s->quick ? 15 : 100);
	json_end();
	for (int m = 0; m < M_N; m++)
		free(v[m]);
	leash_attr_destroy(a);
	leash_attr_destroy(leaf);
}
