/* SPDX-License-Identifier: ISC */
/* tally: what supervision did, kept for the report and the -v summary:
 * the signals leash sent (when, why, to how many processes), the kills
 * that failed, the leftovers killed.  Plain data: no fd, no pointer. */
#ifndef LEASH_TALLY_H
#define LEASH_TALLY_H

#include <time.h>

#define TALLY_MAX_SENT 16
#define TALLY_MAX_FAILED 8

/* How the signal reaches the whole tree (DESIGN.md, Supervision). */
enum tree_kill {
	TREE_NONE,              /* --foreground: the command alone */
	TREE_GROUP,             /* its process group (GNU) */
	TREE_SUBREAPER,         /* every descendant, walked from leash */
	TREE_CGROUP,            /* every process of the invocation's leaf */
};

enum tally_why { TALLY_DEADLINE, TALLY_KILL_AFTER, TALLY_FORWARDED,
		 TALLY_LEFTOVERS, TALLY_SESSION_END };

struct tally_sent {
	int sig;
	enum tally_why why;
	struct timespec at;     /* since leash started (TIMER_CLOCK) */
	unsigned procs;         /* processes it reached, the command included */
};

struct tally_failed {
	int sig;
	int err;
	const char *what;       /* "command", "group", "tree", "cgroup" */
};

struct tally {
	struct tally_sent sent[TALLY_MAX_SENT];
	unsigned nsent, sent_dropped;   /* beyond TALLY_MAX_SENT: counted */
	struct tally_failed failed[TALLY_MAX_FAILED];
	unsigned nfailed;
	unsigned leftovers;     /* killed at the command's exit */
};

#endif
