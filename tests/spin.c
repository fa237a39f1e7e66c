/* SPDX-License-Identifier: ISC */
/* spin: a CPU-bound task for the fair-share demo.  Waits until the wall
 * clock reaches START (seconds since the epoch, fractions allowed), then
 * counts loop iterations for SECS seconds and prints one line:
 *   NAME uid=U cpu=SECONDS share=FRACTION work=ITERATIONS
 * where share is the CPU time it got divided by the wall time it ran.
 *   spin -n NAME -a START -t SECS [-o FILE]
 * With -o the line goes to FILE (written to FILE.tmp, then renamed). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double ts_sec(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static double clock_sec(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return ts_sec(&t);
}

/* Sleep until the wall clock reads START, so all tasks begin together. */
static void wait_until(double start)
{
	struct timespec t;

	t.tv_sec = (time_t)start;
	t.tv_nsec = (long)((start - (double)t.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

/* Busy work whose count is the score; checking the clock only every
 * 4096 iterations keeps the loop itself the cost. */
static unsigned long long spin_for(double secs)
{
	volatile unsigned long long sink = 0;
	unsigned long long n = 0;
	double end = clock_sec(CLOCK_MONOTONIC) + secs;

	for (;;) {
		for (int i = 0; i < 4096; i++)
			sink += (unsigned long long)i * 2654435761u;
		n += 4096;
		if (clock_sec(CLOCK_MONOTONIC) >= end)
			break;
	}
	return n;
}

static int spin_report(const char *name, const char *file, double cpu,
		       double wall, unsigned long long work)
{
	char tmp[4096];
	FILE *f = stdout;

	if (file) {
		snprintf(tmp, sizeof tmp, "%s.tmp", file);
		if (!(f = fopen(tmp, "w"))) {
			perror(tmp);
			return 1;
		}
	}
	fprintf(f, "%s uid=%u cpu=%.3f share=%.3f work=%llu\n", name,
		(unsigned)getuid(), cpu, cpu / wall, work);
	if (file && (fclose(f) != 0 || rename(tmp, file) != 0)) {
		perror(file);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = "spin", *file = NULL;
	double start = 0, secs = 5, cpu0, wall0;
	unsigned long long work;
	int c;

	while ((c = getopt(argc, argv, "n:a:t:o:")) != -1) {
		switch (c) {
		case 'n': name = optarg; break;
		case 'a': start = strtod(optarg, NULL); break;
		case 't': secs = strtod(optarg, NULL); break;
		case 'o': file = optarg; break;
		default:
			fprintf(stderr, "usage: spin -n NAME -a START -t SECS "
				"[-o FILE]\n");
			return 2;
		}
	}
	if (start > 0)
		wait_until(start);
	cpu0 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = clock_sec(CLOCK_MONOTONIC);
	work = spin_for(secs);
	return spin_report(name, file,
			   clock_sec(CLOCK_PROCESS_CPUTIME_ID) - cpu0,
			   clock_sec(CLOCK_MONOTONIC) - wall0, work);
}
