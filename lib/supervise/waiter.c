/* SPDX-License-Identifier: ISC */
/* waiter: learn of the child's exit without reaping it. */
#define _GNU_SOURCE
#include "supervise/waiter.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "signal/signal.h"
#include "sys/sys.h"

#define POLL_INTERVAL_MS 100
/* The thread only blocks in waitid: a small stack keeps leash's RSS low. */
#define WAITER_STACK (16 * 1024)

/* In .bss: no mmap, mprotect and munmap of a stack per launch. */
static BSS_PAGE unsigned char waiter_stack[WAITER_STACK];

int waiter_kind_from_env(enum waiter_kind *kind)
{
	const char *v = getenv("LEASH_WAIT");

	if (!v || !*v || !strcmp(v, "thread"))
		*kind = WAITER_THREAD;
	else if (!strcmp(v, "pidfd"))
		*kind = WAITER_PIDFD;
	else if (!strcmp(v, "poll"))
		*kind = WAITER_POLL;
	else
		return errno = EINVAL, -1;
	return 0;
}

/* WNOWAIT leaves the child a zombie: its pid stays ours until the main
 * thread reaps it, so no kill() can reach a recycled pid. */
static void *waiter_thread(void *arg)
{
	struct waiter *w = arg;
	pid_t pid = w->pid;
	siginfo_t si;
	uint64_t one = 1;

	sigthread_enter(&w->sig);
	if (w->spawn) {
		/* The child copies our dispositions: leash's, not the relay's
		 * that sigthread lends them meanwhile. */
		sigthread_settle(&w->sig);
		if ((pid = w->spawn(w->spawn_arg)) < 0)
			return NULL;
	}
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 &&
	       errno == EINTR)
		;
	/* The news, and the thread's last touch of *w: once the main
	 * thread has read it, it may close the eventfd and leave W's frame. */
	while (write(w->fd, &one, sizeof one) < 0)
		if (errno != EINTR) {
			/* A refused write (a seccomp trap: ENOSYS): the news
			 * by a flag, then a wake-up the signalfd reads. */
			atomic_store(&w->lost_wake, true);
			kill(getpid(), SIGCHLD);
			break;
		}
	return NULL;
}

/* The last watch's thread.  Joinable, and joined only before the next
 * thread takes the same stack (a second launch in this process: the rerun
 * without a cgroup): once the main thread has read its news, it may
 * still be on its way out on that stack.  A single launch never joins:
 * exit_group() ends the thread, and the main thread sleeps no more. */
static pthread_t last_thread;
static bool last_live;

/* Would a seccomp filter trap the clone that makes a thread?  libc's
 * pthread_create blocks every signal around it, and a trap with SIGSYS
 * blocked kills leash (lib/signal/sigsys.h): so the same call is made first
 * with flags the kernel refuses before it makes anything (CLONE_THREAD
 * without CLONE_SIGHAND: EINVAL), where a trap comes back as ENOSYS.
 * glibc tries clone3 first (too small a struct: EINVAL). */
static bool thread_trapped(void)
{
	unsigned before = sigsys_traps();

#ifdef __GLIBC__
	syscall(SYS_clone3, NULL, (size_t)0);
#endif
	syscall(SYS_clone, (unsigned long)CLONE_THREAD, 0UL, 0UL, 0UL, 0UL);
	return sigsys_traps() != before;
}

static int waiter_start_thread(struct waiter *w)
{
	pthread_attr_t attr;
	int err;

	if (last_live) {
		pthread_join(last_thread, NULL);
		last_live = false;
	}
	if (thread_trapped())
		return errno = ENOSYS, -1;
	w->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->fd < 0)
		return -1;
	/* The thread blocks what the caller blocked (supervise_prepare:
	 * every signal leash handles), so that each stays pending for the
	 * main thread's signalfd; sigthread keeps the libc's own ones so.
	 * Not SIGSYS: a trap in the thread comes back as ENOSYS too, and
	 * one sent from outside that the thread takes is counted for the
	 * main thread's loop (lib/signal/sigsys.h). */
	sigthread_before(&w->sig);
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, waiter_stack, sizeof waiter_stack);
	err = pthread_create(&last_thread, &attr, waiter_thread, w);
	pthread_attr_destroy(&attr);
	sigthread_after(&w->sig, err == 0);
	if (err) {
		close(w->fd);
		w->fd = -1;
		return errno = err, -1;
	}
	last_live = true;
	return 0;
}

/* In a host: a thread of the run's own, with every signal blocked (the
 * host's signals are never taken by it), on a stack of libc's. */
static void *host_thread(void *arg)
{
	struct waiter *w = arg;
	siginfo_t si;
	uint64_t one = 1;

	while (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOWAIT) < 0 &&
	       errno == EINTR)
		;
	while (write(w->fd, &one, sizeof one) < 0 && errno == EINTR)
		;
	return NULL;
}

static int waiter_start_host_thread(struct waiter *w)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int err;

	w->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->fd < 0)
		return -1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	err = pthread_create(&w->thread, &attr, host_thread, w);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(w->fd);
		w->fd = -1;
		return errno = err, -1;
	}
	w->joinable = true;
	return 0;
}

static int waiter_start_pidfd(struct waiter *w)
{
	/* Race-free: the child cannot be reaped before we do it. */
	w->fd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	return w->fd < 0 ? -1 : 0;
}

static void waiter_init(struct waiter *w, enum waiter_kind kind, pid_t pid,
			bool host)
{
	w->kind = kind;
	w->pid = pid;
	w->fd = -1;
	w->exited = false;
	w->host = host;
	w->borrowed = false;
	w->joinable = false;
	w->spawn = NULL;
	atomic_store(&w->lost_wake, false);
}

int waiter_start_spawning(struct waiter *w, pid_t (*spawn)(void *),
			  void *arg)
{
	waiter_init(w, WAITER_THREAD, 0, false);
	w->spawn = spawn;
	w->spawn_arg = arg;
	return waiter_start_thread(w);
}

int waiter_start(struct waiter *w, enum waiter_kind kind, pid_t pid,
		 int pidfd, bool host)
{
	waiter_init(w, kind, pid, host);
	if (kind == WAITER_PIDFD && pidfd >= 0) {
		w->fd = pidfd;
		w->borrowed = true;
		return 0;
	}
	if (kind == WAITER_THREAD &&
	    (host ? waiter_start_host_thread(w) : waiter_start_thread(w)) == 0)
		return 0;
	if (kind == WAITER_PIDFD && waiter_start_pidfd(w) == 0)
		return 0;
	if (kind == WAITER_POLL)
		return 0;
	w->kind = WAITER_POLL;
	return -1;
}

void waiter_settle(struct waiter *w)
{
	if (w->kind == WAITER_THREAD)
		sigthread_settle(&w->sig);
}

int waiter_interval_ms(const struct waiter *w)
{
	return w->kind == WAITER_POLL ? POLL_INTERVAL_MS : -1;
}

void waiter_ready(struct waiter *w)
{
	uint64_t n;

	/* Read, not only seen: an eventfd stays readable until read, so a
	 * loop that left it unread would poll a ready descriptor, spinning
	 * until the thread ran again. */
	if (w->kind == WAITER_THREAD)
		w->exited = read(w->fd, &n, sizeof n) == (ssize_t)sizeof n;
	else if (w->kind == WAITER_PIDFD)
		w->exited = true;       /* a pidfd is readable once it exited */
}

bool waiter_exited(struct waiter *w)
{
	siginfo_t si;

	if (w->kind == WAITER_THREAD && atomic_load(&w->lost_wake))
		w->exited = true;
	if (w->kind != WAITER_POLL || w->exited)
		return w->exited;
	/* A poll tick: ask without reaping. */
	si.si_pid = 0;
	if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return w->exited = errno == ECHILD;
	return w->exited = si.si_pid != 0;
}

void waiter_stop(struct waiter *w)
{
	if (w->joinable) {
		pthread_join(w->thread, NULL);
		w->joinable = false;
	}
	if (w->fd >= 0 && !w->borrowed)
		close(w->fd);
	w->fd = -1;
}
