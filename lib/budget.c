/* SPDX-License-Identifier: ISC */
/* budget: LEASH_DEADLINE, read and written. */
#include "budget.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BOOT_ID_LEN 36          /* 8-4-4-4-12 hex digits and dashes */

/* The kernel's boot id into ID (BOOT_ID_LEN + 1 bytes). */
static int boot_id(char *id)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, id, BOOT_ID_LEN);
	close(fd);
	if (n != BOOT_ID_LEN)
		return errno = EIO, -1;
	id[BOOT_ID_LEN] = '\0';
	return 0;
}

/* Decimal digits from *S, at most MAX of them, into *V; false if none
 * or too many. */
static bool digits(const char **s, int max, long long *v)
{
	int n = 0;

	for (*v = 0; **s >= '0' && **s <= '9'; ++*s)
		if (++n > max)
			return false;
		else
			*v = *v * 10 + (**s - '0');
	return n > 0;
}

enum budget_read budget_parse(const char *value, struct timespec *at)
{
	const char *s = value;
	long long sec, nsec;
	char id[BOOT_ID_LEN + 1];

	/* Nine digits of nanoseconds, exactly: one spelling, as written. */
	if (!digits(&s, 18, &sec) || *s++ != '.')
		return BUDGET_MALFORMED;
	const char *frac = s;
	if (!digits(&s, 9, &nsec) || s - frac != 9 || *s++ != '@' ||
	    strlen(s) != BOOT_ID_LEN)
		return BUDGET_MALFORMED;
	if (boot_id(id) < 0 || strcmp(id, s) != 0)
		return BUDGET_OTHER_BOOT;
	at->tv_sec = (time_t)sec;
	at->tv_nsec = (long)nsec;
	return BUDGET_OK;
}

int budget_format(const struct timespec *at, char *buf, size_t size)
{
	char id[BOOT_ID_LEN + 1];

	if (boot_id(id) < 0)
		return -1;
	snprintf(buf, size, "%lld.%09ld@%s", (long long)at->tv_sec,
		 at->tv_nsec, id);
	return 0;
}
