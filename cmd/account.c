/* SPDX-License-Identifier: ISC */
/* account: the native personality's --report and -v account of a run,
 * the identity line first and one summary line last. */
#include "account.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "time/time.h"
#include "diag/diag.h"
#include "report/report.h"
#include "signal/signal.h"

static struct {
	struct reportfile file;
	bool reporting;
	pid_t pid;              /* leash itself: a forked child never reports */
	struct plan *plan;
	bool resolved;          /* identity resolved: it goes in the report */
	bool done;
	char why_none[512];     /* the reason cgroup.c gave for no group */
	const char *why;        /* cmd/'s reason, or why_none */
	gid_t caller_groups[64];
} ac = { .file = { .fd = -1 } };

static void account_on_die(int status);

void account_report_file(const char *path)
{
	if (ac.reporting)
		reportfile_abort(&ac.file);
	if (reportfile_open(&ac.file, path) < 0) {
		if (ac.file.shared)
			diag_die(EXIT_CANCELED, "cannot write report to %s: "
				 "others may write its directory%s (use one "
				 "of your own, or --report-fd)", diag_quote(path),
				 ac.file.shared == SAFEDIR_ABOVE ?
				 ", or one on its way" : "");
		diag_die_errno(EXIT_CANCELED, errno, "cannot write report to %s",
			       diag_quote(path));
	}
	ac.reporting = true;
	ac.pid = getpid();
	diag_exit_hook = account_on_die;
}

void account_report_fd(int fd)
{
	if (ac.reporting)
		reportfile_abort(&ac.file);
	if (reportfile_use_fd(&ac.file, fd) < 0)
		diag_die_errno(EXIT_CANCELED, errno, "cannot write report to "
			       "descriptor %d", fd);
	ac.reporting = true;
	ac.pid = getpid();
	diag_exit_hook = account_on_die;
}

bool account_wanted(void)
{
	return ac.reporting;
}

/* cgroup.c's -v notes: printed under -v, and the reason for running
 * without a group kept for the report and the dropped-option warning. */
static void account_note(const char *fmt, ...)
{
	static const char lead[] = "running without a cgroup: ";
	char buf[sizeof ac.why_none];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!strncmp(buf, lead, sizeof lead - 1))
		snprintf(ac.why_none, sizeof ac.why_none, "%s",
			 buf + sizeof lead - 1);
	if (ac.plan && ac.plan->verbose)
		diag_warn("%s", buf);
}

void account_plan(struct plan *p, const char *why_none)
{
	ac.plan = p;
	p->account = ac.reporting || p->verbose;
	/* A pointer, not a copy: no stdio on the path of a plain -t. */
	ac.why = why_none ? why_none : ac.why_none;
	p->cg_why_none = ac.why;
	p->cg.warn = diag_warn;
	/* The notes carry the reason: take them whenever it may be told. */
	if (p->account || p->cg.weight || p->cg_root_asked) {
		p->cg.verbose = true;
		p->cg.note = account_note;
	}
}

static void groups_text(char *buf, size_t size, gid_t gid, const gid_t *g,
			size_t n)
{
	size_t at = (size_t)snprintf(buf, size, "%lu", (unsigned long)gid);

	for (size_t i = 0; i < n && at < size; i++)
		if (g[i] != gid)
			at += (size_t)snprintf(buf + at, size - at, ",%lu",
					       (unsigned long)g[i]);
}

/* The identity as the report gives it: -u's, else the caller's. */
static void identity(struct report *r)
{
	const struct ident *id = &ac.plan->id;
	int n;

	if (!ac.resolved)
		return;
	if (!id->have_uid) {
		r->id_source = "caller";
		r->uid = getuid();
		r->gid = getgid();
		n = getgroups(64, ac.caller_groups);
		r->groups = ac.caller_groups;
		r->ngroups = n > 0 ? (size_t)n : 0;
		return;
	}
	r->id_source = id->source ? id->source : "passwd";
	r->user = id->user;
	r->uid = id->uid;
	r->gid = id->have_gid ? id->gid : id->uid;
	r->groups = id->groups;
	r->ngroups = id->have_groups ? id->ngroups : 0;
}

void account_start(void)
{
	struct report r = { 0 };
	char groups[512];

	ac.resolved = true;
	if (!ac.plan->verbose)
		return;
	identity(&r);
	groups_text(groups, sizeof groups, r.gid, r.groups, r.ngroups);
	if (!strcmp(r.id_source, "caller"))
		diag_warn("running as the caller, uid %lu, groups %s",
			  (unsigned long)r.uid, groups);
	else
		diag_warn("running as %s (%lu), groups %s, %s", r.user,
			  (unsigned long)r.uid, groups,
			  !strcmp(r.id_source, "passwd") ? "from /etc/passwd" :
			  !strcmp(r.id_source, "nss") ? "from NSS (getent)" :
			  !strcmp(r.id_source, "number") ?
			  "a number without a passwd entry" : "an Android id");
}

/* What only leash knows of a run its outcome says timed out: whether
 * --idle or --stall was the deadline that ended it. */
static void classify(struct report *r, const struct outcome *out)
{
	r->ended_by = report_timed_out_by(out, 0);
}

static void where(struct report *r)
{
	const struct plan *p = ac.plan;
	const struct cgroup_plan *cg = &p->cg;

	r->tree_kill = p->tree_kill;
	r->pty = p->pty != NULL;
	r->deadline_from = duration_is_zero(&p->deadline) ? NULL :
			   p->deadline_inherited ? BUDGET_ENV : "option";
	/* leash's own, taken around the launch: the launch's are its
	 * outcome's (report.c lists both). */
	r->fallbacks = fallback_taken;
	r->sd_unit = cg->unit[0] ? cg->unit : NULL;
	/* The paths outlive cgroup_release (which clears active); "" when
	 * no group came of it, or cgroup_prepare never ran (off).  A
	 * tracking leaf alone (--cgroup=track, no cpu controller) is
	 * cgroup2's, under its uid group there. */
	if (!cg->version && cg->leaf[0]) {
		r->cg_hierarchy = "v2";
		r->cg_path = cg->leaf_uid;
		r->cg_leaf = cg->leaf;
		return;
	}
	if (!cg->version || !cg->cpu_uid[0]) {
		r->cg_reason = ac.why && *ac.why ? ac.why : "none";
		return;
	}
	r->cg_hierarchy = cg->version == 1 ? "v1" : "v2";
	r->cg_path = cg->cpu_uid;
	r->cg_leaf = cg->leaf[0] ? cg->leaf : NULL;
	r->cg_uid_group = cg->created ? "created" : "joined";
	r->cg_weight = cg->weight;
}

static const char *given(const char *v)
{
	return *v ? v : NULL;
}

/* The limits given. */
static void limits(struct report *r)
{
	const struct cgroup_plan *cg = &ac.plan->cg;

	for (int i = 0; i < CGROUP_NLIMITS; i++)
		r->limits[i] = given(cg->limits[i]);
}

static void wall(struct report *r)
{
	r->wall = timespec_since(run_started());
}

/* "TERM to 3 processes, KILL to 1 process" from the outcome. */
static void sent_text(char *buf, size_t size, const struct leash_outcome *o)
{
	size_t at = 0;
	char name[16];

	buf[0] = '\0';
	for (unsigned i = 0; o && i < o->nsignals && i < LEASH_OUT_MAX_SIGNALS &&
	     at < size; i++) {
		const struct leash_signal_sent *s = &o->sent[i];
		if (s->why == LEASH_WHY_LEFTOVERS)
			continue;
		at += (size_t)snprintf(buf + at, size - at, "%s%s to %u process%s",
				       at ? ", " : ": ", signal_name(s->sig, name,
				       sizeof name), s->procs,
				       s->procs == 1 ? "" : "es");
	}
}

/* -v: what the command left running, by pid and name (a name is the
 * target's to choose: no control character reaches the terminal). */
static void say_leftovers(const struct leash_outcome *o)
{
	char line[512];
	size_t at = 0;
	unsigned n = o ? o->leftovers_seen : 0;

	if (!n)
		return;
	line[0] = '\0';
	for (unsigned i = 0; i < n && i < LEASH_OUT_MAX_LEFT &&
	     at < sizeof line; i++) {
		char name[sizeof o->left[i].name + 1];
		size_t k;
		for (k = 0; k + 1 < sizeof name && k < sizeof o->left[i].name &&
		     o->left[i].name[k]; k++) {
			unsigned char c = (unsigned char)o->left[i].name[k];
			name[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
		}
		name[k] = '\0';
		at += (size_t)snprintf(line + at, sizeof line - at, "%s%ld (%s)",
				       i ? ", " : "", (long)o->left[i].pid, name);
	}
	if (n > LEASH_OUT_MAX_LEFT && at < sizeof line)
		snprintf(line + at, sizeof line - at, ", %u more",
			 n - LEASH_OUT_MAX_LEFT);
	if (o->leftovers_killed)
		diag_warn("killed %u leftover process%s: %s", n,
			  n == 1 ? "" : "es", line);
	else
		diag_warn("%u process%s left running after the command exited: "
			  "%s", n, n == 1 ? "" : "es", line);
}

/* ", memory peak 12.3 MiB, 1 OOM kill, pids peak 3, throttled 0.25 s":
 * what a leaf with limits measured (the counters the kernel has). */
static void say_usage(char *buf, size_t size, const struct report *r)
{
	const struct leash_outcome *o = r->out;
	size_t at = 0;

	buf[0] = '\0';
	if (!o || !(o->flags & LEASH_OUT_MEASURED) || !report_limited(r))
		return;
	if (o->memory_peak >= 0)
		at += (size_t)snprintf(buf + at, size - at, ", memory peak "
				       "%lld.%lld MiB", o->memory_peak >> 20,
				       (o->memory_peak & 0xfffff) * 10 >> 20);
	if (o->oom_kills > 0 && at < size)
		at += (size_t)snprintf(buf + at, size - at, ", %lld OOM kill%s",
				       o->oom_kills, o->oom_kills == 1 ? "" : "s");
	if (o->pids_peak >= 0 && at < size)
		at += (size_t)snprintf(buf + at, size - at, ", pids peak %lld",
				       o->pids_peak);
	if (o->throttled_us >= 0 && r->limits[CGROUP_LIMIT_CPU] && at < size)
		snprintf(buf + at, size - at, ", throttled %lld.%02lld s",
			 o->throttled_us / 1000000,
			 o->throttled_us % 1000000 / 10000);
}

/* " (no output since 1.02 s)": what --idle or --stall saw last. */
static size_t say_progress(char *buf, size_t size, const struct report *r,
			   enum report_result result)
{
	bool idle = result == RESULT_IDLE;
	const struct timespec *t = idle ? &r->last_output : &r->last_cpu;
	int n = snprintf(buf, size, " (no %s since %ld.%02ld s)",
			 idle ? "output" : "CPU used", (long)t->tv_sec,
			 t->tv_nsec / 10000000);

	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* ", 2 leftovers killed, 1 kill failed, CPU 0.01 s" */
static size_t say_tail(char *line, size_t size, const struct leash_outcome *o)
{
	bool cpu = o->flags & (LEASH_OUT_CPU_CGROUP | LEASH_OUT_CPU_RUSAGE);
	long long us = cpu ? o->user_us + o->system_us : 0;
	size_t at = 0;

	if (o->leftovers_killed)
		at += (size_t)snprintf(line + at, size - at,
				       ", %u leftover%s killed", o->leftovers_killed,
				       o->leftovers_killed == 1 ? "" : "s");
	else if (o->leftovers_seen)
		at += (size_t)snprintf(line + at, size - at, ", %u left running",
				       o->leftovers_seen);
	if (o->nkills_failed && at < size)
		at += (size_t)snprintf(line + at, size - at, ", %u kill%s failed",
				       o->nkills_failed,
				       o->nkills_failed == 1 ? "" : "s");
	if (at < size)
		at += (size_t)snprintf(line + at, size - at, ", CPU %lld.%02lld s",
				       us / 1000000, us % 1000000 / 10000);
	return at < size ? at : size - 1;
}

static void summary(const struct report *r)
{
	char line[512], name[16];
	const struct leash_outcome *o = r->out;
	enum report_result result = report_result(r);
	size_t at;

	if (result == RESULT_EXITED)
		at = (size_t)snprintf(line, sizeof line, "exited with status %d",
				      o->status);
	else if (result == RESULT_SIGNALED)
		at = (size_t)snprintf(line, sizeof line, "signaled (%s)",
				      signal_name(o->status, name, sizeof name));
	else
		at = (size_t)snprintf(line, sizeof line, "%s",
				      result == RESULT_OOM_KILLED ? "oom-killed" :
				      result == RESULT_IDLE ? "idle" :
				      result == RESULT_STALLED ? "stalled" :
				      result == RESULT_TIMEOUT ? "timeout" :
				      result == RESULT_KILLED_AFTER_TIMEOUT ?
				      "killed after timeout" : "killed from outside");
	at += (size_t)snprintf(line + at, sizeof line - at, " after %ld.%02ld s",
			       (long)r->wall.tv_sec, r->wall.tv_nsec / 10000000);
	if (result == RESULT_IDLE || result == RESULT_STALLED)
		at += say_progress(line + at, sizeof line - at, r, result);
	sent_text(line + at, sizeof line - at, o);
	at += strlen(line + at);
	if (at < sizeof line)
		at += say_tail(line + at, sizeof line - at, o);
	if (at < sizeof line)
		say_usage(line + at, sizeof line - at, r);
	diag_warn("%s", line);
}

static void account_write(struct report *r)
{
	struct jbuf b;

	ac.done = true;
	if (ac.plan && ac.plan->verbose && r->ran && r->out) {
		say_leftovers(r->out);
		summary(r);
	}
	if (!ac.reporting)
		return;
	jbuf_init(&b);
	if (report_format(r, &b) < 0 ||
	    reportfile_commit(&ac.file, b.p, b.len) < 0) {
		int err = b.err ? ENOMEM : errno;
		if (ac.file.path)
			diag_warn_errno(err, "cannot write report to %s",
					diag_quote(ac.file.path));
		else
			diag_warn_errno(err, "cannot write report");
		r->exit_status = -1;
	}
	jbuf_free(&b);
}

int account_finish(const struct outcome *out, bool ran, int status)
{
	struct report r = { 0 };
	struct leash_outcome o;
	const struct plan *p = ac.plan;

	if (ac.done || !(ac.reporting || p->verbose))
		return status;
	r.argv = p->argv;
	identity(&r);
	where(&r);
	limits(&r);
	/* The library's outcome of the launch: the one source of what the
	 * report says of the run. */
	if (run_outcome(&o) == 0)
		r.out = &o;
	r.ran = ran;
	if (ran)
		classify(&r, out);
	r.exit_status = status;
	r.reraised = ran && outcome_reraises(p, out);
	wall(&r);
	if (ran) {
		r.have_last_output = out->watched_output;
		r.have_last_cpu = out->watched_cpu;
		r.last_output = out->last_output;
		r.last_cpu = out->last_cpu;
	}
	if (!ran)
		r.error = diag_last();
	account_write(&r);
	/* A report asked for and not written is leash's failure. */
	return r.exit_status < 0 && !r.reraised && !out->sent_kill ?
	       EXIT_CANCELED : status;
}

/* diag_die after the options were read: the failure is reported too. */
static void account_on_die(int status)
{
	struct report r = { 0 };
	struct leash_outcome o;

	if (ac.done || getpid() != ac.pid)
		return;
	r.argv = ac.plan ? ac.plan->argv : NULL;
	if (ac.plan) {
		identity(&r);
		where(&r);
		limits(&r);
	}
	/* A launch under way: its tree and fallbacks (nothing ran). */
	if (run_outcome(&o) == 0)
		r.out = &o;
	r.exit_status = status;
	wall(&r);
	r.error = diag_last();
	account_write(&r);
}

void account_fail(int status)
{
	account_on_die(status);
}
