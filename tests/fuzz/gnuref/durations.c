/* SPDX-License-Identifier: ISC */
/* gnuref-durations: GNU timeout's reading of each line of stdin, in
 * tests/durread.c's format ("SEC NSEC" as timeout arms it, or
 * "invalid"), for format.bats to set beside leash's. */
#include <stdio.h>
#include <string.h>

#include "gnuref.h"

int main(void)
{
	char line[4096];
	struct timespec ts;

	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (gnuref_duration(line, &ts) < 0)
			puts("invalid");
		else
			printf("%lld %ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	}
	return ferror(stdin) ? 1 : 0;
}
