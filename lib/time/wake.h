/* SPDX-License-Identifier: ISC */
/* wake: continue a stopped leash at a given time.  The kernel continues
 * a stopped process the moment SIGCONT is generated for it, blocked or
 * not, and a POSIX timer generates it with no process of ours awake: a
 * leash stopped with its job (^Z in a pty) still meets its deadline. */
#ifndef LEASH_WAKE_H
#define LEASH_WAKE_H

#include <stdbool.h>
#include <time.h>

struct wake {
	int id;                 /* the kernel's timer id */
	bool armed;
};

/* SIGCONT to leash at AT (LEASH_CLOCK), then every few milliseconds
 * until disarmed, so an expiry that comes before the stop is followed
 * by another.  -1 with errno: no timer to be had. */
int wake_arm(struct wake *k, const struct timespec *at);
void wake_disarm(struct wake *k);

#endif
