/* SPDX-License-Identifier: ISC */
/* sigsys: a seccomp filter that traps (SECCOMP_RET_TRAP, as an Android
 * app's does) refuses a system call with a SIGSYS instead of an error,
 * and a SIGSYS leash does not catch ends it.  Caught here, the trap is
 * taken as ENOSYS: the libc wrapper returns -1 with errno ENOSYS and the
 * fallback leash has for an old kernel runs, wherever the call was (the
 * supervisor, the waiter thread, the child before exec); a call leash
 * cannot do without fails with its usual message and status.
 *
 * A trap of a blocked SIGSYS is fatal (the kernel resets the handler and
 * unblocks it), so SIGSYS is never blocked in leash: a SIGSYS sent from
 * outside reaches the same handler, which hands it to the supervise loop
 * through a pipe (sigsys_forward) to be forwarded like the signals the
 * signalfd reads.  Not caught: a trap inside libc's fork or
 * pthread_create, which block every signal around their clone. */
#ifndef LEASH_SIGSYS_H
#define LEASH_SIGSYS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* First thing at start: the handler, SIGSYS unblocked; the caller's
 * disposition and mask bit kept for the command (sigsys_for_exec).
 * -1 with errno: traps stay fatal. */
int sigsys_catch(void);

/* From now on a SIGSYS sent to leash from outside is queued on
 * sigsys_fd() (before: the caller's disposition, default death).  One
 * the caller ignored is dropped, as the kernel would drop it, unless
 * EVEN_IGNORED (leash's -s signal, which the command then gets at its
 * default too).  -1 with errno (no pipe). */
int sigsys_forward(bool even_ignored);

/* Readable when a SIGSYS from outside waits; -1 before sigsys_forward. */
int sigsys_fd(void);

/* The next SIGSYS from outside: 1 and its sender in *FROM, 0 when none
 * is left. */
int sigsys_next(pid_t *from);

/* In the child, just before exec: SIGSYS as the caller left it (ignored
 * stays ignored unless forwarded even so), and blocked in MASK if it was
 * blocked at start. */
void sigsys_for_exec(sigset_t *mask);

/* Traps taken so far in this process (a probe compares two counts). */
unsigned sigsys_traps(void);

/* The last trapped call's number, -1 when none; sigsys_note records one
 * trapped elsewhere (the child, through spawn's pipe). */
long sigsys_last(void);
void sigsys_note(long nr);

/* "system call NAME refused (seccomp)" for the last trapped call, into
 * BUF; NULL when nothing was trapped.  diag says it for ENOSYS. */
const char *sigsys_refusal(char *buf, size_t size);

#endif
