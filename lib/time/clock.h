/* SPDX-License-Identifier: ISC */
/* clock: leash's one clock, and the arithmetic on its times.
 *
 * LEASH_CLOCK is CLOCK_BOOTTIME (Linux 2.6.39): it counts the time leash
 * is stopped and the machine is suspended, as GNU timeout's real-time
 * timer does, and the kernel always has it, so reading it has no error
 * to check.  What follows it, so that changing it changes all of these
 * together:
 *   - every deadline and every "since leash started" (plan->started,
 *     the tally's times, the report's wall time);
 *   - LEASH_DEADLINE (budget.c): SECONDS.NANOSECONDS on this clock,
 *     with the boot it belongs to;
 *   - the leaf's name, run_<pid>_<clock_stamp> (cgroup/): the stale
 *     sweep asks clock_started_after whether the pid in a name went to
 *     a process started later; /proc counts start times from boot on
 *     BOOTTIME, so another clock changes that function too.
 * Short bounded retries that must not count a suspend as waiting (the
 * cgroupfs retries, getent's bound) use CLOCK_MONOTONIC through the same
 * helpers. */
#ifndef LEASH_CLOCK_H
#define LEASH_CLOCK_H

#include <stdbool.h>
#include <time.h>

#define LEASH_CLOCK CLOCK_BOOTTIME

void clock_now(clockid_t id, struct timespec *t);

/* T + D, saturating: a clamped "forever" duration must not wrap. */
void timespec_add(struct timespec *t, const struct timespec *d);
/* Is A earlier than B? */
bool timespec_before(const struct timespec *a, const struct timespec *b);
/* A - B, or zero when B is later. */
struct timespec timespec_left(const struct timespec *a,
			      const struct timespec *b);
/* A - B in milliseconds, truncated (negative when B is later). */
long timespec_ms(const struct timespec *a, const struct timespec *b);

/* T as one number, nanoseconds: the leaf name's stamp. */
unsigned long long clock_stamp(const struct timespec *t);
/* Did a process that started START_TICKS after boot (/proc/PID/stat's
 * field 22, clock ticks on BOOTTIME) start after STAMP (clock_stamp of a
 * time on LEASH_CLOCK)?  False when the tick rate is unknown. */
bool clock_started_after(unsigned long long start_ticks,
			 unsigned long long stamp);

/* The time since ORIGIN on LEASH_CLOCK, or zero if ORIGIN is later. */
struct timespec timespec_since(const struct timespec *origin);
/* Milliseconds since T0, or until AT (negative once passed), on ID. */
long clock_ms_since(clockid_t id, const struct timespec *t0);
long clock_ms_until(clockid_t id, const struct timespec *at);

#endif
