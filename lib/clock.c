/* SPDX-License-Identifier: ISC */
/* clock: clock_gettime without the vDSO (see clock.h). */
#include "clock.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

void clock_now(clockid_t id, struct timespec *t)
{
#ifdef SYS_clock_gettime
	syscall(SYS_clock_gettime, id, t);
#else
	/* 32-bit musl: only the time64 call, which kernels before 5.1 lack
	 * (ENOSYS), and the old one with 32-bit fields.  musl's timespec has
	 * the kernel's 64-bit layout. */
	long t32[2];
	int saved = errno;

	if (syscall(SYS_clock_gettime64, id, t) == 0 || errno != ENOSYS)
		return;
	errno = saved;
	syscall(SYS_clock_gettime32, id, t32);
	t->tv_sec = t32[0];
	t->tv_nsec = t32[1];
#endif
}
