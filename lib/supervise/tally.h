/* SPDX-License-Identifier: ISC */
/* tally: what supervision did, kept for the report and the -v summary:
 * the signals leash sent (when, why, to how many processes), the kills
 * that failed, what was left running when the command exited and the
 * leftovers killed.  Plain data: no fd, no pointer. */
#ifndef LEASH_TALLY_H
#define LEASH_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define TALLY_MAX_SENT 16
#define TALLY_MAX_FAILED 8
#define TALLY_MAX_LEFT 16

enum tally_why { TALLY_DEADLINE, TALLY_KILL_AFTER, TALLY_FORWARDED,
		 TALLY_LEFTOVERS, TALLY_SESSION_END,
		 TALLY_WARN,            /* --warn, before the deadline */
		 TALLY_IDLE,            /* --idle ended it, as a deadline */
		 TALLY_STALL };         /* --stall ended it, as a deadline */

struct tally_sent {
	int sig;
	enum tally_why why;
	struct timespec at;     /* since leash started (LEASH_CLOCK) */
	unsigned procs;         /* processes it reached, the command included */
};

struct tally_failed {
	int sig;
	int err;
	const char *what;       /* "command", "group", "tree", "cgroup" */
};

/* A process still running when the command exited. */
struct tally_left {
	pid_t pid;
	char name[16];          /* its comm, as /proc/PID/stat gives it */
};

struct tally {
	struct tally_sent sent[TALLY_MAX_SENT];
	unsigned nsent, sent_dropped;   /* beyond TALLY_MAX_SENT: counted */
	struct tally_failed failed[TALLY_MAX_FAILED];
	unsigned nfailed;
	unsigned leftovers;     /* killed at the command's exit */
	/* What was running when the command exited, looked for where it
	 * can be seen (LEFT_SEEN: a leaf, or leash as subreaper). */
	bool left_seen;
	struct tally_left left[TALLY_MAX_LEFT];
	unsigned nleft, left_dropped;   /* beyond TALLY_MAX_LEFT: counted */
};

/* One more signal sent: listed while there is room, else counted. */
static inline void tally_sent_add(struct tally *t, int sig, enum tally_why why,
				  struct timespec at, unsigned procs)
{
	if (t->nsent == TALLY_MAX_SENT) {
		t->sent_dropped++;
		return;
	}
	t->sent[t->nsent++] = (struct tally_sent){ sig, why, at, procs };
}

/* One more leftover: listed while there is room, else counted. */
static inline void tally_left_add(struct tally *t, pid_t pid,
				  const char *name)
{
	struct tally_left *l;
	size_t i;

	if (t->nleft == TALLY_MAX_LEFT) {
		t->left_dropped++;
		return;
	}
	l = &t->left[t->nleft++];
	l->pid = pid;
	for (i = 0; i + 1 < sizeof l->name && name[i]; i++)
		l->name[i] = name[i];
	l->name[i] = '\0';
}

#endif
