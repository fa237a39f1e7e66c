/* SPDX-License-Identifier: ISC */
/* waiter: learn that the child exited without reaping it, so its pid
 * stays pinned (a zombie) and kill() can never reach a recycled pid.
 * Strategies: a thread blocked in waitid(WNOWAIT) (default), a pidfd,
 * or WNOHANG polling every 100 ms. */
#ifndef LEASH_WAITER_H
#define LEASH_WAITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "signal/signal.h"

enum waiter_kind { WAITER_THREAD, WAITER_PIDFD, WAITER_POLL };

struct waiter {
	enum waiter_kind kind;
	pid_t pid;
	int fd;                 /* readable once the child exited; -1 for poll */
	bool exited;            /* known to have exited */
	atomic_bool lost_wake;  /* the thread's write was refused: it
				 * exited, told by this and a SIGCHLD */
	struct sigthread sig;   /* the thread's mask, the caller's */
	/* In a host (libleash): the pidfd is the run's (BORROWED, never
	 * closed here); a thread is the run's own, every signal blocked in
	 * it, joined by waiter_stop. */
	bool host, borrowed, joinable;
	pthread_t thread;
	/* leash(1)'s thread may make the child first (spawn_job): SPAWN
	 * returns its pid, or -1 when none was made (the thread ends). */
	pid_t (*spawn)(void *arg);
	void *spawn_arg;
};

/* LEASH_WAIT=thread|pidfd|poll, default thread.  -1/EINVAL otherwise. */
int waiter_kind_from_env(enum waiter_kind *kind);

/* Start watching PID (PIDFD: its pidfd, or -1; HOST: inside a host
 * process, see above).  A thread or pidfd that cannot be had falls back
 * to polling by itself: -1 with errno then (the watch works all the
 * same), 0 when KIND is in use. */
int waiter_start(struct waiter *w, enum waiter_kind kind, pid_t pid,
		 int pidfd, bool host);

/* The thread strategy, the thread making the child first: SPAWN(ARG)
 * (spawn_job_run), then the wait for the pid it returned; the caller
 * learns that pid from the kernel's copy (spawn_job_born), and sets
 * W->pid.
 * -1 with errno when no thread could be had: nothing was made. */
int waiter_start_spawning(struct waiter *w, pid_t (*spawn)(void *),
			  void *arg);

/* Return once no thread of the waiter can take a signal the caller
 * blocked when it started it: before leash signals its own group. */
void waiter_settle(struct waiter *w);

/* Poll timeout cap in ms for the strategy (-1: none). */
int waiter_interval_ms(const struct waiter *w);

/* The waiter's fd is readable: take its news (the thread's is read). */
void waiter_ready(struct waiter *w);

/* Has the child exited, as far as the waiter has told?  Polling asks
 * the kernel here, at every wake-up.  Never reaps. */
bool waiter_exited(struct waiter *w);

/* Close the descriptors.  A thread has written by then and ends by
 * itself; the next waiter_start joins it before using its stack again
 * (a host's thread is joined here). */
void waiter_stop(struct waiter *w);

#endif
