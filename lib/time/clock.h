/* SPDX-License-Identifier: ISC */
/* clock: the time on a clock leash knows the kernel has (BOOTTIME since
 * 2.6.39, MONOTONIC), so there is no error to check. */
#ifndef LEASH_CLOCK_H
#define LEASH_CLOCK_H

#include <time.h>

void clock_now(clockid_t id, struct timespec *t);

#endif
