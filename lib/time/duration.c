/* SPDX-License-Identifier: ISC */
/* duration: GNU timeout's DURATION, read with strtod as GNU does. */
#include "time/duration.h"

#include "sys/sys.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TIME_T_MAX ((time_t)INTMAX_MAX)

static double suffix_scale(char c)
{
	switch (c) {
	case '\0': case 's': return 1;
	case 'm': return 60;
	case 'h': return 60 * 60;
	case 'd': return 60 * 60 * 24;
	default: return 0;
	}
}

/* GNU 9.7's rule that timeout never waits less than asked: each value
 * it reads or scales stands for the next double above it (C + C *
 * (EPSILON/2) * (1 + EPSILON) is that double under round-to-nearest; a
 * tiny C may stay put, under 1 ns either way), and a value that
 * underflowed to 0 for the smallest double of its sign (UNDERFLOW, as
 * underflow_sign says). */
static double bound_above(double c, int underflow)
{
	if (underflow)
		return underflow < 0 ? -DBL_TRUE_MIN : DBL_TRUE_MIN;
	return c + DBL_EPSILON / 2 * (1 + DBL_EPSILON) * c;
}

/* D (not negative) as GNU's dtotimespec takes it: whole seconds, the
 * nanoseconds rounded up; what time_t cannot hold is the largest. */
static void seconds_to_timespec(double d, struct timespec *out)
{
	if (!(d < 1.0 + (double)TIME_T_MAX)) {
		out->tv_sec = TIME_T_MAX;
		out->tv_nsec = 999999999;
		return;
	}
	time_t sec = (time_t)d;
	double frac = 1e9 * (d - (double)sec);
	long ns = (long)frac;

	ns += ns < frac;
	out->tv_sec = sec + ns / 1000000000;
	out->tv_nsec = ns % 1000000000;
}

/* strtod returned 0 for [S, END): 1 if a digit of its mantissa was
 * nonzero (the value underflowed), -1 if so and negative, else 0.  musl's
 * hex path sets no ERANGE for it, and loses the sign of 2^-n: so the
 * text is read instead. */
static int underflow_sign(const char *s, const char *end)
{
	int hex, sign = 1;

	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s < end && (*s == '+' || *s == '-'))
		sign = *s++ == '-' ? -1 : 1;
	hex = end - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x';
	for (s += hex ? 2 : 0; s < end; s++) {
		int c = (unsigned char)*s;
		if ((c | 0x20) == (hex ? 'p' : 'e'))
			break;
		if (c != '0' && (hex ? isxdigit(c) : isdigit(c)))
			return sign;
	}
	return 0;
}

/* strtod as glibc's would read S in the caller's locale, whose decimal
 * point is DP: DP stands for '.', and a '.' ends the number. */
static double strtod_locale(const char *s, const char *dp, size_t dplen,
			    const char **end)
{
	size_t len = strlen(s);
	char *copy = malloc(len + 1), *e;
	const char *at = strstr(s, dp);
	double d;

	if (!copy) {
		*end = s;
		return 0;
	}
	for (size_t i = 0; i <= len; i++)
		copy[i] = s[i] == '.' ? '\x01' : s[i];
	if (at) {
		size_t k = (size_t)(at - s);
		copy[k] = '.';
		memmove(copy + k + 1, copy + k + dplen, len + 1 - k - dplen);
	}
	d = strtod(copy, &e);
	*end = s + (e - copy);
	if (at && e > copy + (at - s))
		*end += dplen - 1;
	free(copy);
	return d;
}

/* The number at the start of S, read as GNU's cl_strtod does: in the
 * caller's locale, or in C where that reads further.  With musl, strtod
 * is C's; the locale is read only when C's reading leaves junk (a
 * number C takes whole is the same number in every locale). */
static double strtod_cl(const char *s, const char **end)
{
	char *c_end, dp[DECPOINT_MAX];
	const char *l_end;
	double c;
	size_t dplen;

	c = strtod(s, &c_end);
	*end = c_end;
	if (!*c_end || (!c_end[1] && suffix_scale(*c_end)) ||
	    !(dplen = decpoint_lookup(dp)))
		return c;
	double l = strtod_locale(s, dp, dplen, &l_end);
	if (l_end < c_end)
		return c;
	*end = l_end;
	return l;
}

int duration_parse(const char *s, struct timespec *out)
{
	const char *end;
	double d = strtod_cl(s, &end), scale;

	d = bound_above(d, d == 0 ? underflow_sign(s, end) : 0);
	if (end == s || !(d >= 0) || (*end && end[1]) ||
	    !(scale = suffix_scale(*end))) {
		errno = EINVAL;
		return -1;
	}
	seconds_to_timespec(bound_above(d * scale, 0), out);
	return 0;
}

int duration_is_zero(const struct timespec *d)
{
	return d->tv_sec == 0 && d->tv_nsec == 0;
}
