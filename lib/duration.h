/* SPDX-License-Identifier: ISC */
/* duration: GNU timeout's DURATION syntax, parsed into a timespec. */
#ifndef LEASH_DURATION_H
#define LEASH_DURATION_H

#include <time.h>

/* Parse S ("1.5", "2m", "0x1p-2", "inf", " +3d").  A zero duration gives
 * {0,0} (meaning "no limit"); overflow clamps to the largest time_t;
 * a positive value too small for 1 ns becomes 1 ns.  -1/EINVAL on junk. */
int duration_parse(const char *s, struct timespec *out);

int duration_is_zero(const struct timespec *d);

#endif
