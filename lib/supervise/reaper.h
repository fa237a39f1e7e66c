/* SPDX-License-Identifier: ISC */
/* reaper: leash as a child subreaper, a source of the supervise loop.
 * Descendants that setsid and double-fork are re-parented to leash, so a
 * signal can reach the whole tree without a cgroup: the tree is walked
 * from leash by /proc/PID/stat's parent field.  Adopted processes are
 * reaped here, never the command (supervise's single reap), and always
 * in the thread that signals, so no signal goes to a pid leash reaped:
 * a child of leash is pinned until leash reaps it; a deeper descendant
 * is signalled through a pidfd opened and then checked against the start
 * time the walk saw (kill() after the same check on kernels before 5.3). */
#ifndef LEASH_REAPER_H
#define LEASH_REAPER_H

#include <stdbool.h>
#include <sys/types.h>

struct reaper {
	pid_t self;
	pid_t child;            /* the command: never reaped or signalled here */
	bool adopted;           /* another child's SIGCHLD came, or a walk ran */
	int rounds;             /* of the 1 s that reaper_kill_all and
				 * reaper_close share, in 5 ms rounds: used */
};

/* Before the fork: become a child subreaper.  -1 with errno. */
int reaper_enable(void);

/* After the fork.  SIGCHLD (blocked before the fork) is read with
 * supervise's other signals and handed to reaper_child_signal; without
 * it adopted zombies wait for reaper_close. */
void reaper_open(struct reaper *r, pid_t self, pid_t child);

/* A SIGCHLD from FROM with si_code CODE: reap every adopted process that
 * has exited.  Nothing for the command's own exit (its reap is
 * supervise's). */
void reaper_child_signal(struct reaper *r, pid_t from, int code);

/* SIG to every live descendant but the command, then CONT unless SIG is
 * KILL or CONT (a stopped one must see it); SIG 0 only counts them.  Members of process group
 * SKIP_PGRP (0: none) got SIG and CONT through the group already: a
 * catchable signal is not sent twice.  *FOUND = live descendants found.
 * -1 with errno when the tree could not be walked or a kill failed (the
 * others were still signalled). */
int reaper_signal(struct reaper *r, int sig, pid_t skip_pgrp,
		  unsigned *found);

/* Told of one descendant: its pid and its name (comm, as
 * /proc/PID/stat gives it, at most 15 bytes). */
typedef void reaper_seen_fn(pid_t pid, const char *name, void *arg);

/* KILL every descendant but the command, walking again until a walk
 * finds none alive (bounded, about 1 s, which reaper_close's wait for
 * the dying shares: a task stuck in the kernel does not hold leash).  *KILLED = distinct processes killed, each told to
 * SEEN (NULL: none) when first killed.  -1 with errno as
 * reaper_signal. */
int reaper_kill_all(struct reaper *r, unsigned *killed, reaper_seen_fn *seen,
		    void *arg);

/* After the command exited, before its reap: every live descendant but
 * the command, told to SEEN; while some are found, walked again for up
 * to WAIT_MS (those a signal reached may still be on their way out).
 * How many, or -1 with errno when /proc cannot be walked. */
int reaper_list(struct reaper *r, int wait_ms, reaper_seen_fn *seen,
		void *arg);

/* After the command's reap, when no signal follows: reap what is dead;
 * with WAIT_DYING, wait for the killed to finish dying, for what is left
 * of the second reaper_kill_all began.  Live adopted processes are left: when leash exits they are
 * re-parented to the next subreaper above it, or to init. */
void reaper_close(struct reaper *r, bool wait_dying);

/* The CPU used so far by leash's live descendants and the children they
 * reaped (/proc/PID/stat's utime, stime, cutime, cstime), in clock
 * ticks: --stall's reading where there is no leaf.  Needs no subreaper
 * (without one, what is re-parented elsewhere is not counted).  -1 with
 * errno when /proc cannot be walked. */
int reaper_tree_cpu(pid_t self, unsigned long long *ticks);

#endif
