/* SPDX-License-Identifier: ISC */
/* timer: the supervise loop's deadline source.  An absolute expiry on
 * LEASH_CLOCK (clock.h), so the deadline counts real time: the time leash spends
 * stopped (Ctrl-Z, SIGSTOP) and, where the kernel has it, system suspend,
 * as GNU timeout's real-time timer does.  A relative poll timeout would
 * not: the kernel restarts it after a stop with the time left before. */
#ifndef LEASH_TIMER_H
#define LEASH_TIMER_H

#include <stdbool.h>
#include <time.h>


struct timer {
	int fd;                 /* timerfd; -1: the loop polls the clock */
	clockid_t fd_clock;     /* what FD counts in (MONOTONIC before 3.15) */
	bool armed;
	struct timespec at;     /* absolute, on LEASH_CLOCK */
};

/* A timerfd on CLOCK_BOOTTIME, else CLOCK_MONOTONIC.  -1 with errno when
 * there is none: the timer still works, by polling (timer_wait_ms). */
int timer_open(struct timer *t);

/* Expire at AT (LEASH_CLOCK), or after D from now. */
void timer_arm_at(struct timer *t, const struct timespec *at);
void timer_arm_in(struct timer *t, const struct timespec *d);

/* After a wake-up: has the armed expiry passed?  Disarms it if so. */
bool timer_expired(struct timer *t);

/* How long a poll may sleep for this timer: -1 (forever: the fd wakes
 * it, or nothing is armed), else milliseconds to the expiry, at most
 * 100 so that a stop of leash costs the fallback at most that much. */
int timer_wait_ms(const struct timer *t);

void timer_close(struct timer *t);

#endif
