/* SPDX-License-Identifier: ISC */
/* duration: GNU timeout's DURATION syntax, parsed into a timespec. */
#ifndef LEASH_DURATION_H
#define LEASH_DURATION_H

#include <time.h>

/* Parse S ("1.5", "2m", "0x1p-2", "inf", " +3d") to the timespec GNU
 * timeout 9.11 arms for it: a zero duration gives {0,0} (meaning "no
 * limit"); any other is rounded up, past the value read (GNU's "never
 * less than asked": "1" is 1 s and 1 ns), so even a value that underflows
 * to 0 is 1 ns; overflow clamps to the largest time_t.  -1/EINVAL on
 * junk. */
int duration_parse(const char *s, struct timespec *out);

int duration_is_zero(const struct timespec *d);

#endif
