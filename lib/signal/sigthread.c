/* SPDX-License-Identifier: ISC */
/* sigthread: a thread with its caller's whole signal mask.  While the
 * two threads set their masks, the libc's own signals go through a
 * handler that passes each on to the caller's thread: a thread that has
 * one unblocked takes it, and its default action ends the process.  One
 * sigthread at a time in a process. */
#define _GNU_SOURCE
#include "signal/sigthread.h"

#include <errno.h>
#include <string.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEPT_MAX 4

/* x86_64's kernel returns from a handler only through the restorer its
 * sigaction names (SA_RESTORER); the other targets have one in the
 * vDSO or the vectors page.  The libc's is not public: ours calls
 * rt_sigreturn as it does. */
#if defined(__x86_64__)
#define RELAY_FLAGS (SA_SIGINFO | 0x04000000)   /* SA_RESTORER */
void sigthread_restore_rt(void);
__asm__(".text\n"
	".type sigthread_restore_rt,@function\n"
	"sigthread_restore_rt:\n"
	".intel_syntax noprefix\n"    /* no '%': format.bats reads strings */
	"\tmov eax, 15\n"             /* rt_sigreturn */
	"\tsyscall\n"
	".att_syntax prefix\n");
#define RELAY_RESTORER sigthread_restore_rt
#else
#define RELAY_FLAGS SA_SIGINFO
#define RELAY_RESTORER 0
#endif

static pid_t relay_to;          /* the caller's thread */
static int relay_nkept;         /* atomic */
static siginfo_t relay_kept[KEPT_MAX];

/* In the new thread: queue it to the caller's thread, which blocks it
 * by now or takes it here in turn (SI_QUEUE: the only code a thread may
 * queue to another with a sender's pid).  In the caller's thread: kept,
 * to be queued again once it blocks them. */
static void relay(int sig, siginfo_t *si, void *ctx)
{
	int err = errno;
	(void)ctx;

	if ((pid_t)syscall(SYS_gettid) == relay_to) {
		int i = __atomic_fetch_add(&relay_nkept, 1, __ATOMIC_RELAXED);
		if (i < KEPT_MAX)
			relay_kept[i] = *si;
	} else {
		siginfo_t q = *si;

		q.si_code = SI_QUEUE;
		syscall(SYS_rt_tgsigqueueinfo, getpid(), relay_to, sig, &q);
	}
	errno = err;
}

/* Both threads masked: the dispositions go back (the second to mask
 * does it), then the state says settled. */
static void masked_one(struct sigthread *t)
{
	if (__atomic_add_fetch(&t->state, 1, __ATOMIC_ACQ_REL) != 2)
		return;
	for (int i = 0; i < t->nown; i++)
		sigraw_action(t->own[i], &t->saved[i], NULL);
	__atomic_store_n(&t->state, 3, __ATOMIC_RELEASE);
}

void sigthread_before(struct sigthread *t)
{
	struct sigraw_action act;

	sigraw_mask(SIG_BLOCK, NULL, &t->mask);
	t->nown = t->state = 0;
	relay_to = (pid_t)syscall(SYS_gettid);
	relay_nkept = 0;
	memset(&act, 0, sizeof act);
	act.handler = (void (*)(int))(void (*)(void))relay;
	act.flags = RELAY_FLAGS;
	act.restorer = RELAY_RESTORER;
	act.mask[0] = act.mask[1] = ~0U;                /* none nests */
	/* The libc's own: those below its SIGRTMIN. */
	for (int sig = 32; sig < SIGRTMIN; sig++)
		if (sigraw_has(&t->mask, sig) &&
		    sigraw_action(sig, &act, &t->saved[t->nown]) == 0)
			t->own[t->nown++] = sig;
}

void sigthread_after(struct sigthread *t, bool created)
{
	int n;

	sigraw_mask(SIG_SETMASK, &t->mask, NULL);
	/* Blocked here now: queued to this thread, they wait for it. */
	n = __atomic_load_n(&relay_nkept, __ATOMIC_RELAXED);
	for (int i = 0; i < n && i < KEPT_MAX; i++)
		syscall(SYS_rt_tgsigqueueinfo, getpid(), relay_to,
			relay_kept[i].si_signo, &relay_kept[i]);
	masked_one(t);
	if (!created)
		masked_one(t);
}

void sigthread_enter(struct sigthread *t)
{
	sigraw_mask(SIG_SETMASK, &t->mask, NULL);
	masked_one(t);
}

void sigthread_settle(struct sigthread *t)
{
	/* Long done by the time a deadline or a signal comes, but for the
	 * shortest deadlines. */
	while (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != 3)
		sched_yield();
}
