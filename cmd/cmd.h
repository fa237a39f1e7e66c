/* SPDX-License-Identifier: ISC */
/* cmd: the personalities and the one story they share. */
#ifndef LEASH_CMD_H
#define LEASH_CMD_H

#include "spawn/spawn.h"
#include "supervise/supervise.h"

#define LEASH_VERSION "0.1.0"

/* Exit statuses (DESIGN.md, "Exit status"). */
enum {
	EXIT_TIMEDOUT = 124,
	EXIT_CANCELED = 125,    /* leash itself failed */
	EXIT_CANNOT_INVOKE = 126,
	EXIT_ENOENT = 127,
};

/* main's first step: now on LEASH_CLOCK is the deadline's origin, so
 * that parsing, user lookup, the cgroup and the fork are inside
 * DURATION; run_started gives it back (run_plan sets plan->started). */
void run_clock_start(void);
const struct timespec *run_started(void);

int leash_main(int argc, char **argv);
int timeout_main(int argc, char **argv);
int su_main(int argc, char **argv);
/* leash watch: every uid change into its uid's group (lib/watch/). */
int watch_main(int argc, char **argv);

/* The story every personality ends in: prepare the cgroup, spawn,
 * supervise, release.  Returns 0 with *OUT filled (and *ERR->stage set
 * when the child failed before exec), or -1 with errno when leash itself
 * failed (a message was printed; the caller exits with its own code). */
int run_plan(struct plan *plan, struct outcome *out, struct spawn_error *err);

/* The last launch's outcome as libleash gives it (leash_run_outcome):
 * the one source of --report's account of the run.  -1: none made. */
struct leash_outcome;
int run_outcome(struct leash_outcome *o);

/* run_plan, then the exit status as GNU timeout words and numbers it:
 * exec failures 126/127, leash's own 125, else outcome_status. */
int run_to_status(struct plan *plan);

/* Say which step of the child failed before exec (not SPAWN_EXEC). */
void spawn_error_report(struct plan *plan, const struct spawn_error *e);

/* After --help or --version: exit 0, or FAILURE with GNU's "write
 * error" line when stdout could not take the text (e.g. /dev/full). */
_Noreturn void exit_after_output(int failure);

/* The command's fate as an exit status: the signal re-raised on ourselves
 * (plan->signal_as_status false) or 128+N.  outcome_status is
 * outcome_decide (the status, as the caller will see it: 128+N for a
 * death leash passes on), then outcome_die (re-raise the command's
 * signal, or GNU's KILL to the group; returns when neither applies). */
int outcome_status(const struct plan *plan, const struct outcome *out);
int outcome_decide(const struct plan *plan, const struct outcome *out);
bool outcome_reraises(const struct plan *plan, const struct outcome *out);
void outcome_die(const struct plan *plan, const struct outcome *out);

/* run_to_status without outcome_die: *RAN says whether OUT holds the
 * command's fate (false: leash or the exec failed, a message printed). */
int run_decide(struct plan *plan, struct outcome *out, bool *ran);

#endif
