/* SPDX-License-Identifier: ISC */
/* hog: what a limit on the leaf stops, for tests/limits.bats.
 *   hog mem MIB     allocate and touch MIB MiB, 1 MiB at a time; prints
 *                   "touched MIB MiB" when it got them all
 *   hog fork N      fork N children that wait for the parent's end;
 *                   prints "forked K of N" (K < N: fork failed, with
 *                   its error) and exits 0
 *   hog spin SECS   burn CPU for SECS seconds of wall time */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int mem(long mib)
{
	for (long i = 0; i < mib; i++) {
		char *p = malloc(1 << 20);
		if (!p) {
			printf("malloc failed at %ld MiB\n", i);
			return 1;
		}
		memset(p, 1, 1 << 20);
	}
	printf("touched %ld MiB\n", mib);
	return 0;
}

static int forks(long n)
{
	int ready[2];
	long k;

	if (pipe(ready) < 0)
		return 1;
	for (k = 0; k < n; k++) {
		pid_t pid = fork();
		if (pid < 0) {
			printf("forked %ld of %ld: %s\n", k, n, strerror(errno));
			return 0;
		}
		if (pid == 0) {
			char c;
			close(ready[1]);
			/* Until the parent exits: EOF. */
			_exit(read(ready[0], &c, 1) < 0);
		}
	}
	printf("forked %ld of %ld\n", k, n);
	return 0;
}

static int spin(double secs)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			n++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "mem"))
		return mem(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return forks(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atof(argv[2]));
	fputs("usage: hog mem MIB | fork N | spin SECS\n", stderr);
	return 2;
}
