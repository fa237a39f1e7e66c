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
 * in every row) is exec'd natively, as qemu-user execs a program.
 *
 * And in a glibc host (GLib programs, the library's clients): this bench
 * built against glibc and the glibc build of libleash runs the same four
 * launches in its own process (libhost), timeout and leash exec'd
 * directly. */
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

/* The rows of another host process: the bare launch, the library run,
 * timeout and leash exec'd (through a launcher: the emulator). */
enum { E_BARE, E_LIB, E_GNU, E_LEASH, E_N };
static const char *const ekeys[E_N] = { "bare", "library", "gnu_timeout",
					"leash" };

struct host {
	const char *key;            /* JSON member in library */
	const char *label;          /* "(label)" in the ratio's line */
	const char *names[E_N];
};

static const struct host qemu_host = { "qemu", "qemu-user", {
	"qemu-user: true (posix_spawn + waitpid, bare)",
	"qemu-user: libleash: leash_spawn -t 10 + wait",
	"qemu-user: exec timeout 10 true (GNU, emulated)",
	"qemu-user: exec leash -t 10 true (emulated)",
} };
static const struct host glibc_host = { "glibc", "glibc host", {
	"glibc host: true (posix_spawn + waitpid, bare)",
	"glibc host: libleash: leash_spawn -t 10 + wait",
	"glibc host: exec timeout 10 true (GNU)",
	"glibc host: exec leash -t 10 true",
} };

/* bench run as `libemu ROUNDS LAUNCHER TRUE TIMEOUT LEASH` (under the
 * emulator; LAUNCHER the emulator, which timeout and leash are exec'd
 * through) or `libhost ...` (the glibc build; LAUNCHER "-": exec'd
 * directly).  TIMEOUT, LEASH: "-" for none.  Each launch's median, "KEY
 * MEDIAN_US" a line; no line for a launch that failed. */
int library_host(int argc, char **argv)
{
	int rounds = argc == 6 ? atoi(argv[1]) : 0;
	const char *q = argv[2], *t_true = argv[3];
	const char *bare[] = { t_true, NULL };
	const char *gnu[] = { q, argv[4], "10", t_true, NULL };
	const char *lsh[] = { q, argv[5], "-t", "10", t_true, NULL };
	int direct = !strcmp(q, "-");   /* skip the launcher's slot */
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
				m == E_GNU ? spawn_wait(gnu + direct) :
				spawn_wait(lsh + direct);

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

/* Start EXE with ARGV, read its medians into MED (NAN: none).  Returns
 * false when it could not run. */
static bool host_medians(const char *exe, const char *const *argv,
			 double med[E_N])
{
	posix_spawn_file_actions_t fa;
	char line[128], key[32];
	int fds[2], st = -1;
	double us;
	pid_t pid;
	FILE *f;

	for (int m = 0; m < E_N; m++)
		med[m] = NAN;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return false;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (posix_spawn(&pid, exe, &fa, NULL, (char *const *)argv,
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

/* For the self-test: this bench run as libhost (no launcher, as the
 * glibc build is) gives a median for each launch it can make: the bare
 * one, the library's and, where installed, timeout's. */
int library_host_medians(const struct setup *s)
{
	const char *argv[] = { "libhost", "5", "-", s->t_true,
			       s->gnu_timeout ? s->gnu_timeout : "-", "-", NULL };
	double med[E_N];
	int k = 0;

	host_medians(s->t_true, argv, med);
	for (int m = 0; m < E_N; m++)
		k += !isnan(med[m]);
	return k;
}

/* H's rows, their overheads over its own bare launch, and the library's
 * overhead as a share of exec'ing timeout's there (into *RATIO). */
static void host_rows(const struct host *h, int rounds, const double med[E_N],
		      double *ratio)
{
	json_obj(h->key);
	json_int("rounds", rounds);
	for (int m = 0; m < E_N; m++) {
		if (isnan(med[m]))
			continue;
		printf("  %-48s %9.0f  +%7.0f\n", h->names[m], med[m],
		       med[m] - med[E_BARE]);
		json_obj(ekeys[m]);
		json_num("median_us", med[m]);
		json_num("overhead_us", med[m] - med[E_BARE]);
		json_end();
	}
	if (!isnan(med[E_GNU])) {
		double gnu_ovh = med[E_GNU] - med[E_BARE];

		*ratio = (med[E_LIB] - med[E_BARE]) / gnu_ovh;
		printf("  library overhead / exec'ing timeout's (%s): "
		       "%.3f (target <= 0.05)\n", h->label, *ratio);
		json_num("library_to_timeout", *ratio);
		if (!isnan(med[E_LEASH]))
			json_num("leash_to_timeout",
				 (med[E_LEASH] - med[E_BARE]) / gnu_ovh);
	}
	json_end();
}

/* The emulated rows: build/bench itself (linked as libemu) under
 * qemu-user, timeout and leash exec'd through it. */
static void emulated_rows(const struct setup *s, int rounds)
{
	char path[128], n[16];
	const char *argv[] = { s->qemu, path, n, s->qemu, s->t_true,
			       s->gnu_timeout ? s->gnu_timeout : "-",
			       s->leash ? s->leash : "-", NULL };
	double med[E_N];

	if (!s->qemu) {
		printf("  (qemu-user rows skipped: no qemu-user, BENCH_QEMU)\n");
		return;
	}
	snprintf(path, sizeof path, "%s/libemu", s->dir);
	snprintf(n, sizeof n, "%d", rounds);
	if (!host_medians(s->qemu, argv, med)) {
		printf("  (qemu-user rows: the emulated bench failed)\n");
		return;
	}
	host_rows(&qemu_host, rounds, med, &fig.qemu_lib_to_timeout);
}

/* The glibc host's rows: this bench built against glibc and
 * build-glibc/libleash.a (GLIBC=1), run as libhost: glibc's malloc and
 * its own posix_spawn (the bare row there), as a GLib program has. */
static void glibc_rows(const struct setup *s, int rounds)
{
	char n[16];
	const char *argv[] = { "libhost", n, "-", s->t_true,
			       s->gnu_timeout ? s->gnu_timeout : "-",
			       s->leash ? s->leash : "-", NULL };
	double med[E_N];

	if (!s->glibc) {
		printf("  (glibc host rows skipped: %s)\n", s->glibc_why);
		return;
	}
	snprintf(n, sizeof n, "%d", rounds);
	if (!host_medians(s->glibc, argv, med)) {
		printf("  (glibc host rows: %s failed)\n", s->glibc);
		return;
	}
	host_rows(&glibc_host, rounds, med, &fig.glibc_lib_to_timeout);
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
	glibc_rows(s, rounds);
	emulated_rows(s, s->quick ? 15 : 100);
	json_end();
	for (int m = 0; m < M_N; m++)
		free(v[m]);
	leash_attr_destroy(a);
	leash_attr_destroy(leaf);
}
