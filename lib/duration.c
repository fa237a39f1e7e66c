/* SPDX-License-Identifier: ISC */
/* duration: GNU timeout's DURATION, read with strtod as GNU does. */
#include "duration.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

int duration_parse(const char *s, struct timespec *out)
{
	char *end;
	double d, scale;

	errno = 0;
	d = strtod(s, &end);
	/* An underflow to 0 still asked for "some time": GNU 9.7 uses 1 ns. */
	int underflow = errno == ERANGE && d == 0;
	if (end == s || !(d >= 0) || (*end && end[1]) ||
	    !(scale = suffix_scale(*end))) {
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
