/* SPDX-License-Identifier: ISC */
/* spawn: the plan cmd/ decided (plan.h), and the launch of its command.
 *
 * Promises: the fork is from the main thread (the death signal follows
 * the forking thread), but for leash(1)'s vfork-style child below, made
 * by the waiter thread, which outlives it; the child only prepares and
 * execs, every step in DESIGN.md's order (signals, session, cgroup join
 * while still root, identity, death signal, environment, exec), and
 * reports a failure as {stage, errno} on a close-on-exec pipe, so the
 * parent can tell 126 from 127 and start nothing half-way.  A child
 * that changes uid never shares root's address space (no vfork) and
 * never gets the caller's terminal.  Never: an id change in the
 * threaded parent. */
#ifndef LEASH_SPAWN_H
#define LEASH_SPAWN_H

#include <signal.h>
#include <sys/types.h>

#include "spawn/plan.h"
#include "spawn/attr.h"

enum spawn_stage {
	SPAWN_EXEC = 1,         /* execve failed: 126 or 127 */
	SPAWN_SESSION,          /* setsid / setpgid; step 1: /dev/null in
				 * place of the terminal (pty_null_terminals) */
	SPAWN_CGROUP,           /* cgroup_join */
	SPAWN_IDENT,            /* ident_apply; step says which call */
	SPAWN_PDEATHSIG,        /* prctl, or the parent is already gone */
	SPAWN_CHDIR,
	SPAWN_SIGMASK,
	SPAWN_NOTE,             /* no failure: STEP holds fallbacks the
				 * child took (enum fallback bits) */
	SPAWN_TRAPPED,          /* before a failure with ENOSYS: STEP is
				 * the call a seccomp filter trapped */
};

struct spawn_error {
	int stage;
	int step;               /* enum ident_step for SPAWN_IDENT */
	int err;
};

struct child {
	pid_t pid;
	int errfd;              /* read end of the error pipe */
	int pidfd;              /* in a host (plan->in_host): the child's
				 * pidfd, else -1; closed by its owner */
	bool by_thread;         /* made by the waiter thread (spawn_job) */
};

/* Fork and exec PLAN; a child with a cgroup leaf is born in it where the
 * kernel allows (clone3), which may remake the leaf in PLAN->cg.
 * ORIG_MASK is the caller's signal mask, restored in the child just
 * before exec.  -1 with errno if fork or pipe fails. */
int spawn_start(struct plan *plan, const sigset_t *orig_mask,
		struct child *c);

/* leash(1)'s launch, where it may be: the child made vfork-style
 * (CLONE_VM | CLONE_VFORK) by the waiter thread instead of fork()ed by
 * the main thread.  No page tables are copied, no copy-on-write fault
 * follows in either process, and the child runs at once on the CPU the
 * thread leaves; only the waiter thread sleeps until the exec, so the
 * deadline, the signals and a child held before its exec (stopped, or
 * in a hung mount) stay the main thread's to deal with, as after a
 * fork.  Only for a child that keeps leash's uid (it never shares the
 * memory of a root leash as someone else), has no leaf to enter and no
 * pty (its monitor forks); never in a host, nor in the sanitizer build.
 * The job lives until the child has exec'd (the run holds it).  No word
 * of the child's tells that it was made: a write can be refused (a
 * seccomp filter) and must not leave the main thread waiting for it. */
struct spawn_job {
	struct plan *plan;
	const sigset_t *mask;   /* ORIG_MASK, as for spawn_start */
	int fd;                 /* the error pipe's write end */
	pid_t pid;              /* the kernel writes it (CLONE_PARENT_SETTID)
				 * before the child runs */
	int err;                /* the thread's: the clone's errno */
};

bool spawn_job_ok(struct plan *plan);
/* Main thread: the error pipe, C->errfd its read end.  -1 with errno. */
int spawn_job_open(struct spawn_job *j, struct plan *plan,
		   const sigset_t *orig_mask, struct child *c);
/* Main thread, when no waiter thread took the job: the pipe closed,
 * errno kept; -1, so the caller forks instead. */
int spawn_job_cancel(struct spawn_job *j, struct child *c);
/* The waiter thread: make the child, then return once it has exec'd or
 * ended: its pid; -1 when none was made, which the main thread is told. */
pid_t spawn_job_run(void *job);
/* Main thread: once the child is made, C->pid and C->by_thread set: 0;
 * -1 with errno when none was (the pipe is closed: fork then).  Waits
 * only for the waiter thread's clone, yielding meanwhile. */
int spawn_job_born(struct spawn_job *j, struct child *c);

/* After the reap: 1 and *E filled if the child failed before exec,
 * 0 (E->stage 0) if it exec'd.  Fallbacks the child noted join
 * fallback_taken.  Closes the pipe. */
int spawn_result(struct child *c, struct spawn_error *e);

#endif
