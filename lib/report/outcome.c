/* SPDX-License-Identifier: ISC */
/* outcome: leash_run_outcome, the report's fields for a host. */
#define _GNU_SOURCE
#include "report/report.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "leash.h"
#include "diag/diag.h"
#include "time/time.h"

static int result_of(const struct leash_run *r)
{
	static const int results[] = {
		[RESULT_EXITED] = LEASH_EXITED,
		[RESULT_SIGNALED] = LEASH_SIGNALED,
		[RESULT_TIMEOUT] = LEASH_TIMEOUT,
		[RESULT_KILLED_AFTER_TIMEOUT] = LEASH_KILLED_AFTER,
		[RESULT_KILLED_FROM_OUTSIDE] = LEASH_SIGNALED,
		[RESULT_OOM_KILLED] = LEASH_OOM_KILLED,
		[RESULT_IDLE] = LEASH_TIMEOUT,
		[RESULT_STALLED] = LEASH_TIMEOUT,
	};

	if (!r->done)
		return LEASH_RUNNING;
	if (r->err.stage)
		return LEASH_FAILED;
	if (r->out.lost)
		return LEASH_LOST;
	return results[report_result_of(&r->out)];
}

static int why_of(enum tally_why why)
{
	switch (why) {
	case TALLY_DEADLINE: return LEASH_WHY_DEADLINE;
	case TALLY_KILL_AFTER: return LEASH_WHY_KILL_AFTER;
	case TALLY_LEFTOVERS: return LEASH_WHY_LEFTOVERS;
	case TALLY_SESSION_END: return LEASH_WHY_SESSION_END;
	case TALLY_WARN: return LEASH_WHY_WARN;
	case TALLY_IDLE: return LEASH_WHY_IDLE;
	case TALLY_STALL: return LEASH_WHY_STALL;
	default: return LEASH_WHY_CALLER;
	}
}

static int target_of(const char *what)
{
	return !strcmp(what, "cgroup") ? LEASH_TARGET_CGROUP :
	       !strcmp(what, "tree") ? LEASH_TARGET_TREE :
	       LEASH_TARGET_COMMAND;
}

/* What supervision did: the signals, the failed kills, the leftovers
 * (the tally's arrays are the outcome's, asserted below). */
static void tally_of(const struct tally *t, struct leash_outcome *o)
{
	o->nsignals = t->nsent + t->sent_dropped;
	for (unsigned i = 0; i < t->nsent; i++)
		o->sent[i] = (struct leash_signal_sent){ t->sent[i].sig,
			why_of(t->sent[i].why), t->sent[i].at,
			t->sent[i].procs };
	o->nkills_failed = t->nfailed;
	for (unsigned i = 0; i < t->nfailed; i++)
		o->kills_failed[i] = (struct leash_kill_failed){
			t->failed[i].sig, target_of(t->failed[i].what),
			t->failed[i].err };
	/* The counts even where the look was cut short (a walk that
	 * failed half-way): --report gives them so. */
	if (t->left_seen)
		o->flags |= LEASH_OUT_LEFT_SEEN;
	o->leftovers_seen = t->nleft + t->left_dropped;
	o->leftovers_killed = t->leftovers;
	for (unsigned i = 0; i < t->nleft; i++) {
		o->left[i].pid = t->left[i].pid;
		memcpy(o->left[i].name, t->left[i].name, sizeof o->left[i].name);
	}
}

static int tree_of(enum tree_kill t)
{
	switch (t) {
	case TREE_CGROUP: return LEASH_TREE_CGROUP;
	case TREE_SUBREAPER: return LEASH_TREE_SUBREAPER;
	case TREE_GROUP: return LEASH_TREE_GROUP;
	default: return LEASH_TREE_NONE;
	}
}

static void fill(const struct leash_run *r, struct leash_outcome *o)
{
	const struct outcome *out = &r->out;
	const struct plan *p = r->plan;

	*o = (struct leash_outcome){ .size = sizeof *o };
	o->result = result_of(r);
	o->pid = r->w.pid;
	o->fallbacks = r->fallbacks;
	o->tree = tree_of(p->tree_kill);
	o->user_us = o->system_us = -1;
	o->memory_peak = o->oom_kills = o->pids_peak = o->throttled_us = -1;
	tally_of(&out->tally, o);
	if (!r->done)
		return;
	o->wall = timespec_left(&r->ended, &p->started);
	if (o->result == LEASH_FAILED) {
		o->stage = r->err.stage == SPAWN_TRAPPED ? LEASH_STAGE_NONE :
			   r->err.stage;
		o->error = r->err.err;
		return;
	}
	if (o->result != LEASH_LOST)
		o->status = out->status;
	if (o->result != LEASH_LOST && out->code != CLD_EXITED)
		o->flags |= LEASH_OUT_SIGNAL |
			    (out->code == CLD_DUMPED ? LEASH_OUT_CORE : 0);
	if (out->recovered)
		o->flags |= LEASH_OUT_RECOVERED;
	if (out->cpu_from) {
		o->user_us = out->user_us;
		o->system_us = out->system_us;
		o->flags |= out->cpu_from[0] == 'c' ? LEASH_OUT_CPU_CGROUP :
						      LEASH_OUT_CPU_RUSAGE;
	}
	if (out->have_usage) {
		o->flags |= LEASH_OUT_MEASURED;
		o->memory_peak = out->usage.memory_peak;
		o->oom_kills = out->usage.oom_kills;
		o->pids_peak = out->usage.pids_peak;
		o->throttled_us = out->usage.throttled_us;
	}
}

int leash_run_outcome(const leash_run_t *run, struct leash_outcome *out,
		      size_t size)
{
	struct leash_outcome o;

	if (!run || !out || size < offsetof(struct leash_outcome, result) +
				   sizeof out->result)
		return -EINVAL;
	fill(run, &o);
	/* The caller's struct may be older (smaller) or newer (larger). */
	if (size > sizeof o)
		size = sizeof o;
	o.size = size;
	memcpy(out, &o, size);
	return 0;
}

const char *leash_result_name(int result)
{
	switch (result) {
	case LEASH_RUNNING: return "running";
	case LEASH_EXITED: return "exited";
	case LEASH_SIGNALED: return "signaled";
	case LEASH_TIMEOUT: return "timeout";
	case LEASH_KILLED_AFTER: return "killed-after-timeout";
	case LEASH_OOM_KILLED: return "oom-killed";
	case LEASH_FAILED: return "failed";
	case LEASH_LOST: return "lost";
	}
	return "";
}

/* enum leash_stage is spawn's enum spawn_stage, from SPAWN_EXEC on; the
 * tally's lists fit the outcome's; the fallback bits are diag's. */
_Static_assert((int)LEASH_STAGE_EXEC == (int)SPAWN_EXEC &&
	       (int)LEASH_STAGE_SIGMASK == (int)SPAWN_SIGMASK, "leash_stage");
_Static_assert(TALLY_MAX_SENT == LEASH_OUT_MAX_SIGNALS &&
	       TALLY_MAX_LEFT == LEASH_OUT_MAX_LEFT &&
	       TALLY_MAX_FAILED == LEASH_OUT_MAX_FAILED &&
	       sizeof ((struct tally_left *)0)->name ==
	       sizeof ((struct leash_leftover *)0)->name, "tally");
_Static_assert(LEASH_FALLBACK_THREAD == FALLBACK_THREAD &&
	       LEASH_FALLBACK_PIDFD == FALLBACK_PIDFD &&
	       LEASH_FALLBACK_CLONE3 == FALLBACK_CLONE3 &&
	       LEASH_FALLBACK_TIMERFD == FALLBACK_TIMERFD &&
	       LEASH_FALLBACK_SIGNALFD == FALLBACK_SIGNALFD &&
	       LEASH_FALLBACK_SUBREAPER == FALLBACK_SUBREAPER &&
	       LEASH_FALLBACK_KEYRING == FALLBACK_KEYRING &&
	       LEASH_FALLBACK_CGROUP_KILL == FALLBACK_CGROUP_KILL &&
	       LEASH_FALLBACK_CLOSE_RANGE == FALLBACK_CLOSE_RANGE, "fallback");
