/* SPDX-License-Identifier: ISC */
/* clock: the time, read by a plain system call.  leash reads the clock a
 * handful of times per run; musl's first vDSO call parses the vDSO and
 * faults in three pages, which costs more than all those calls. */
#ifndef LEASH_CLOCK_H
#define LEASH_CLOCK_H

#include <time.h>

void clock_now(clockid_t id, struct timespec *t);

#endif
