/* SPDX-License-Identifier: ISC */
/* clone3: fork into a cgroup2 directory, with no libc wrapper. */
#define _GNU_SOURCE
#include "spawn/clone3.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "signal/signal.h"
#include "sys/sys.h"

/* Why no libc: musl and glibc have no clone3 wrapper, and this is the
 * only architecture-dependent part.  It is plain C on every target
 * (x86_64, aarch64, armhf, i686): without CLONE_VM the child returns
 * from syscall() on its own copy of our stack, as from fork(), so no
 * assembly is needed; the syscall number is 435 everywhere.
 *
 * What musl's fork() would add, and why leaving it out is safe here
 * (src/process/fork.c and _Fork.c, 1.2.3): the atfork handlers (leash
 * registers none); the libc locks taken across the fork and reset in
 * the child (only when libc.need_locks, i.e. after a pthread_create:
 * spawn runs before the waiter thread exists, so no lock can be held);
 * the thread list reset in the child (already just us); the cached tid
 * in the child's thread descriptor, which stays the parent's (so the
 * child must not call raise, abort, gettid or pthread_* before exec:
 * they would act on the parent); signals blocked across the call
 * (done below).  The pid is never cached, the TLS and the stack are
 * the child's own copies, the kernel gives the child no robust list. */
/* struct clone_args up to .cgroup (CLONE_ARGS_SIZE_VER2, 88 bytes): the
 * layout is the kernel's ABI, the same on every architecture. */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

#define CLONE3_INTO_CGROUP 0x200000000ULL

#define CLONE3_PIDFD 0x1000ULL

static pid_t clone3_call(int cgroup_fd, int *pidfd, bool child_blocked)
{
	struct clone3_args a = {
		.flags = (cgroup_fd >= 0 ? CLONE3_INTO_CGROUP : 0) |
			 (pidfd ? CLONE3_PIDFD : 0),
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.cgroup = cgroup_fd >= 0 ? (uint64_t)(unsigned)cgroup_fd : 0,
	};
	sigset_t all, old;
	long pid;
	int err;

	/* As _Fork: no handler may run in the child before it is ready.
	 * The kernel's call: libc's would leave out its own 32-34 and take
	 * them out of OLD, unblocking them after (sigraw.h).  But SIGSYS: a
	 * seccomp trap of clone3 with SIGSYS blocked would kill leash, not
	 * come back as ENOSYS (lib/signal/sigsys.h). */
	sigraw_fill(&all);
	sigdelset(&all, SIGSYS);
	if (sigraw_mask(SIG_BLOCK, &all, &old) < 0)
		return -1;
	pid = syscall(SYS_clone3, &a, sizeof a);
	/* A host's child keeps every signal blocked until it has put the
	 * host's handlers back to the default (spawn.c). */
	if (pid == 0 && child_blocked)
		return 0;
	err = errno;
	sigraw_mask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		errno = err;
	return (pid_t)pid;
}

pid_t clone3_into(int cgroup_fd)
{
	return clone3_call(cgroup_fd, NULL, false);
}

pid_t clone3_pidfd(int cgroup_fd, int *pidfd)
{
	return clone3_call(cgroup_fd, pidfd, true);
}
