/* SPDX-License-Identifier: ISC */
/* wake: a POSIX timer that sends SIGCONT to leash itself. */
#include "wake.h"

#include <signal.h>

#include "timer.h"

#define WAKE_REPEAT_NS (20 * 1000 * 1000)

int wake_arm(struct wake *k, const struct timespec *at)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL,
			       .sigev_signo = SIGCONT };
	struct itimerspec its = { .it_interval = { 0, WAKE_REPEAT_NS },
				  .it_value = *at };

	k->armed = false;
	if (timer_create(TIMER_CLOCK, &ev, &k->id) < 0)
		return -1;
	if (timer_settime(k->id, TIMER_ABSTIME, &its, NULL) < 0) {
		timer_delete(k->id);
		return -1;
	}
	k->armed = true;
	return 0;
}

void wake_disarm(struct wake *k)
{
	if (k->armed)
		timer_delete(k->id);
	k->armed = false;
}
