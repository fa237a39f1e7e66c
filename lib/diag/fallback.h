/* SPDX-License-Identifier: ISC */
/* fallback: the kernel interfaces a run had to do without (an old kernel,
 * or a seccomp profile refusing a call, or trapping it: lib/signal/sigsys.h),
 * each recorded where it happens,
 * for the -v line and the report's "fallbacks".  Nothing is asked of the
 * kernel here: a fallback costs a bit set when it is taken, and nothing
 * when it is not. */
#ifndef LEASH_FALLBACK_H
#define LEASH_FALLBACK_H

#include <stdbool.h>

/* In the order the report lists them. */
enum fallback {
	FALLBACK_THREAD = 1u << 0,      /* no waiter thread: the exit is polled */
	FALLBACK_PIDFD = 1u << 1,       /* pidfd_open refused */
	FALLBACK_CLONE3 = 1u << 2,      /* fork, then the child joins its leaf */
	FALLBACK_TIMERFD = 1u << 3,     /* the deadline polls the clock */
	FALLBACK_SIGNALFD = 1u << 4,    /* pending signals are polled */
	FALLBACK_SUBREAPER = 1u << 5,   /* the process group only */
	FALLBACK_KEYRING = 1u << 6,     /* keyctl refused: no fresh keyring */
	FALLBACK_CGROUP_KILL = 1u << 7, /* KILL to each process of the leaf */
	FALLBACK_CLOSE_RANGE = 1u << 8, /* getent's fds closed one by one */
};
#define FALLBACK_ALL 0x1ffu

/* Every fallback this thread took (a child's reach the parent through
 * spawn's pipe); say them under -v when fallback_verbose.  Per thread,
 * so libleash's runs, which move them into the run at the end of each
 * call, never share one. */
extern _Thread_local unsigned fallback_taken;
extern bool fallback_verbose;

/* "no-thread", "no-pidfd", ... for one bit; NULL for anything else. */
const char *fallback_name(unsigned f);

/* Record F, silently. */
void fallback_note(enum fallback f);

/* "leash: fallback: NAME: WHAT: strerror(ERR)" (ERR 0: no error text). */
void fallback_say(enum fallback f, int err, const char *what);

/* Record F and, under -v, say it.  Each place that takes one says what
 * it does instead: call it once per place, not once per process. */
void fallback_take(enum fallback f, int err, const char *what);

#endif
