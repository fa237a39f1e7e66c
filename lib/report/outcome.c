/* SPDX-License-Identifier: ISC */
/* outcome: leash_run_outcome, the report's fields for a host. */
#define _GNU_SOURCE
#include "report/report.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "leash.h"
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
	default: return LEASH_WHY_CALLER;
	}
}

static void signals_of(const struct tally *t, struct leash_outcome *o)
{
	o->nsignals = t->nsent + t->sent_dropped;
	for (unsigned i = 0; i < t->nsent && i < LEASH_OUT_MAX_SIGNALS; i++)
		o->sent[i] = (struct leash_signal_sent){ t->sent[i].sig,
			why_of(t->sent[i].why), t->sent[i].at,
			t->sent[i].procs };
}

static void fill(const struct leash_run *r, struct leash_outcome *o)
{
	const struct outcome *out = &r->out;
	const struct plan *p = r->plan;

	*o = (struct leash_outcome){ .size = sizeof *o };
	o->result = result_of(r);
	o->pid = r->w.pid;
	o->fallbacks = r->fallbacks;
	o->tree = p->tree_kill == TREE_CGROUP ? LEASH_TREE_CGROUP :
		  p->tree_kill == TREE_NONE ? LEASH_TREE_NONE : LEASH_TREE_GROUP;
	o->user_us = o->system_us = -1;
	o->memory_peak = o->oom_kills = o->pids_peak = o->throttled_us = -1;
	signals_of(&out->tally, o);
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
	o->flags = (out->recovered ? LEASH_OUT_RECOVERED : 0) |
		   (out->tally.left_seen ? LEASH_OUT_LEFT_SEEN : 0);
	if (out->cpu_from) {
		o->user_us = out->user_us;
		o->system_us = out->system_us;
		o->flags |= out->cpu_from[0] == 'c' ? LEASH_OUT_CPU_CGROUP :
						      LEASH_OUT_CPU_RUSAGE;
	}
	o->leftovers_seen = out->tally.nleft + out->tally.left_dropped;
	o->leftovers_killed = out->tally.leftovers;
	if (out->have_usage) {
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

/* enum leash_stage is spawn's enum spawn_stage, from SPAWN_EXEC on. */
_Static_assert((int)LEASH_STAGE_EXEC == (int)SPAWN_EXEC &&
	       (int)LEASH_STAGE_SIGMASK == (int)SPAWN_SIGMASK, "leash_stage");
