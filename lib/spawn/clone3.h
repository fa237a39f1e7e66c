/* SPDX-License-Identifier: ISC */
/* clone3: fork a child that is born in a cgroup2 directory
 * (clone3 with CLONE_INTO_CGROUP, Linux 5.7): no migration afterwards. */
#ifndef LEASH_CLONE3_H
#define LEASH_CLONE3_H

#include <sys/types.h>

/* Like fork(), but the child starts in the cgroup2 directory CGROUP_FD
 * (an O_PATH descriptor will do).  Returns the pid in the parent and 0
 * in the child; -1 with errno when no child was made: ENOSYS (before
 * 5.3, or a seccomp filter), EPERM (a container's filter) or E2BIG (5.3
 * to 5.6: no cgroup field) mean no usable clone3 here; ENOENT: the
 * cgroup was removed; anything else is the kernel refusing to start a
 * process in that cgroup (EOPNOTSUPP, EBUSY, EACCES ...).
 *
 * Only for a single-threaded caller, as after fork(); but libc's fork
 * bookkeeping is skipped (see clone3.c), so until it execs or _exits
 * the child must not call raise, abort, gettid or pthread functions:
 * they would act on the parent's thread. */
pid_t clone3_into(int cgroup_fd);

/* The same, and *PIDFD the child's pidfd (CLONE_PIDFD: made with the
 * child, before anybody could reap it; close-on-exec).  CGROUP_FD -1:
 * born where the caller is.  The child starts with every signal but
 * SIGSYS blocked (it sets its own mask before exec). */
pid_t clone3_pidfd(int cgroup_fd, int *pidfd);

#endif
