/* SPDX-License-Identifier: ISC */
/* clock: the time, and timespec arithmetic (see clock.h). */
#include "time/clock.h"

#include <unistd.h>

#define NSEC 1000000000L
#define TIME_MAX ((time_t)(~0ULL >> 1))

void clock_now(clockid_t id, struct timespec *t)
{
	clock_gettime(id, t);
}

void timespec_add(struct timespec *t, const struct timespec *d)
{
	if (d->tv_sec >= TIME_MAX - t->tv_sec - 1) {
		t->tv_sec = TIME_MAX;
		t->tv_nsec = 0;
		return;
	}
	t->tv_sec += d->tv_sec;
	t->tv_nsec += d->tv_nsec;
	if (t->tv_nsec >= NSEC) {
		t->tv_sec++;
		t->tv_nsec -= NSEC;
	}
}

bool timespec_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

struct timespec timespec_left(const struct timespec *a,
			      const struct timespec *b)
{
	struct timespec d = { a->tv_sec - b->tv_sec, a->tv_nsec - b->tv_nsec };

	if (d.tv_nsec < 0) {
		d.tv_sec--;
		d.tv_nsec += NSEC;
	}
	if (d.tv_sec < 0)
		d = (struct timespec){ 0, 0 };
	return d;
}

long timespec_ms(const struct timespec *a, const struct timespec *b)
{
	return (long)(a->tv_sec - b->tv_sec) * 1000 +
	       (a->tv_nsec - b->tv_nsec) / 1000000;
}

unsigned long long clock_stamp(const struct timespec *t)
{
	return (unsigned long long)t->tv_sec * 1000000000ULL +
	       (unsigned long long)t->tv_nsec;
}

bool clock_started_after(unsigned long long start_ticks,
			 unsigned long long stamp)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 &&
	       start_ticks * (1000000000ULL / (unsigned long long)hz) > stamp;
}

struct timespec timespec_since(const struct timespec *origin)
{
	struct timespec now;

	clock_now(LEASH_CLOCK, &now);
	return timespec_left(&now, origin);
}

long clock_ms_since(clockid_t id, const struct timespec *t0)
{
	struct timespec now;

	clock_now(id, &now);
	return timespec_ms(&now, t0);
}

long clock_ms_until(clockid_t id, const struct timespec *at)
{
	struct timespec now;

	clock_now(id, &now);
	return timespec_ms(at, &now);
}
