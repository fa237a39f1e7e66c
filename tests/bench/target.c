/* SPDX-License-Identifier: ISC */
/* target: the programs the supervisors run.  The harness binary is
 * copied into a private directory and hard-linked under these names, so
 * every row starts the same small static executable.
 *   true               exit 0 at once
 *   stamp US           sleep US µs, write CLOCK_MONOTONIC ns to fd 3, exit 0
 *   sleeper            like `sleep 10`; on SIGTERM write the time to fd 3,
 *                      then die of the signal
 *   holder [MS]        write the time to fd 3 (ready), live MS (400) ms
 *   slowsup ...        a slow supervisor, for the self-test (below)
 *   minsup CMD...      the floor of leash's launch: a minimal supervisor
 *                      (fork, exec, a waitid(WNOWAIT) thread, poll on its
 *                      eventfd, one reap), no options, no cgroup
 *   mincg V1 V2 CMD... the same plus the floor of leash's cgroup step
 *                      (mincg.c)
 *   minrep FILE CMD... minsup plus the floor of --report=FILE's file
 *                      (minrep.c) */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int target_slowsup(int argc, char **argv);
static int target_minsup(int argc, char **argv);

static void stamp_fd3(void)
{
	int64_t t = now_ns();

	/* fd 3 may be absent (a peer closed it): nothing to report then */
	if (write(3, &t, sizeof t) < 0)
		return;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (nanosleep(&ts, &ts) < 0)
		;
}

/* Async-signal-safe: clock_gettime and write, then the default death. */
static void on_term(int sig)
{
	stamp_fd3();
	signal(sig, SIG_DFL);
	raise(sig);
}

int target_main(const char *name, int argc, char **argv)
{
	if (!strcmp(name, "stamp")) {
		sleep_ns(argc > 1 ? atoll(argv[1]) * 1000 : 0);
		stamp_fd3();
		_exit(0);
	}
	if (!strcmp(name, "sleeper")) {
		struct sigaction sa = { .sa_handler = on_term };

		sigaction(SIGTERM, &sa, NULL);
		sleep_ns(10 * 1000000000LL);
		return 0;
	}
	if (!strcmp(name, "slowsup"))
		return target_slowsup(argc, argv);
	if (!strcmp(name, "minsup"))
		return target_minsup(argc, argv);
	if (!strcmp(name, "mincg"))
		return target_mincg(argc, argv);
	if (!strcmp(name, "minrep"))
		return target_minrep(argc, argv);
	if (!strcmp(name, "holder")) {
		stamp_fd3();
		sleep_ns((argc > 1 ? atoll(argv[1]) : 400) * 1000000);
		return 0;
	}
	return 0;                   /* true */
}

/* slowsup EXIT_US KILL_US CMD...: a deliberately slow supervisor for the
 * self-test.  Runs CMD; KILL_US > 0: SIGTERM to it after KILL_US;
 * after it exited, waits EXIT_US more before exiting itself. */
static int target_slowsup(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc < 4)
		return 2;
	pid = fork();
	if (pid == 0) {
		execv(argv[3], argv + 3);
		_exit(127);
	}
	if (pid < 0)
		return 1;
	if (atoll(argv[2]) > 0) {
		sleep_ns(atoll(argv[2]) * 1000);
		kill(pid, SIGTERM);
	}
	waitpid(pid, &status, 0);
	sleep_ns(atoll(argv[1]) * 1000);
	return 0;
}

struct minsup { pid_t pid; int efd; };

static void *minsup_wait(void *arg)
{
	struct minsup *m = arg;
	siginfo_t si;
	uint64_t one = 1;

	while (waitid(P_PID, (id_t)m->pid, &si, WEXITED | WNOWAIT) < 0)
		;
	if (write(m->efd, &one, sizeof one) < 0)
		return NULL;
	return NULL;
}

/* minsup CMD...: what any supervisor of leash's kind has to do. */
static int target_minsup(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	return minsup_run(argv + 1);
}

int minsup_run(char **cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(cmd[0], cmd);
		_exit(127);
	}
	return minsup_supervise(pid);
}

int minsup_supervise(pid_t pid)
{
	static unsigned char stack[16 * 1024];
	struct minsup m = { pid, -1 };
	pthread_attr_t attr;
	pthread_t t;
	siginfo_t si;

	if (m.pid < 0)
		return 1;
	m.efd = eventfd(0, EFD_CLOEXEC);
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, stack, sizeof stack);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &attr, minsup_wait, &m);
	struct pollfd pfd = { m.efd, POLLIN, 0 };
	while (poll(&pfd, 1, -1) < 0)
		;
	waitid(P_PID, (id_t)m.pid, &si, WEXITED);
	return si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
}
