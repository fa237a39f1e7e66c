/* SPDX-License-Identifier: ISC */
/* durread: lib/time/duration.c's reading of each line of stdin, one line out
 * each: "SEC NSEC" as duration_parse arms it, or "invalid".  Built with
 * the build's own libc (musl for the static build), so format.bats can
 * set it beside GNU timeout's reading of the same lines (the fuzz
 * build's gnuref-durations, on glibc): the strtod that leash ships with
 * against the one GNU timeout is known by.
 *
 * usage: durread <LINES */
#include <stdio.h>
#include <string.h>

#include "time/duration.c"

/* The C locale's point: the lines are read as in LC_ALL=C. */
size_t decpoint_lookup(char buf[DECPOINT_MAX])
{
	(void)buf;
	return 0;
}

int main(void)
{
	char line[4096];
	struct timespec ts;

	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (duration_parse(line, &ts) < 0)
			puts("invalid");
		else
			printf("%lld %ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	}
	return ferror(stdin) ? 1 : 0;
}
