/* SPDX-License-Identifier: ISC */
/* fallback: which kernel interfaces a run did without, and saying so. */
#include "diag/fallback.h"

#include <stddef.h>

#include "diag/diag.h"

/* Per thread: a libleash call gathers a run's fallbacks here and moves
 * them into the run before it returns (supervise/run.c). */
_Thread_local unsigned fallback_taken;
bool fallback_verbose;

const char *fallback_name(unsigned f)
{
	switch (f) {
	case FALLBACK_THREAD: return "no-thread";
	case FALLBACK_PIDFD: return "no-pidfd";
	case FALLBACK_CLONE3: return "no-clone3";
	case FALLBACK_TIMERFD: return "no-timerfd";
	case FALLBACK_SIGNALFD: return "no-signalfd";
	case FALLBACK_SUBREAPER: return "no-subreaper";
	case FALLBACK_KEYRING: return "no-keyring";
	case FALLBACK_CGROUP_KILL: return "no-cgroup-kill";
	case FALLBACK_CLOSE_RANGE: return "no-close-range";
	}
	return NULL;
}

void fallback_note(enum fallback f)
{
	fallback_taken |= f;
}

void fallback_say(enum fallback f, int err, const char *what)
{
	diag_warn_errno(err, "fallback: %s: %s", fallback_name(f), what);
}

void fallback_take(enum fallback f, int err, const char *what)
{
	fallback_taken |= f;
	if (fallback_verbose)
		fallback_say(f, err, what);
}
