/* SPDX-License-Identifier: ISC */
/* spawn: the plan cmd/ decided (plan.h), and the launch of its command.
 *
 * Promises: the fork is from the main thread (the death signal follows
 * the forking thread); the child only prepares and execs, every step in
 * DESIGN.md's order (signals, session, cgroup join while still root,
 * identity, death signal, environment, exec), and reports a failure as
 * {stage, errno} on a close-on-exec pipe, so the parent can tell 126
 * from 127 and start nothing half-way.  A child that changes uid never
 * shares root's address space (no vfork) and never gets the caller's
 * terminal.  Never: an id change in the threaded parent. */
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
};

/* Fork and exec PLAN; a child with a cgroup leaf is born in it where the
 * kernel allows (clone3), which may remake the leaf in PLAN->cg.
 * ORIG_MASK is the caller's signal mask, restored in the child just
 * before exec.  -1 with errno if fork or pipe fails. */
int spawn_start(struct plan *plan, const sigset_t *orig_mask,
		struct child *c);

/* After the reap: 1 and *E filled if the child failed before exec,
 * 0 (E->stage 0) if it exec'd.  Fallbacks the child noted join
 * fallback_taken.  Closes the pipe. */
int spawn_result(struct child *c, struct spawn_error *e);

#endif
