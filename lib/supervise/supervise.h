/* SPDX-License-Identifier: ISC */
/* supervise: from the fork to the reap, one loop in the main thread.
 *
 * Promises: it waits for {child exited, deadline, signal to forward,
 * pty or --idle pipe bytes, adopted children, progress}, each a source
 * with one fd (waiter, timer, signalfd, relay, pipes, reaper, progress:
 * --warn, --idle and --stall); it sends signals only while the
 * child is unreaped and reaps it exactly once, so kill() never reaches
 * a recycled pid; from the deadline plus -k on, nothing it does waits
 * on the target's leftovers or the caller's terminal beyond the bounds
 * below.  What it did is kept in a tally (tally.h) for the report.
 * Never: a signal to a pid it may have reaped, a wait without a bound
 * after the deadline on anything but the command itself.
 *
 * The bounded waits, each with its bound (all in one place: this table
 * is what a change to one of them must keep true):
 *
 *   wait                                  where             bound
 *   W1 the leaf frozen before a signal    supervise.c       100 ms each:
 *      (cgroup_hold), again for the       cgroup/cgrelease  TERM 300 ms,
 *      leaf's walk of each signal sent                      KILL 100 ms
 *      (the signal, its CONT; KILL by                       (200 ms before
 *      cgroup.kill needs none)                              cgroup.kill)
 *   W2 the pty drained after the exit     terminal/relay.c  50 ms once a
 *      (relay_drain: 50 ms quiet ends it)                   KILL went out;
 *                                                           else 250 ms,
 *                                                           never past the
 *                                                           next expiry
 *   W3 the leaf emptied, then removed     cgroup/cgrelease  1 s together
 *      (populated 0, rmdir's EBUSY)                         (100 ms after
 *                                                           TERM alone)
 *   W4 no leaf: the tree killed until a   supervise/reaper  1 s together
 *      walk finds none, then the dying                      (5 ms rounds)
 *      reaped (--kill-leftovers)
 *   W5 no leaf: the leftovers listed      supervise/reaper  100 ms
 *      for the report after a signal
 *   W6 the loop's own wake-ups            supervise.c       20 ms (tree
 *                                                           left), 100 ms
 *                                                           (poll waiter)
 *
 * Summed, the deadline's signal goes out within W1 (300 ms; measured
 * 0.31 s with a member stuck), and once the KILL is due it goes out
 * within W1 (100 ms; 200 ms without cgroup.kill; measured 0.10 s), and
 * leash is gone at most W2 + W3 = 1.05 s later with a leaf, W2 + W4 =
 * 1.05 s without one (W5 only when
 * --kill-leftovers did not run W4), a member stuck in the kernel
 * included: a leaf that does not empty is kept for a later launch's
 * sweep.  Usually both are a few ms.  Not bounded: the command itself
 * stuck in the kernel (a hung NFS read), which the KILL ends only when
 * its call returns: its reap is the single reap, as GNU timeout's is.
 * harden.bats makes W1 and W3 as long as they can be (a leaf member
 * writing to a frozen filesystem) and checks the sum: gone 1.12 s
 * after the KILL was due (3.22 s for -t 1 -k 1). */
#ifndef LEASH_SUPERVISE_H
#define LEASH_SUPERVISE_H

#include <signal.h>
#include <stdbool.h>

#include "spawn/spawn.h"
#include "supervise/tally.h"
#include "supervise/waiter.h"

struct sigstate {
	sigset_t orig_mask;     /* the caller's mask, restored in the child */
	sigset_t handled;       /* blocked and read from a signalfd */
};

/* Before fork: with PLAN->subreaper SIGCHLD is blocked too (the
 * reaper reads it).  Leash leads its own process group when PLAN asks (GNU's
 * setpgid(0, 0)), SIGCHLD to default, TTIN/TTOU ignored, every
 * terminating signal not ignored at start blocked, and SIGALRM and the
 * deadline signal blocked even when they were ignored; but SIGSYS, never
 * blocked, which lib/signal/sigsys.c hands to the loop.  -1 with errno. */
int supervise_prepare(const struct plan *plan, struct sigstate *ss);

/* With a pty: also read SIGCHLD (the command stopped), SIGWINCH, SIGTSTP
 * and SIGCONT from the signalfd.  -1 with errno. */
int supervise_watch_terminal(struct sigstate *ss);

struct outcome {
	int code;               /* CLD_EXITED, CLD_KILLED or CLD_DUMPED */
	int status;             /* exit status or signal number */
	bool timed_out;         /* the first signal was sent by the deadline */
	bool sent_kill;         /* KILL is due to leash's own group, as GNU's
				 * went there and so to timeout itself */
	bool sent_kill_after;   /* the -k KILL was sent */
	int ended_by;           /* the end signal that ended the session, 0 */
	int fired;              /* enum progress_due: PROGRESS_IDLE or
				 * PROGRESS_STALL ended it (timed_out set
				 * too), 0 the deadline or nothing */
	/* --idle and --stall: the last output and the last CPU progress
	 * seen, since leash started (WATCHED_*: that option was given). */
	bool watched_output, watched_cpu;
	struct timespec last_output, last_cpu;
	struct tally tally;     /* signals sent, kills failed, leftovers */
	/* CPU of the whole tree, set by run_plan when plan->account. */
	long long user_us, system_us;
	const char *cpu_from;   /* "cgroup", "rusage", or NULL: unknown */
	/* What the leaf measured (cgroup_usage), set with the CPU when
	 * there is a leaf; HAVE_USAGE false: no leaf, nothing read. */
	struct cgroup_usage usage;
	bool have_usage;
	/* The reap through a pidfd: LOST, the host reaped the child first
	 * and the kernel could not tell its status; RECOVERED, its
	 * PIDFD_INFO_EXIT did.  RU_*: the child's rusage, from the reap. */
	bool lost, recovered;
	bool have_rusage;
	long long ru_user_us, ru_system_us;
};

/* The area's other public headers: with this one, its face. */
#include "supervise/progress.h"
#include "supervise/reaper.h"
#include "terminal/terminal.h"
#include "time/time.h"

/* One run's supervision: the sources of its loop and the deadline's
 * state.  Fields are supervise's; a run (run.h) holds one for its life,
 * so the loop can be driven a round at a time from a host's loop. */
struct watch {
	const struct plan *plan;
	pid_t pid;
	int pidfd;              /* the child's, or -1: signals and the
				 * reap go through it when there is one */
	struct relay relay_own; /* the pty's relay, when there is a pty */
	pid_t self;
	int next_signal;        /* what the next expiry sends */
	struct timespec kill_after;
	struct timer timer;
	int sfd;                /* signalfd of ss->handled, or -1 */
	const sigset_t *handled;
	sigset_t mine;          /* what the signalfd reads */
	struct relay *relay;    /* the pty's bytes, or NULL */
	struct pipes *pipes;    /* --idle's pipes, or NULL */
	struct progress progress;  /* --warn, --idle, --stall */
	enum progress_due fired;   /* IDLE or STALL: what ended it, not the
				    * deadline */
	struct reaper reaper;   /* used when plan->subreaper */
	struct tally *tally;
	sigset_t to_group;      /* sent to our own group: later ones dropped */
	bool timed_out;
	bool sent_kill;
	bool kill_armed;        /* the timer now counts the -k grace */
	bool sent_kill_after;
	int ended_by;           /* an end signal came: KILL after the grace */
	/* Last: supervise_begin leaves it alone when its thread made the
	 * child and runs already (child.by_thread). */
	struct waiter waiter;
};

/* Watching C until it exits, applying PLAN's deadline, and the one
 * reap: supervise_begin, supervise_step until it returns 1, then
 * supervise_end. */
/* The loop a round at a time (what a host's loop drives, run.h):
 * begin opens the sources (no signalfd when PLAN->in_host, nor when SS
 * handles nothing) and starts the waiter; step polls them for at most
 * TIMEOUT_MS (-1: the loop's own bound) and dispatches what is ready:
 * 1 once the command has exited and nothing more is owed before the
 * reap, else 0; end drains, closes and reaps (-1 with errno when the
 * reap fails but for a child the host reaped: see out->lost). */
void supervise_begin(struct watch *w, const struct plan *plan,
		     const struct sigstate *ss, enum waiter_kind kind,
		     struct child *c, struct outcome *out);
int supervise_step(struct watch *w, int timeout_ms);
int supervise_end(struct watch *w, struct child *c, struct outcome *out);
/* SIG sent by a caller of the library: to the command, or as the
 * deadline's would go (TREE).  -1 ESRCH once it has exited. */
int supervise_signal(struct watch *w, int sig, bool tree);

#include "supervise/run.h"

#endif
