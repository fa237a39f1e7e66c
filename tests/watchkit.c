/* SPDX-License-Identifier: ISC */
/* watchkit: processes for tests/watch.bats and the watch bench, each
 * as root changing to a uid the way set_user() callers do.
 *   watchkit fork UID N child|double SECS
 *       setresuid(UID), then at once N children (or N double-forked
 *       grandchildren, the middle gone at once) that sleep SECS; prints
 *       the sleepers' pids, one a line; the first process exits once
 *       it has forked them (and, double, reaped the middles)
 *   watchkit reuse UID SECS
 *       R: setresuid(UID), forks C, which exits; R exits; then a root
 *       process B is made with C's pid (clone3 set_tid) 50 ms later and
 *       sleeps SECS;
 *       prints "R C B"
 *   watchkit threads N
 *       creates and joins N threads one after another (N FORK events)
 *   watchkit uids N
 *       as root, N times euid to 65534 and back: 2N UID events, each a
 *       system call (a flood that is cheap under emulation, check-vm)
 *   watchkit forks N
 *       N fork + _exit + wait, then prints the forks per second */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>

static void become(uid_t uid)
{
	/* raw calls: one thread, no libc broadcast needed */
	if (syscall(SYS_setgroups, 0, NULL) || syscall(SYS_setresgid, uid, uid, uid) ||
	    syscall(SYS_setresuid, uid, uid, uid)) {
		perror("watchkit: setresuid");
		_exit(125);
	}
}

static void sleeper(unsigned secs)
{
	printf("%d\n", (int)getpid());
	fflush(stdout);
	sleep(secs);
	_exit(0);
}

static int kit_fork(uid_t uid, int n, int dbl, unsigned secs)
{
	pid_t first = fork();

	if (first < 0)
		return perror("fork"), 1;
	if (first > 0)
		return waitpid(first, NULL, 0), 0;
	become(uid);
	for (int i = 0; i < n; i++) {
		pid_t c = fork();

		if (c == 0 && !dbl)
			sleeper(secs);
		if (c == 0) {
			if (fork() == 0)
				sleeper(secs);
			_exit(0);
		}
	}
	while (dbl && wait(NULL) > 0)
		;
	_exit(0);
}

static pid_t clone_at(pid_t want)
{
	struct clone_args a;
	pid_t tid = want;

	memset(&a, 0, sizeof a);
	a.exit_signal = SIGCHLD;
	a.set_tid = (uint64_t)(uintptr_t)&tid;
	a.set_tid_size = 1;
	return (pid_t)syscall(SYS_clone3, &a, sizeof a);
}

static int kit_reuse(uid_t uid, unsigned secs)
{
	int fd[2];
	pid_t r, c = 0, b;

	if (pipe(fd) || (r = fork()) < 0)
		return perror("watchkit"), 1;
	if (r == 0) {
		become(uid);
		c = fork();
		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
		(void)!write(fd[1], &c, sizeof c);
		_exit(0);
	}
	waitpid(r, NULL, 0);
	if (read(fd[0], &c, sizeof c) != sizeof c)
		return 1;
	/* Some ticks later: /proc's start times (10 ms) tell B from C. */
	usleep(50000);
	b = clone_at(c);
	if (b < 0)
		return perror("watchkit: clone3 set_tid"), 1;
	if (b == 0) {
		sleep(secs);
		_exit(0);
	}
	printf("%d %d %d\n", (int)r, (int)c, (int)b);
	return 0;
}

static void *nothing(void *arg)
{
	return arg;
}

static int kit_threads(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, nothing, NULL))
			return perror("pthread_create"), 1;
		pthread_join(t, NULL);
	}
	return 0;
}

static int kit_uids(long n)
{
	for (long i = 0; i < n; i++) {
		/* raw calls: one thread, no libc broadcast needed */
		if (syscall(SYS_setresuid, -1, 65534, -1) ||
		    syscall(SYS_setresuid, -1, 0, -1))
			return perror("watchkit: setresuid"), 1;
	}
	return 0;
}

static int kit_forks(long n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	long us = (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000;
	printf("%ld\n", us > 0 ? n * 1000000L / us : 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "fork"))
		return kit_fork((uid_t)atol(argv[2]), atoi(argv[3]),
				!strcmp(argv[4], "double"), (unsigned)atoi(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "reuse"))
		return kit_reuse((uid_t)atol(argv[2]), (unsigned)atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return kit_threads(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "uids"))
		return kit_uids(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "forks"))
		return kit_forks(atol(argv[2]));
	fputs("usage: watchkit fork|reuse|threads|uids|forks ...\n", stderr);
	return 2;
}
