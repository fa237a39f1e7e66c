/* SPDX-License-Identifier: ISC */
/* run: one command from spawn to reap, a round at a time: libleash's
 * leash_run_t (leash.h), and leash(1)'s launch, which is its first
 * client.  leash_spawn is run_prepare then run_start; leash(1) puts its
 * process-wide steps between the two (signals, subreaper, pty) and its
 * extra sources into the same loop (the plan's), then waits with
 * leash_run_wait like any host.
 *
 * Promises: a run owns everything it opens (its plan for a host, its
 * descriptors, its waiter) and keeps no state anywhere else; the
 * fallbacks its calls take are gathered in the run.  Never: a second
 * launch path beside this one. */
#ifndef LEASH_RUN_H
#define LEASH_RUN_H

#include <stdbool.h>

#include "spawn/spawn.h"

struct leash_run {
	struct plan *plan;      /* leash(1)'s, or OWN for a host's run */
	struct sigstate ss;     /* leash(1): supervise_prepare's; a host:
				 * nothing handled, an empty mask at exec */
	enum waiter_kind kind;
	struct child c;
	struct spawn_job job;   /* leash(1)'s, when its waiter thread spawns */
	struct watch w;
	struct outcome out;
	struct spawn_error err;
	int epfd;               /* a host's: the run's one descriptor */
	bool started, done;
	unsigned fallbacks;     /* taken by this run's calls */
	struct timespec ended;
	/* leash(1): between the reap (the outcome, the tree's CPU) and the
	 * leaf's removal, its terminal is given back. */
	void (*after_reap)(struct leash_run *r);
	/* Last, and left alone by run_init: a host's copy of its attr's
	 * plan (26 KiB, mostly cgroup paths) that leash(1) never touches,
	 * so its pages are never faulted in nor copied by the fork. */
	struct plan own;
};

/* leash(1)'s run of PLAN; KIND its LEASH_WAIT. */
void run_init(struct leash_run *r, struct plan *plan, enum waiter_kind kind);

/* The first half of leash_spawn: the cgroup (-1 with errno, *WHAT one
 * line saying why, when the launch cannot go on). */
int run_prepare(struct leash_run *r, const char **what);

/* The second half: spawn and start watching.  -1 with errno when no
 * child was made (nothing is left: the caller releases the cgroup). */
int run_start(struct leash_run *r);

/* For the report and -v: the tree's CPU and leftovers (the leaf's, else
 * the reap's rusage or, in leash(1), RUSAGE_CHILDREN). */
void run_account(const struct plan *plan, struct outcome *out);

#endif
