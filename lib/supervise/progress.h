/* SPDX-License-Identifier: ISC */
/* progress: the supervise loop's progress source, for --warn, --idle
 * and --stall (DESIGN.md, Progress).  One timer, armed at the earliest
 * of the next warning, the end of the idle time and the next CPU
 * sample; output moves the idle end without touching the timer (checked
 * when it fires, then armed again), so a chatty command costs a clock
 * read per read of its output and no system call more.  The tree's CPU
 * is read at most once a second (every DURATION/4 for a --stall under
 * 4 s, never more often than every 100 ms): the leaf's cpu.stat, else
 * a walk of /proc from leash.  Nothing is opened when none of the three
 * was given. */
#ifndef LEASH_PROGRESS_H
#define LEASH_PROGRESS_H

#include <stdbool.h>
#include <time.h>

#include "spawn/spawn.h"
#include "time/time.h"

enum progress_due { PROGRESS_NONE, PROGRESS_WARN, PROGRESS_IDLE,
		    PROGRESS_STALL };

struct progress {
	const struct plan *plan;
	bool on;                /* something is watched */
	struct timer timer;
	unsigned order[PLAN_MAX_WARN];  /* the warnings, earliest first */
	unsigned warned;        /* how many of them went out */
	struct timespec last_out;   /* LEASH_CLOCK: start, or the last output */
	struct timespec last_cpu;   /* LEASH_CLOCK: start, or the last sample
				     * that saw the tree's CPU move */
	unsigned long long cpu;     /* the last sample (usec or ticks) */
	int cpu_from;               /* 0 none yet, 1 the leaf, 2 /proc */
	struct timespec next_sample;
};

/* Set up for PLAN (its deadline and started set): the timer opened and
 * armed when anything is watched.  The timer failing falls back to
 * polling the clock (progress_wait_ms). */
void progress_open(struct progress *p, const struct plan *plan);
/* Output was seen at AT (LEASH_CLOCK): the idle time starts again. */
void progress_output(struct progress *p, const struct timespec *at);
/* The job was stopped by its user and is continued: neither silence nor
 * a CPU pause while stopped counts. */
void progress_resumed(struct progress *p);
/* After a wake-up: the next thing due, if any (call until NONE; *SIG
 * the warning's signal), then the timer armed for the one after. */
enum progress_due progress_next(struct progress *p, int *sig);
/* Stop watching (the deadline fired, or idle or stall did). */
void progress_stop(struct progress *p);
/* The fd to poll (-1: none) and how long poll may sleep for it. */
int progress_fd(const struct progress *p);
int progress_wait_ms(const struct progress *p);
void progress_close(struct progress *p);

#endif
