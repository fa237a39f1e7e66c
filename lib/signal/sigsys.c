/* SPDX-License-Identifier: ISC */
/* sigsys: a seccomp trap taken as ENOSYS; SIGSYS from outside forwarded. */
#define _GNU_SOURCE
#include "signal/sigsys.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

#include "signal/sigraw.h"
#include "sys/sys.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

static struct sigaction caller;         /* SIGSYS as leash found it */
static bool caller_blocked;
static bool forward_ignored;            /* -s SYS: forwarded even so */
static volatile pid_t owner;            /* the process that forwards, or 0 */
static atomic_int pending;              /* SIGSYS from outside, not taken */
static volatile sig_atomic_t last_nr = -1;
static atomic_uint ntraps;              /* in any thread */

/* The trapped call's return value, as the kernel would have set it: the
 * register the libc wrapper reads when the handler returns. */
static bool set_return(void *ctx, long value)
{
	ucontext_t *uc = ctx;

#if defined(__x86_64__) && !defined(__ILP32__)
	uc->uc_mcontext.gregs[REG_RAX] = value;
#elif defined(__i386__)
	uc->uc_mcontext.gregs[REG_EAX] = (int)value;
#elif defined(__aarch64__)
	uc->uc_mcontext.regs[0] = (unsigned long long)value;
#elif defined(__arm__)
	uc->uc_mcontext.arm_r0 = (unsigned long)value;
#else
	(void)uc, (void)value;
	return false;           /* an architecture not taught here */
#endif
	return true;
}

/* SIGSYS's default action (death with a core), once the handler
 * returns and unblocks it.  kill, not raise: the child clone3 made has
 * the parent's cached thread id (clone3.h). */
static void act_default(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	sigaction(SIGSYS, &dfl, NULL);
	kill(getpid(), SIGSYS);
}

/* One from outside, for the supervise loop: counted, then the loop is
 * woken by a SIGCHLD, which its signalfd reads (a wake-up only, as from
 * leash itself); the loop takes the count after it has read the signals,
 * so no SIGSYS counted before the wake-up can be missed.  One leash sent
 * itself (to its own group) is dropped, as on_signal drops the others. */
static void queue_for_loop(const siginfo_t *si)
{
	if (si->si_code == SI_USER && si->si_pid == owner)
		return;
	if (caller.sa_handler == SIG_IGN && !forward_ignored)
		return;         /* as the kernel would have dropped it */
	atomic_fetch_add(&pending, 1);
	kill(owner, SIGCHLD);
}

/* Async-signal-safe throughout; in any thread (a trap is the trapping
 * thread's, one from outside goes to whichever thread has it unblocked). */
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	int saved = errno;

	(void)sig;
	if (si->si_code == SYS_SECCOMP) {
		/* Where the result cannot be set, as uncaught: the kernel. */
		if (!set_return(ctx, -ENOSYS))
			act_default();
		last_nr = si->si_syscall;
		atomic_fetch_add(&ntraps, 1);
	} else if (owner && getpid() == owner) {
		queue_for_loop(si);
	} else if (caller.sa_handler != SIG_IGN) {
		/* Not leash's to forward (before the supervise loop is
		 * ready, or the child before exec): as the caller left it. */
		act_default();
	}
	errno = saved;
}

/* Does MASK block SIGSYS, or one of the libc's own signals (sigraw.h)? */
static bool blocks_sys_or_own(const sigset_t *mask)
{
	for (int sig = 32; sig <= SIGRAW_RTMIN; sig++)
		if (sigraw_has(mask, sig))
			return true;
	return sigraw_has(mask, SIGSYS);
}

int sigsys_catch(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigsys,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	sigset_t mask;

	/* Every other signal may come in the handler: it takes none. */
	sigemptyset(&sa.sa_mask);
	if (sigraw_mask(SIG_BLOCK, NULL, &mask) < 0 ||
	    sigaction(SIGSYS, &sa, &caller) < 0)
		return -1;
	caller_blocked = sigraw_has(&mask, SIGSYS);
	/* The caller's mask again, but SIGSYS: musl's first handler also
	 * unblocks its own 33 and 34, which the command must get as the
	 * caller left them.  Nothing to do in the usual case. */
	if (!blocks_sys_or_own(&mask))
		return 0;
	sigdelset(&mask, SIGSYS);
	return sigraw_mask(SIG_SETMASK, &mask, NULL);
}

void sigsys_forward(pid_t self, bool even_ignored)
{
	forward_ignored = even_ignored;
	owner = self;
}

bool sigsys_take(void)
{
	return atomic_exchange(&pending, 0) != 0;
}

void sigsys_for_exec(sigset_t *mask)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	/* A handler does not survive exec (the command gets the default);
	 * an ignored signal does, so it is set back by hand. */
	if (caller.sa_handler == SIG_IGN && !forward_ignored)
		sigaction(SIGSYS, &ign, NULL);
	if (caller_blocked)
		sigaddset(mask, SIGSYS);
}

unsigned sigsys_traps(void)
{
	return atomic_load(&ntraps);
}

long sigsys_last(void)
{
	return last_nr;
}

void sigsys_note(long nr)
{
	last_nr = (sig_atomic_t)nr;
}

const char *sigsys_refusal(char *buf, size_t size)
{
	long nr = last_nr;
	const char *name = sysname(nr);

	if (nr < 0)
		return NULL;
	if (name)
		snprintf(buf, size, "system call %s refused (seccomp)", name);
	else
		snprintf(buf, size, "system call %ld refused (seccomp)", nr);
	return buf;
}
