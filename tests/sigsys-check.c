/* SPDX-License-Identifier: ISC */
/* sigsys-check: lib/signal/sigsys.c from inside, on every architecture leash
 * is built for, qemu-user included (which refuses a seccomp filter of
 * its guest, so tests/nosys.c cannot trap anything there).  A trap is
 * imitated: a system call that queues this thread a SIGSYS with si_code
 * SYS_SECCOMP, which the kernel delivers as that call returns, as it
 * does a real trap's; the handler must make the call return ENOSYS.
 * Prints "ok" and exits 0, or names the first broken property and
 * exits 1.  The library files are compiled in, since helpers are built
 * from one source file each. */
#include "../lib/signal/sigsys.c"
#include "../lib/signal/sigraw.c"
#include "../lib/sys/sysname.c"

#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int failed;

static void check(int ok, const char *what)
{
	if (!ok && !failed++)
		printf("broken: %s\n", what);
}

/* The imitation: rt_tgsigqueueinfo to ourselves (any si_code is
 * allowed to oneself), its return value what the handler leaves in the
 * return register. */
static long trap_as(long nr)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	si.si_signo = SIGSYS;
	si.si_code = SYS_SECCOMP;
	si.si_syscall = (int)nr;
	return syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid),
		       SIGSYS, &si);
}

static void check_trap(void)
{
	char buf[64];
	long r;

	errno = 0;
	r = trap_as(SYS_timerfd_create);
	check(r == -1 && errno == ENOSYS, "a trapped call returns -1 with ENOSYS");
	check(sigsys_traps() == 1, "a trap is counted");
	check(sigsys_last() == SYS_timerfd_create, "the trapped call is known");
	check(sigsys_refusal(buf, sizeof buf) &&
	      !strcmp(buf, "system call timerfd_create refused (seccomp)"),
	      "the refusal names the call");
	/* The next call is the caller's again. */
	check(syscall(SYS_getppid) == getppid(), "later calls return their own value");
}

/* From outside, with the loop ready: counted, and a SIGCHLD wakes it. */
static void check_forward(void)
{
	sigset_t chld, pending;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	check(!sigsys_take(), "nothing to take before a SIGSYS came");
	sigsys_forward(getpid(), false);
	/* From ourselves (leash's own group signal): dropped. */
	kill(getpid(), SIGSYS);
	check(!sigsys_take(), "one sent by leash itself is not forwarded");
	if (fork() == 0) {
		kill(getppid(), SIGSYS);
		_exit(0);
	}
	wait(NULL);
	check(sigsys_take(), "one from outside is taken by the loop");
	check(!sigsys_take(), "and only once");
	sigpending(&pending);
	check(sigismember(&pending, SIGCHLD), "the loop is woken by a SIGCHLD");
	check(sigsys_traps() == 1, "one from outside is no trap");
}

/* In a child, not the forwarding process: SIGSYS's default, death. */
static void check_default(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		kill(getpid(), SIGSYS);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
	      "one in a process that does not forward it kills, as uncaught");
}

int main(void)
{
	/* No core file from the death by SIGSYS above. */
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
	if (sigsys_catch() < 0) {
		perror("sigsys_catch");
		return 1;
	}
	check_trap();
	check_forward();
	check_default();
	if (failed)
		return 1;
	puts("ok");
	return 0;
}
