/* SPDX-License-Identifier: ISC */
/* spawn: fork from the main thread; the child prepares and execs. */
#define _GNU_SOURCE
#include "spawn/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spawn/clone3.h"
#include "spawn/execvp.h"
#include "diag/diag.h"
#include "terminal/terminal.h"
#include "signal/signal.h"
#include "sys/sys.h"

extern char **environ;

/* Tell the parent which step failed, then leave without running atexit
 * handlers or flushing the parent's stdio buffers. */
static _Noreturn void child_fail(int fd, int stage, int step, int code)
{
	struct spawn_error e = { stage, step, errno };
	/* ENOSYS from a seccomp trap: the parent names the call. */
	struct spawn_error trap = { SPAWN_TRAPPED, (int)sigsys_last(), 0 };

	if (e.err == ENOSYS && trap.step >= 0)
		while (write(fd, &trap, sizeof trap) < 0 && errno == EINTR)
			;
	while (write(fd, &e, sizeof e) < 0 && errno == EINTR)
		;
	_exit(code);
}

/* A new session when the uid changes: the command can no longer reach
 * the caller's terminal (TIOCSTI) as its controlling tty.  Otherwise it
 * stays in the group leash leads, the terminal's foreground job at a
 * prompt. */
static void child_session(const struct plan *p, int fd)
{
	/* With a pty, the new session's controlling terminal is its slave:
	 * job control and /dev/tty work, the caller's terminal is out of
	 * reach. */
	if (p->pty && p->pty->master >= 0) {
		if (pty_attach(p->pty) < 0)
			child_fail(fd, SPAWN_SESSION, 0, 125);
		return;
	}
	if (p->new_session && setsid() < 0)
		child_fail(fd, SPAWN_SESSION, 0, 125);
	if (p->tty_to_null && pty_null_terminals() < 0)
		child_fail(fd, SPAWN_SESSION, 1, 125);
}

/* --idle: the output leash relays, to see it come. */
static void child_pipes(const struct plan *p, int fd)
{
	if (p->pipes && pipes_attach(p->pipes) < 0)
		child_fail(fd, SPAWN_SESSION, 2, 125);
}

/* The death signal is cleared by the identity switch, so set it after;
 * then make sure the parent did not die before it was armed. */
static void child_pdeathsig(const struct plan *p, pid_t parent, int fd)
{
	/* None (a host's): a new child has none armed already. */
	if (!p->pdeath_signal)
		return;
	if (prctl(PR_SET_PDEATHSIG, p->pdeath_signal) < 0)
		child_fail(fd, SPAWN_PDEATHSIG, 0, 125);
	if (getppid() != parent) {
		errno = ESRCH;
		child_fail(fd, SPAWN_PDEATHSIG, 0, 125);
	}
}

/* A fallback the child took (a refused keyctl): the parent's report
 * names it too.  The exec goes on. */
static void child_note(int fd, unsigned taken)
{
	struct spawn_error e = { SPAWN_NOTE, (int)taken, 0 };

	while (write(fd, &e, sizeof e) < 0 && errno == EINTR)
		;
}

/* With a pty, the command runs under a monitor (lib/terminal/ptymon.c) that
 * stays root and dies with leash; returns the command's parent. */
static pid_t child_monitor(const struct plan *p, pid_t parent, int fd)
{
	pid_t monitor;

	if (!p->pty || p->pty->master < 0)
		return parent;
	child_pdeathsig(p, parent, fd);
	close(p->pty->master);
	if (ptymon_start(p->pty->slave, fd, &monitor) < 0)
		child_fail(fd, SPAWN_SESSION, 0, 125);
	return monitor;
}

/* In a host: its handlers and ignored signals are not the command's.
 * Every signal is still blocked (clone3_pidfd, spawn_fork_host), so none
 * of the host's handlers runs here meanwhile. */
static void child_host_signals(const struct plan *p, int fd)
{
	for (int sig = 1; sig <= 64; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigraw_default(sig);
	if (p->own_group && setpgid(0, 0) < 0)
		child_fail(fd, SPAWN_SESSION, 0, 125);
}

static _Noreturn void child_exec(const struct plan *p, int fd)
{
	char *const *envp = p->envp ? p->envp : environ;

	if (p->exec_direct)
		execve(p->file, p->argv, envp);
	else
		exec_command(p->file, p->argv, envp);
	child_fail(fd, SPAWN_EXEC, 0, errno == ENOENT ? 127 : 126);
}

static _Noreturn void child_run(const struct plan *p, const sigset_t *mask,
				pid_t parent, int fd, bool born)
{
	enum ident_step step = 0;
	enum cgroup_step cstep = 0;
	unsigned had = fallback_taken;
	sigset_t caller_mask = *mask;

	if (p->in_host) {
		child_host_signals(p, fd);
	} else {
		/* leash ignores these so a background job cannot stop it. */
		signal(SIGTTIN, SIG_DFL);
		signal(SIGTTOU, SIG_DFL);
	}
	child_session(p, fd);
	child_pipes(p, fd);
	/* Join while still root: the groups are not the target's to write. */
	if (p->cg.active && cgroup_join_step(&p->cg, born, &cstep) < 0)
		child_fail(fd, SPAWN_CGROUP, (int)cstep, 125);
	parent = child_monitor(p, parent, fd);
	if (ident_apply(&p->id, &step) < 0)
		child_fail(fd, SPAWN_IDENT, (int)step, 125);
	if (fallback_taken != had)
		child_note(fd, fallback_taken & ~had);
	child_pdeathsig(p, parent, fd);
	if (p->chdir && workdir_enter(p->chdir, &p->chdir_fallback) < 0)
		child_fail(fd, SPAWN_CHDIR, 0, 125);
	/* Last: the caller's mask and SIGSYS, so nothing of leash's leaks
	 * (a trap from here on is fatal again, as it is for the command). */
	if (!p->in_host)
		sigsys_for_exec(&caller_mask);
	if (sigprocmask(SIG_SETMASK, &caller_mask, NULL) < 0)
		child_fail(fd, SPAWN_SIGMASK, 0, 125);
	/* The std fds the caller left closed, closed again (leash had
	 * /dev/null there): an exec failure is still told by FD. */
	stdfd_close_for_exec();
	child_exec(p, fd);
}

/* Born in the leaf where the kernel can (clone3 into its directory: no
 * migration, no write to cgroup.procs), else fork and let the child
 * join.  ENOENT: the leaf was removed under us, make it again; any other
 * error (no clone3 here: ENOSYS, EPERM, E2BIG; or a refusal the join
 * will name) takes the fork path. */
static pid_t spawn_fork(struct plan *plan, bool *born)
{
	for (int i = 0; i < 32; i++) {
		int leaf = cgroup_birth_fd(&plan->cg);
		pid_t pid;

		if (leaf < 0)
			break;
		pid = clone3_into(leaf);
		if (pid >= 0) {
			*born = true;
			return pid;
		}
		if (errno != ENOENT) {
			fallback_take(FALLBACK_CLONE3, errno, "fork, then the "
				      "child joins its leaf");
			break;
		}
		if (cgroup_birth_lost(&plan->cg) < 0)
			break;
	}
	*born = false;
	return fork();
}

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif
/* AddressSanitizer cannot follow a child running on a stack of ours in
 * the parent's memory (its no-return bookkeeping warns, and may report
 * falsely): the sanitizer build takes the fork-like path. */
#if defined(__SANITIZE_ADDRESS__)
#define VFORK_OK 0
#else
#define VFORK_OK 1
#endif
/* A vfork-style child's stack: leash(1)'s in .bss, a host's on the
 * calling thread's own stack, which sleeps meanwhile (no allocation, and
 * no fresh pages to fault in at every launch).  child_run's frames take
 * under 2 KiB; exec_command adds its PATH_MAX buffer and, for a script
 * without "#!", a copy of argv (exec_file): a command whose copy would
 * not fit is forked instead (vfork_fits). */
#define VCHILD_STACK (64 * 1024)
#define HOST_VCHILD_STACK (16 * 1024)
#define VCHILD_FRAMES (8 * 1024)

static bool vfork_fits(const struct plan *p, size_t stack)
{
	size_t argc = 0;

	if (p->exec_direct)
		return VCHILD_FRAMES <= stack;
	while (p->argv[argc])
		argc++;
	return argc < (stack - VCHILD_FRAMES - PATH_MAX) / sizeof(char *) - 2;
}

struct vchild {
	struct plan *plan;
	const sigset_t *mask;
	int fd;
};

static int vchild_main(void *arg)
{
	struct vchild *v = arg;

	child_run(v->plan, v->mask, v->plan->self, v->fd, false);
}

/* A child sharing our memory, on STACK, until it execs: CLONE_VFORK
 * keeps the calling thread asleep meanwhile (and only it).  With
 * CLONE_PIDFD or CLONE_PARENT_SETTID in FLAGS, OUT gets the pidfd or the
 * pid, written by the kernel before the child runs. */
static pid_t vfork_child(struct vchild *v, char *stack, size_t size,
			 int flags, int *out)
{
	flags |= CLONE_VM | CLONE_VFORK | SIGCHLD;
	return clone(vchild_main, stack + size, flags, v, out);
}

/* In a host, a command that keeps the caller's uid and has no leaf to be
 * born in: a vfork-style child (CLONE_VM | CLONE_VFORK, as libc's own
 * posix_spawn), with its pidfd (CLONE_PIDFD, 5.2), on a stack of its own.
 * No page tables copied: the cheapest launch a host can have.  Only the
 * calling thread waits, until the exec (or the child's failure); a child
 * that changes uid never shares the host's memory (DESIGN.md), and one
 * born in a leaf takes clone3.  -1 with errno, *PIDFD -1: not here. */
static pid_t spawn_vfork_host(struct plan *plan, const sigset_t *mask,
			      int fd, int *pidfd)
{
	struct vchild v = { plan, mask, fd };
	_Alignas(16) char stack[HOST_VCHILD_STACK];

	return vfork_child(&v, stack, sizeof stack, CLONE_PIDFD, pidfd);
}

/* In a host: the child with its pidfd, made vfork-style where it may be
 * (spawn_vfork_host), else by clone3 (in its leaf when there is one);
 * else fork with every signal blocked (the child keeps them so, as
 * clone3_pidfd's) and pidfd_open, which a host reaping with waitpid(-1)
 * could race: a fallback, said in the outcome.  0 in the child of a
 * fork-like path; a vfork-style child never returns here. */
static pid_t spawn_fork_host(struct plan *plan, const sigset_t *mask,
			     int fd, bool *born, int *pidfd)
{
	sigset_t all, old;
	pid_t pid;

	*born = false;
	*pidfd = -1;
	if (VFORK_OK && !plan->no_clone3 && !ident_changes_uid(&plan->id) &&
	    cgroup_birth_fd(&plan->cg) < 0 &&
	    vfork_fits(plan, HOST_VCHILD_STACK)) {
		sigraw_fill(&all);
		sigraw_mask(SIG_SETMASK, &all, &old);
		pid = spawn_vfork_host(plan, mask, fd, pidfd);
		sigraw_mask(SIG_SETMASK, &old, NULL);
		if (pid > 0)
			return pid;
	}
	for (int i = 0; !plan->no_clone3 && i < 32; i++) {
		int leaf = cgroup_birth_fd(&plan->cg);

		pid = clone3_pidfd(leaf, pidfd);
		if (pid >= 0) {
			*born = leaf >= 0;
			return pid;
		}
		if (errno != ENOENT || leaf < 0 ||
		    cgroup_birth_lost(&plan->cg) < 0) {
			fallback_take(FALLBACK_CLONE3, errno, "fork, then "
				      "pidfd_open");
			break;
		}
	}
	/* Forced (LEASH_NO_CLONE3): the fallback all the same. */
	if (plan->no_clone3)
		fallback_note(FALLBACK_CLONE3);
	sigraw_fill(&all);
	sigraw_mask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid != 0)
		sigraw_mask(SIG_SETMASK, &old, NULL);
	if (pid > 0 && (*pidfd = (int)syscall(SYS_pidfd_open, pid, 0U)) < 0)
		fallback_take(FALLBACK_PIDFD, errno, "the exit is waited for "
			      "by a thread");
	return pid;
}

/* C's error pipe, before any child: C->errfd its read end, *WFD the
 * child's write end.  -1 with errno. */
static int error_pipe(struct child *c, int *wfd)
{
	int fds[2];

	c->pidfd = -1;
	c->by_thread = false;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return c->errfd = -1, -1;
	c->errfd = fds[0];
	*wfd = fds[1];
	return 0;
}

/* No child was made: both ends closed, errno kept. */
static int error_pipe_drop(struct child *c, int wfd)
{
	int err = errno;

	close(c->errfd);
	close(wfd);
	c->errfd = -1;
	return errno = err, -1;
}

int spawn_start(struct plan *plan, const sigset_t *orig_mask,
		struct child *c)
{
	int wfd;
	bool born;

	if (error_pipe(c, &wfd) < 0)
		return -1;
	/* fork, not vfork, from the main thread: a vfork parent sleeps until
	 * the child execs, so a child stopped by the target user or blocked
	 * in chdir/execve on a hung mount would freeze leash (no deadline,
	 * no forwarding: leash(1)'s vfork-style child is its waiter thread's
	 * for that, spawn_job); and a child running as the target must not
	 * share root's memory.  No other thread runs yet (the waiter starts
	 * after spawn; one whose vfork-style clone failed may still be on
	 * its way out, but its child keeps leash's uid and has no leaf, so
	 * it is forked by fork()), so musl's set*id calls in the child act
	 * on it alone, and clone3 needs none of fork's lock handling
	 * (lib/spawn/clone3.c). */
	c->pid = plan->in_host ? spawn_fork_host(plan, orig_mask, wfd, &born,
						 &c->pidfd) :
		 spawn_fork(plan, &born);
	if (c->pid < 0)
		return error_pipe_drop(c, wfd);
	if (c->pid == 0) {
		close(c->errfd);
		child_run(plan, orig_mask, plan->self, wfd, born);
	}
	/* Never left open, or the read below would wait for ever. */
	stdfd_drop(wfd);
	return 0;
}

bool spawn_job_ok(struct plan *plan)
{
	return VFORK_OK && !plan->in_host && !ident_changes_uid(&plan->id) &&
	       !plan->cg.active && !(plan->pty && plan->pty->master >= 0) &&
	       vfork_fits(plan, VCHILD_STACK);
}

int spawn_job_open(struct spawn_job *j, struct plan *plan,
		   const sigset_t *orig_mask, struct child *c)
{
	*j = (struct spawn_job){ plan, orig_mask, -1, 0, 0 };
	return error_pipe(c, &j->fd);
}

int spawn_job_cancel(struct spawn_job *j, struct child *c)
{
	int rc = error_pipe_drop(c, j->fd);

	j->fd = -1;
	return rc;
}

pid_t spawn_job_run(void *job)
{
	/* One launch at a time per process: leash(1)'s, never a host's. */
	static BSS_PAGE char stack[VCHILD_STACK];
	struct spawn_job *j = job;
	struct vchild v = { j->plan, j->mask, j->fd };
	pid_t pid = vfork_child(&v, stack, sizeof stack, CLONE_PARENT_SETTID,
				&j->pid);

	/* The pid again, from the clone's return: an emulator (qemu-user)
	 * that makes the child by fork, not sharing memory, returns at once
	 * and may not write it. */
	if (pid > 0)
		__atomic_store_n(&j->pid, pid, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&j->err, errno ? errno : EAGAIN,
				 __ATOMIC_RELEASE);
	return pid;
}

int spawn_job_born(struct spawn_job *j, struct child *c)
{
	pid_t pid;
	int err;

	while (!(pid = __atomic_load_n(&j->pid, __ATOMIC_ACQUIRE)) &&
	       !(err = __atomic_load_n(&j->err, __ATOMIC_ACQUIRE)))
		sched_yield();
	if (pid <= 0)
		return errno = err, spawn_job_cancel(j, c);
	/* Ours to close now: the child has its own copy until the exec. */
	stdfd_drop(j->fd);
	j->fd = -1;
	c->pid = pid;
	c->by_thread = true;
	return 0;
}

int spawn_result(struct child *c, struct spawn_error *e)
{
	ssize_t n;

	/* Notes first, if any; then a failure, or the end (the exec). */
	do {
		while ((n = read(c->errfd, e, sizeof *e)) < 0 && errno == EINTR)
			;
		if (n == (ssize_t)sizeof *e && e->stage == SPAWN_NOTE)
			fallback_taken |= (unsigned)e->step & FALLBACK_ALL;
		if (n == (ssize_t)sizeof *e && e->stage == SPAWN_TRAPPED)
			sigsys_note(e->step);
	} while (n == (ssize_t)sizeof *e &&
		 (e->stage == SPAWN_NOTE || e->stage == SPAWN_TRAPPED));
	close(c->errfd);
	c->errfd = -1;
	if (n != (ssize_t)sizeof *e)
		e->stage = 0;
	return n == (ssize_t)sizeof *e;
}
