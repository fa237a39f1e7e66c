/* SPDX-License-Identifier: ISC */
/* selftest: `bench --selftest` checks the measuring methods against a
 * supervisor whose delays are known (the slowsup target): a supervisor
 * that exits 20 ms after its command must show 20 ms more exit latency
 * than none; one that kills at 130 ms must show a 30 ms overshoot; the
 * memory walk must find the chain; a launch that sleeps 10 ms must cost
 * at least 10 ms more than a bare one; the library section's sub-run
 * (the bench started as libhost) must give a median for each launch. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static int failed;

static void check(const char *what, double got, double lo, double hi)
{
	bool ok = got >= lo && got <= hi;

	printf("  %-52s %10.0f  [%g, %g]  %s\n", what, got, lo, hi,
	       ok ? "ok" : "FAIL");
	failed += !ok;
}

/* Median of N runs of FN on C; the first measure. */
static double median_of(const struct setup *s, const struct cmd *c, int n,
			int (*fn)(const struct setup *, const struct cmd *,
				  double *, double *))
{
	double v[32], other;
	struct stats st;
	int k = 0;

	for (int i = 0; i < n && i < 32; i++)
		if (fn(s, c, &v[k], &other) == 0)
			k++;
	stats_of(v, (size_t)k, &st);
	return st.med;
}

static void check_exit(const struct setup *s)
{
	struct cmd bare, slow;
	double b, d;

	cmd_set(&bare, "bare", "bare", s->t_stamp, "3000", NULL);
	cmd_set(&slow, "slow", "slow", s->t_slowsup, "20000", "0",
		s->t_stamp, "3000", NULL);
	b = median_of(s, &bare, 15, timing_exit);
	d = median_of(s, &slow, 15, timing_exit);
	check("exit latency of a supervisor 20 ms late, net (us)", d - b,
	      19000, 35000);
}

static void check_overshoot(const struct setup *s)
{
	struct cmd slow;

	cmd_set(&slow, "slow", "slow", s->t_slowsup, "0", "130000",
		s->t_sleeper, NULL);
	check("overshoot of a supervisor killing at 130 ms (us)",
	      median_of(s, &slow, 5, timing_overshoot), 29000, 45000);
}

static void check_memory(const struct setup *s)
{
	struct cmd one, two;
	char chain[96];
	double rss = NAN;

	cmd_set(&one, "one", "one", s->t_slowsup, "0", "0", s->t_holder,
		"300", NULL);
	cmd_set(&two, "two", "two", s->t_slowsup, "0", "0", s->t_slowsup,
		"0", "0", s->t_holder, "300", NULL);
	memory_sample(s, &one, &rss, chain, sizeof chain);
	check("memory: Rss of one supervisor (KiB)", rss, 4, 4096);
	check("memory: the chain is that supervisor",
	      strcmp(chain, "slowsup") ? 1 : 0, 0, 0);
	memory_sample(s, &two, &rss, chain, sizeof chain);
	check("memory: a chain of two is found whole",
	      strcmp(chain, "slowsup>slowsup") ? 1 : 0, 0, 0);
}

static void check_launch(const struct setup *s)
{
	struct cmd bare, slow;
	double v[2][15];
	struct stats sb, ss;
	int n = 0;

	cmd_set(&bare, "bare", "bare", s->t_true, NULL);
	cmd_set(&slow, "slow", "slow", s->t_slowsup, "10000", "0",
		s->t_true, NULL);
	for (int i = 0; i < 15; i++) {
		int64_t a, b;

		if (cmd_time(&bare, s->devnull, &a, NULL) == 0 &&
		    cmd_time(&slow, s->devnull, &b, NULL) == 0) {
			v[0][n] = (double)a / 1000.0;
			v[1][n++] = (double)b / 1000.0;
		}
	}
	stats_of(v[0], (size_t)n, &sb);
	stats_of(v[1], (size_t)n, &ss);
	check("launch overhead of a supervisor sleeping 10 ms (us)",
	      ss.med - sb.med, 10000, 1e9);
}

static void check_host(const struct setup *s)
{
	check("library: libhost's medians (bare, library, timeout)",
	      library_host_medians(s), 2 + !!s->gnu_timeout,
	      2 + !!s->gnu_timeout);
}

int selftest(const struct setup *s)
{
	printf("bench self-test: the methods against a supervisor with known "
	       "delays\n");
	check_exit(s);
	check_overshoot(s);
	check_memory(s);
	check_launch(s);
	check_host(s);
	printf("%s\n", failed ? "self-test FAILED" : "self-test passed");
	return failed ? 1 : 0;
}
