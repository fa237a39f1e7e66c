/* SPDX-License-Identifier: ISC */
/* wake: a POSIX timer that sends SIGCONT to leash itself, made with the
 * kernel's calls: libc's timer_create also serves SIGEV_THREAD, whose
 * thread, barrier and start code (2.6 KiB of a static leash) a timer
 * that only signals never runs. */
#include "time/wake.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "time/clock.h"
#include "time/timer.h"

#define WAKE_REPEAT_NS (20 * 1000 * 1000)

/* AT, then every WAKE_REPEAT_NS. */
static int wake_settime(int id, const struct timespec *at)
{
	struct itimerspec its;

	/* Zeroed whole: on 32-bit, the padding beside tv_nsec too. */
	memset(&its, 0, sizeof its);
	its.it_interval.tv_nsec = WAKE_REPEAT_NS;
	its.it_value.tv_sec = at->tv_sec;
	its.it_value.tv_nsec = at->tv_nsec;
#ifdef SYS_timer_settime
	return (int)syscall(SYS_timer_settime, id, TIMER_ABSTIME, &its, NULL);
#else
	/* 32-bit musl: the time64 call, which kernels before 5.1 lack
	 * (ENOSYS), else the old one with 32-bit fields.  musl's timespec
	 * has the kernel's 64-bit layout. */
	long its32[4] = { 0, WAKE_REPEAT_NS, (long)at->tv_sec, at->tv_nsec };
	int saved = errno;
	long r = syscall(SYS_timer_settime64, id, TIMER_ABSTIME, &its, NULL);

	if (r == 0 || errno != ENOSYS)
		return (int)r;
	errno = saved;
	return (int)syscall(SYS_timer_settime32, id, TIMER_ABSTIME, its32, NULL);
#endif
}

int wake_arm(struct wake *k, const struct timespec *at)
{
	struct sigevent ev;

	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGCONT;
	k->armed = false;
	/* The kernel writes an int (its timer_t), whatever libc's is. */
	if (syscall(SYS_timer_create, LEASH_CLOCK, &ev, &k->id) < 0)
		return -1;
	if (wake_settime(k->id, at) < 0) {
		syscall(SYS_timer_delete, k->id);
		return -1;
	}
	k->armed = true;
	return 0;
}

void wake_disarm(struct wake *k)
{
	if (k->armed)
		syscall(SYS_timer_delete, k->id);
	k->armed = false;
}
