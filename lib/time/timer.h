/* SPDX-License-Identifier: ISC */
/* timer: the supervise loop's deadline source.  An absolute expiry on
 * CLOCK_BOOTTIME, so the deadline counts real time: the time leash spends
 * stopped (Ctrl-Z, SIGSTOP) and, where the kernel has it, system suspend,
 * as GNU timeout's real-time timer does.  A relative poll timeout would
 * not: the kernel restarts it after a stop with the time left before. */
#ifndef LEASH_TIMER_H
#define LEASH_TIMER_H

#include <stdbool.h>
#include <time.h>

/* The clock every deadline is given in (cmd_started too). */
#define TIMER_CLOCK CLOCK_BOOTTIME

struct timer {
	int fd;                 /* timerfd; -1: the loop polls the clock */
	clockid_t fd_clock;     /* what FD counts in (MONOTONIC before 3.15) */
	bool armed;
	struct timespec at;     /* absolute, on TIMER_CLOCK */
};

/* A timerfd on CLOCK_BOOTTIME, else CLOCK_MONOTONIC.  -1 with errno when
 * there is none: the timer still works, by polling (timer_wait_ms). */
int timer_open(struct timer *t);

/* Expire at AT (TIMER_CLOCK), or after D from now. */
void timer_arm_at(struct timer *t, const struct timespec *at);
void timer_arm_in(struct timer *t, const struct timespec *d);

/* After a wake-up: has the armed expiry passed?  Disarms it if so. */
bool timer_expired(struct timer *t);

/* How long a poll may sleep for this timer: -1 (forever: the fd wakes
 * it, or nothing is armed), else milliseconds to the expiry, at most
 * 100 so that a stop of leash costs the fallback at most that much. */
int timer_wait_ms(const struct timer *t);

void timer_close(struct timer *t);

/* T + D, saturating: a clamped "forever" duration must not wrap. */
void timespec_add(struct timespec *t, const struct timespec *d);

/* Is A earlier than B? */
bool timespec_before(const struct timespec *a, const struct timespec *b);

/* The time since ORIGIN (TIMER_CLOCK), or zero if ORIGIN is later. */
struct timespec timespec_since(const struct timespec *origin);

#endif
