/* SPDX-License-Identifier: ISC */
/* library: a run through libleash (in-process: leash_spawn, then
 * leash_run_wait) against exec'ing timeout(1) and the leash binary, each
 * launching the static `true` with a 10 s deadline, against a bare
 * posix_spawn + waitpid of it; interleaved rounds, medians.  The issue's
 * target: the in-process overhead at most 0.05 of exec'ing timeout's. */
#define _GNU_SOURCE
#include <errno.h>
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
		json_num("library_to_timeout", lib);
		if (on[M_LEASH])
			json_num("leash_to_timeout",
				 (st[M_LEASH].med - st[M_BARE].med) / gnu_ovh);
		if (on[M_LIB_LEAF])
			json_num("library_leaf_to_timeout",
				 (st[M_LIB_LEAF].med - st[M_BARE].med) / gnu_ovh);
	}
	json_end();
	for (int m = 0; m < M_N; m++)
		free(v[m]);
	leash_attr_destroy(a);
	leash_attr_destroy(leaf);
}
