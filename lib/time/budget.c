/* SPDX-License-Identifier: ISC */
/* budget: LEASH_DEADLINE, read and written. */
#include "time/budget.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "sys/sys.h"

#define BOOT_ID_LEN (BUDGET_ID_SIZE - 1)     /* 8-4-4-4-12 hex digits, dashes */

int budget_boot_id(char id[BUDGET_ID_SIZE])
{
	ssize_t n = readfile_at(AT_FDCWD, "/proc/sys/kernel/random/boot_id",
				id, BUDGET_ID_SIZE);

	if (n == BOOT_ID_LEN)
		return 0;
	id[0] = '\0';
	return n < 0 ? -1 : (errno = EIO, -1);
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

enum budget_read budget_parse(const char *value, const char *id,
			      struct timespec *at)
{
	const char *s = value;
	long long sec, nsec;

	/* Nine digits of nanoseconds, exactly: one spelling, as written. */
	if (!digits(&s, 18, &sec) || *s++ != '.')
		return BUDGET_MALFORMED;
	const char *frac = s;
	if (!digits(&s, 9, &nsec) || s - frac != 9 || *s++ != '@' ||
	    strlen(s) != BOOT_ID_LEN)
		return BUDGET_MALFORMED;
	if (!*id || strcmp(id, s) != 0)
		return BUDGET_OTHER_BOOT;
	at->tv_sec = (time_t)sec;
	at->tv_nsec = (long)nsec;
	return BUDGET_OK;
}

/* V's N low decimal digits at the end of P, zero-padded; P moves back. */
static char *digits_back(char *p, unsigned long long v, int n)
{
	do
		*--p = (char)('0' + v % 10), v /= 10;
	while (--n > 0 || v);
	return p;
}

/* By hand, not snprintf: every native leash -t writes one, and this is
 * all the formatting it does (a printf engine is code to run and, under
 * an emulator, to translate, for two integers). */
int budget_format(const struct timespec *at, const char *id, char *buf,
		  size_t size)
{
	char num[32], *end = num + sizeof num;
	char *p = end;

	p = digits_back(p, (unsigned long long)at->tv_nsec, 9);
	*--p = '.';
	p = digits_back(p, (unsigned long long)at->tv_sec, 1);
	size_t n = (size_t)(end - p);
	if (strlen(id) != BOOT_ID_LEN || n + 1 + BOOT_ID_LEN >= size)
		return errno = ERANGE, -1;
	memcpy(buf, p, n);
	buf[n] = '@';
	memcpy(buf + n + 1, id, BOOT_ID_LEN + 1);
	return 0;
}
