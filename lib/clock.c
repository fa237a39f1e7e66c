/* SPDX-License-Identifier: ISC */
/* clock: clock_gettime without the vDSO (see clock.h). */
#include "clock.h"

#include <sys/syscall.h>
#include <unistd.h>

void clock_now(clockid_t id, struct timespec *t)
{
	syscall(SYS_clock_gettime, id, t);
}
