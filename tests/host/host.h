/* SPDX-License-Identifier: ISC */
/* host.h: what the host tests share (tests/library.bats): a failed check
 * prints one line and the program exits 1 at the end. */
#ifndef LEASH_TEST_HOST_H
#define LEASH_TEST_HOST_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "leash.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		fflush(stdout); \
	} \
} while (0)

/* leash_spawn with FD as the command's stdout: the host's own fd 1 is
 * put back before this returns (the command inherits fd 1). */
static inline int spawn_stdout(leash_run_t **r, int fd, const char *path,
			       char *const argv[], const leash_attr_t *a)
{
	int saved = dup(1), rc;

	dup2(fd, 1);
	rc = leash_spawn(r, path, argv, NULL, a);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static inline struct timespec ms(long n)
{
	return (struct timespec){ n / 1000, (n % 1000) * 1000000L };
}

/* One line of /proc/self/status ("SigCgt:\t..."), into BUF. */
static inline void status_line(const char *key, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	buf[0] = '\0';
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, strlen(key)))
			snprintf(buf, size, "%s", line);
	if (f)
		fclose(f);
}

static inline int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n - 1;           /* the DIR's own */
}

/* An attributes object with a deadline of DEADLINE_MS (0: none). */
static inline leash_attr_t *attr_deadline(long deadline_ms, long kill_ms,
					  unsigned flags)
{
	leash_attr_t *a;
	struct timespec d = ms(deadline_ms), k = ms(kill_ms);

	if (leash_attr_init(&a) < 0 ||
	    leash_attr_set_deadline(a, 0, &d, &k) < 0 ||
	    leash_attr_set_flags(a, flags) < 0) {
		printf("FAIL: attributes\n");
		exit(2);
	}
	return a;
}

static inline void outcome_of(leash_run_t *r, struct leash_outcome *o)
{
	memset(o, 0, sizeof *o);
	if (leash_run_outcome(r, o, sizeof *o) < 0) {
		printf("FAIL: leash_run_outcome\n");
		exit(2);
	}
}

#define SH "/bin/sh"

#endif
