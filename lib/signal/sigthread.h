/* SPDX-License-Identifier: ISC */
/* sigthread: start a thread that, like its caller, blocks every signal
 * the caller blocked, the libc's own (sigraw.h) included.  pthread_create
 * does not keep them: a new thread starts with the libc's cancel signal
 * unblocked (musl 33, glibc 32), and musl's first pthread_create also
 * unblocks its 33 and 34 in the caller.  A thread that has one unblocked
 * dies of it, and with it the process (the default action), where
 * leash wanted it pending for its signalfd (-s 34, glibc's RTMIN). */
#ifndef LEASH_SIGTHREAD_H
#define LEASH_SIGTHREAD_H

#include <signal.h>
#include <stdbool.h>

#include "signal/sigraw.h"

#define SIGTHREAD_OWN_MAX 3     /* 32, 33, 34 */

struct sigthread {
	sigset_t mask;          /* the caller's, whole */
	int nown, own[SIGTHREAD_OWN_MAX];       /* libc's, blocked */
	struct sigraw_action saved[SIGTHREAD_OWN_MAX];
	int state;              /* atomic: threads masked; 3 when settled */
};

/* In the caller, just before pthread_create: until both threads block
 * the caller's mask again, a handler takes each of the libc's own
 * signals the caller blocked and passes it on to the caller's thread,
 * with its sender, to be read when the caller reads it (a signalfd). */
void sigthread_before(struct sigthread *t);

/* In the caller, just after pthread_create (CREATED: it succeeded). */
void sigthread_after(struct sigthread *t, bool created);

/* First thing in the new thread. */
void sigthread_enter(struct sigthread *t);

/* Return once both threads block the caller's mask and the handler is
 * gone: before leash signals its own group. */
void sigthread_settle(struct sigthread *t);

#endif
