/* SPDX-License-Identifier: ISC */
/* burn: use SECS seconds of CPU time (its own, whatever the load), then
 * print "cpu=SECONDS" as getrusage counts them and exit.
 *   burn SECS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 0.25;
	volatile unsigned long spin = 0;
	struct rusage ru;

	while (cpu_now() < secs)
		for (int i = 0; i < 100000; i++)
			spin++;
	getrusage(RUSAGE_SELF, &ru);
	printf("cpu=%.6f\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
