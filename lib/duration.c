/* SPDX-License-Identifier: ISC */
/* duration: GNU timeout's DURATION, read with strtod as GNU does. */
#include "duration.h"

#include "decpoint.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
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

/* Round up, so leash never waits less than asked; clamp what overflows. */
static void seconds_to_timespec(double d, struct timespec *out)
{
	if (!(d < (double)TIME_T_MAX)) {
		out->tv_sec = TIME_T_MAX;
		out->tv_nsec = 999999999;
		return;
	}
	double whole = floor(d);
	double ns = ceil((d - whole) * 1e9);

	out->tv_sec = (time_t)whole;
	out->tv_nsec = (long)ns;
	if (out->tv_nsec >= 1000000000) {
		out->tv_sec++;
		out->tv_nsec -= 1000000000;
	}
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

/* A plain decimal ("10", "0.5", ".25"): with at most 15 significant
 * digits and 22 decimals, both the digits and the power of ten are exact
 * doubles, so one division rounds them to strtod's own correctly rounded
 * value.  It spares strtod (5 KiB of musl's code, on arm64 16 KiB with
 * the quad-precision arithmetic) from the pages every launch maps.
 * 1 with *D and *END as strtod's; 0 for anything else (a sign, spaces,
 * an exponent, hex, inf, nan, more digits), which strtod reads. */
static int decimal_exact(const char *s, double *d, const char **end)
{
#if FLT_EVAL_METHOD == 0        /* x87's extended division rounds twice */
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	uint64_t m = 0;
	int digits = 0, k = 0, point = 0, any = 0;
	const char *p = s;

	for (;; p++) {
		if (*p == '.' && !point) {
			point = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		any = 1;
		if ((m || *p != '0') && ++digits > 15)
			return 0;
		if (point && ++k > 22)
			return 0;
		m = m * 10 + (uint64_t)(*p - '0');
	}
	if (!any || *p == 'e' || *p == 'E' || *p == 'x' || *p == 'X')
		return 0;
	*d = (double)m / p10[k];
	*end = p;
	return 1;
#else
	(void)s;
	(void)d;
	(void)end;
	return 0;
#endif
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

	if (decimal_exact(s, &c, end) &&
	    (!**end || (!(*end)[1] && suffix_scale(**end))))
		return c;
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

/* Up to 9 decimal digits and at most one letter after them ("10",
 * "30s"): the common case, read without strtod, whose decimal path
 * wants 8 KiB of stack (two page faults of a fresh stack).  Any other
 * text goes to strtod, and strtod reads these the same. */
static bool digits_only(const char *s, const char **end)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9' && p - s < 9)
		p++;
	if (p == s || (*p >= '0' && *p <= '9') || (*p && p[1]))
		return false;
	*end = p;
	return true;
}

int duration_parse(const char *s, struct timespec *out)
{
	const char *end;
	double d, scale;

	if (digits_only(s, &end)) {
		d = 0;
		for (const char *p = s; p < end; p++)
			d = d * 10 + (*p - '0');
	} else {
		d = strtod_cl(s, &end);
	}
	/* Nonzero digits read as 0 asked for "some time": GNU 9.7 arms 1 ns,
	 * and 9.11 refuses a negative one (-1e-400) as it refuses -1. */
	int underflow = d == 0 ? underflow_sign(s, end) : 0;
	if (end == s || !(d >= 0) || underflow < 0 ||
	    (*end && end[1]) || !(scale = suffix_scale(*end))) {
		errno = EINVAL;
		return -1;
	}
	d *= scale;
	seconds_to_timespec(d, out);
	if ((d > 0 || underflow) && duration_is_zero(out))
		out->tv_nsec = 1;
	return 0;
}

int duration_is_zero(const struct timespec *d)
{
	return d->tv_sec == 0 && d->tv_nsec == 0;
}
