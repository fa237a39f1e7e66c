/* SPDX-License-Identifier: ISC */
/* time: the one clock of leash and everything that names a time on it.
 *
 * Promises: every deadline, every "since leash started" and every stamp
 * leash writes is on one clock (clock.h: CLOCK_BOOTTIME, counting the
 * time leash is stopped and the machine suspended, as GNU timeout's
 * real-time timer does); the timespec arithmetic saturates instead of
 * wrapping; a deadline is absolute, so no stop of leash moves it
 * (timer, wake); DURATION is read as GNU timeout reads it (duration);
 * LEASH_DEADLINE, the budget a nested leash inherits, is written and
 * read here only (budget).  Changing the clock changes all of these
 * together, and nothing outside this folder.
 * Never: a relative timeout that the kernel restarts after a stop. */
#ifndef LEASH_TIME_H
#define LEASH_TIME_H

#include "time/budget.h"
#include "time/clock.h"
#include "time/duration.h"
#include "time/timer.h"
#include "time/wake.h"

#endif
