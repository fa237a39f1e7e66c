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
 * (sigsys_forward) to be forwarded like the signals the signalfd reads.  Not caught: a trap inside libc's fork or
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

/* From now on a SIGSYS sent to SELF (leash) from outside is counted
 * for sigsys_take, and the supervise loop is woken by a SIGCHLD from
 * SELF, which leash blocks and reads already: no descriptor, no cost at
 * launch.  Before, it has the caller's disposition (default: death).
 * One the caller ignored is dropped, as the kernel would drop it, unless
 * EVEN_IGNORED (leash's -s signal, which the command then gets at its
 * default too). */
void sigsys_forward(pid_t self, bool even_ignored);

/* Did a SIGSYS come from outside since the last call?  Asked after the
 * signals the wake-up came with have been read. */
bool sigsys_take(void);

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
