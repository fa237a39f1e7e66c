/* SPDX-License-Identifier: ISC */
/* sigsys: a seccomp trap taken as ENOSYS; SIGSYS from outside forwarded. */
#define _GNU_SOURCE
#include "sigsys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

#include "sysname.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

static struct sigaction caller;         /* SIGSYS as leash found it */
static bool caller_blocked;
static bool forward_ignored;            /* -s SYS: forwarded even so */
static pid_t owner;                     /* the process that forwards */
static int pipefd[2] = { -1, -1 };      /* senders of SIGSYS from outside */
static volatile sig_atomic_t last_nr = -1;
static volatile sig_atomic_t ntraps;

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
		ntraps++;
	} else if (pipefd[1] >= 0 && getpid() == owner) {
		pid_t from = si->si_pid;

		if (forward_ignored || caller.sa_handler != SIG_IGN)
			(void)!write(pipefd[1], &from, sizeof from);
	} else if (caller.sa_handler != SIG_IGN) {
		/* Not leash's to forward (before the supervise loop is
		 * ready, or the child before exec): as the caller left it. */
		act_default();
	}
	errno = saved;
}

int sigsys_catch(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigsys,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	sigset_t sys, old;

	/* Every other signal may come in the handler: it takes none. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, &caller) < 0)
		return -1;
	sigemptyset(&sys);
	sigaddset(&sys, SIGSYS);
	if (sigprocmask(SIG_UNBLOCK, &sys, &old) < 0)
		return -1;
	caller_blocked = sigismember(&old, SIGSYS);
	return 0;
}

int sigsys_forward(bool even_ignored)
{
	forward_ignored = even_ignored;
	owner = getpid();
	/* Once per process: a second launch (the rerun without a cgroup)
	 * reads what came meanwhile, as from a blocked signal. */
	if (pipefd[0] < 0 && pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

int sigsys_fd(void)
{
	return pipefd[0];
}

int sigsys_next(pid_t *from)
{
	return pipefd[0] >= 0 &&
	       read(pipefd[0], from, sizeof *from) == (ssize_t)sizeof *from;
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
	return (unsigned)ntraps;
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
