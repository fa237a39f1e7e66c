/* SPDX-License-Identifier: ISC */
/* progress: --warn's signals, --idle's silence and --stall's CPU, on one
 * timer of the supervise loop. */
#include "supervise/progress.h"

#include <errno.h>

#include "cgroup/cgroup.h"
#include "supervise/reaper.h"
#include "diag/diag.h"
#include "time/time.h"

#define SAMPLE_MAX_NS 1000000000L       /* a read a second at most... */
#define SAMPLE_MIN_NS 100000000L        /* ...or DURATION/4, not below */

/* The warning I's time: DURATION before the deadline. */
static struct timespec warn_at(const struct progress *p, unsigned i)
{
	const struct plan *pl = p->plan;

	return timespec_left(&pl->deadline, &pl->warn[i].before);
}

/* How often the tree's CPU is read: a quarter of --stall, within
 * [100 ms, 1 s], so a stall is seen within a quarter of its length and
 * a long one costs one read a second. */
static struct timespec sample_every(const struct timespec *stall)
{
	long long ns;

	if (stall->tv_sec >= 4)
		return (struct timespec){ 0, SAMPLE_MAX_NS };
	ns = ((long long)stall->tv_sec * 1000000000 + stall->tv_nsec) / 4;
	if (ns < SAMPLE_MIN_NS)
		ns = SAMPLE_MIN_NS;
	return (struct timespec){ 0, (long)ns };
}

/* The warnings in the order they fall due (earliest first). */
static void sort_warnings(struct progress *p)
{
	const struct plan *pl = p->plan;

	for (unsigned i = 0; i < pl->nwarn; i++) {
		unsigned j = i;
		for (; j > 0 && timespec_before(&pl->warn[p->order[j - 1]].before,
						&pl->warn[i].before); j--)
			p->order[j] = p->order[j - 1];
		p->order[j] = i;
	}
}

/* The timer at the earliest of what may fall due next. */
static void arm(struct progress *p)
{
	const struct plan *pl = p->plan;
	struct timespec at = { 0, 0 }, t;
	bool any = false;

	if (p->warned < pl->nwarn) {
		at = warn_at(p, p->order[p->warned]);
		any = true;
	}
	if (!duration_is_zero(&pl->idle)) {
		t = p->last_out;
		timespec_add(&t, &pl->idle);
		if (!any || timespec_before(&t, &at))
			at = t;
		any = true;
	}
	if (!duration_is_zero(&pl->stall) &&
	    (!any || timespec_before(&p->next_sample, &at))) {
		at = p->next_sample;
		any = true;
	}
	if (any)
		timer_arm_at(&p->timer, &at);
}

void progress_open(struct progress *p, const struct plan *plan)
{
	*p = (struct progress){ .plan = plan, .timer = { .fd = -1 } };
	p->on = plan->nwarn || !duration_is_zero(&plan->idle) ||
		!duration_is_zero(&plan->stall);
	if (!p->on)
		return;
	p->last_out = p->last_cpu = p->next_sample = plan->started;
	if (!duration_is_zero(&plan->stall)) {
		struct timespec every = sample_every(&plan->stall);
		timespec_add(&p->next_sample, &every);
	}
	sort_warnings(p);
	if (timer_open(&p->timer) < 0)
		fallback_take(FALLBACK_TIMERFD, errno, "progress polls the clock");
	arm(p);
}

void progress_output(struct progress *p, const struct timespec *at)
{
	if (timespec_before(&p->last_out, at))
		p->last_out = *at;
}

void progress_resumed(struct progress *p)
{
	if (!p->on)
		return;
	clock_now(LEASH_CLOCK, &p->last_out);
	p->last_cpu = p->last_out;
	arm(p);
}

/* The tree's CPU now: the leaf's, else a walk from leash.  Any change
 * is progress (a reaped child's share may leave a walk's sum). */
static void sample(struct progress *p, const struct timespec *now)
{
	const struct plan *pl = p->plan;
	struct timespec every = sample_every(&pl->stall), end = p->last_cpu;
	unsigned long long v;
	long long us = cgroup_cpu_usec(&pl->cg);
	int from = us >= 0 ? 1 : reaper_tree_cpu(pl->self, &v) == 0 ? 2 : 0;

	if (from == 1)
		v = (unsigned long long)us;
	/* Unreadable: no news is not taken as a stall. */
	if (!from || from != p->cpu_from || v != p->cpu) {
		p->last_cpu = *now;
		end = *now;
	}
	if (from) {
		p->cpu = v;
		p->cpu_from = from;
	}
	p->next_sample = *now;
	timespec_add(&p->next_sample, &every);
	timespec_add(&end, &pl->stall);
	if (timespec_before(&end, &p->next_sample))
		p->next_sample = end;
}

static bool reached(const struct timespec *now, const struct timespec *start,
		    const struct timespec *d)
{
	struct timespec end = *start;

	timespec_add(&end, d);
	return !timespec_before(now, &end);
}

enum progress_due progress_next(struct progress *p, int *sig)
{
	const struct plan *pl = p->plan;
	struct timespec now, at;

	if (!p->on)
		return PROGRESS_NONE;
	timer_expired(&p->timer);       /* the fd read, if it fired */
	clock_now(LEASH_CLOCK, &now);
	if (p->warned < pl->nwarn) {
		at = warn_at(p, p->order[p->warned]);
		if (!timespec_before(&now, &at)) {
			*sig = pl->warn[p->order[p->warned++]].sig;
			return PROGRESS_WARN;
		}
	}
	if (!duration_is_zero(&pl->idle) && reached(&now, &p->last_out, &pl->idle))
		return PROGRESS_IDLE;
	if (!duration_is_zero(&pl->stall) &&
	    !timespec_before(&now, &p->next_sample)) {
		sample(p, &now);
		if (reached(&now, &p->last_cpu, &pl->stall))
			return PROGRESS_STALL;
	}
	arm(p);
	return PROGRESS_NONE;
}

void progress_stop(struct progress *p)
{
	p->on = false;
}

int progress_fd(const struct progress *p)
{
	return p->on ? p->timer.fd : -1;
}

int progress_wait_ms(const struct progress *p)
{
	return p->on ? timer_wait_ms(&p->timer) : -1;
}

void progress_close(struct progress *p)
{
	timer_close(&p->timer);
}
