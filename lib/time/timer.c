/* SPDX-License-Identifier: ISC */
/* timer: an absolute deadline on a timerfd, or on the clock by polling. */
#include "time/timer.h"

#include <errno.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "time/clock.h"
#include "diag/diag.h"

#define POLL_CAP_MS 100

int timer_open(struct timer *t)
{
	t->armed = false;
	t->fd_clock = LEASH_CLOCK;
	t->fd = timerfd_create(LEASH_CLOCK, TFD_CLOEXEC | TFD_NONBLOCK);
	if (t->fd < 0 && errno == EINVAL) {
		/* Before Linux 3.15 timerfd takes no BOOTTIME: the deadline
		 * then does not count suspend, but still counts stops. */
		t->fd_clock = CLOCK_MONOTONIC;
		t->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	}
	return t->fd < 0 ? -1 : 0;
}

/* AT on LEASH_CLOCK as an absolute time on the fd's clock. */
static struct timespec on_fd_clock(const struct timer *t)
{
	struct timespec now, left, out;

	if (t->fd_clock == LEASH_CLOCK)
		return t->at;
	clock_now(LEASH_CLOCK, &now);
	left = timespec_left(&t->at, &now);
	clock_now(t->fd_clock, &out);
	timespec_add(&out, &left);
	return out;
}

void timer_arm_at(struct timer *t, const struct timespec *at)
{
	t->at = *at;
	t->armed = true;
	if (t->fd < 0)
		return;
	struct itimerspec its = { .it_value = on_fd_clock(t) };
	/* it_value zero would disarm: an expiry at the epoch is past. */
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;
	/* Refused after all (a filter that lets the timerfd be made but
	 * not set): the clock is polled, as without a timerfd; else the
	 * deadline would never come. */
	if (timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		fallback_take(FALLBACK_TIMERFD, errno, "the deadline polls the clock");
		close(t->fd);
		t->fd = -1;
	}
}

void timer_arm_in(struct timer *t, const struct timespec *d)
{
	struct timespec at;

	clock_now(LEASH_CLOCK, &at);
	timespec_add(&at, d);
	timer_arm_at(t, &at);
}

bool timer_expired(struct timer *t)
{
	struct timespec now;
	uint64_t ticks;

	if (!t->armed)
		return false;
	if (t->fd >= 0) {
		if (read(t->fd, &ticks, sizeof ticks) != (ssize_t)sizeof ticks)
			return false;
	} else {
		clock_now(LEASH_CLOCK, &now);
		if (timespec_before(&now, &t->at))
			return false;
	}
	t->armed = false;
	return true;
}

int timer_wait_ms(const struct timer *t)
{
	struct timespec now, left;

	if (!t->armed || t->fd >= 0)
		return -1;
	clock_now(LEASH_CLOCK, &now);
	left = timespec_left(&t->at, &now);
	if (left.tv_sec >= POLL_CAP_MS / 1000 + 1)
		return POLL_CAP_MS;
	long ms = left.tv_sec * 1000 + (left.tv_nsec + 999999) / 1000000;
	return ms < POLL_CAP_MS ? (int)ms : POLL_CAP_MS;
}

void timer_close(struct timer *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
