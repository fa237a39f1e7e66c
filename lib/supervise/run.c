/* SPDX-License-Identifier: ISC */
/* run: leash_spawn and leash_run_*, the launch of leash(1) and of a
 * host alike (run.h). */
#define _GNU_SOURCE
#include "supervise/supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "leash.h"
#include "cgroup/cgroup.h"
#include "diag/diag.h"
#include "time/time.h"
#include "sys/sys.h"

/* The fallbacks a call takes are gathered per thread (fallback.h); a
 * run's calls hand them to the run and leave the thread's as they found
 * them: the run's outcome is the one place that names them (leash(1)'s
 * report too, beside the ones leash took around the run). */
static unsigned scope_enter(void)
{
	unsigned saved = fallback_taken;

	fallback_taken = 0;
	return saved;
}

/* Two stores: errno is the caller's still. */
static void scope_leave(struct leash_run *r, unsigned saved)
{
	r->fallbacks |= fallback_taken;
	fallback_taken = saved;
}

void run_init(struct leash_run *r, struct plan *plan, enum waiter_kind kind)
{
	memset(r, 0, offsetof(struct leash_run, own));
	r->plan = plan;
	r->kind = kind;
	r->epfd = -1;
	r->c.pid = 0;
	r->c.errfd = r->c.pidfd = -1;
}

int run_prepare(struct leash_run *r, const char **what)
{
	struct plan *p = r->plan;
	uid_t uid = p->id.have_uid ? p->id.uid : getuid();
	unsigned saved = scope_enter();
	int rc = 0;

	p->cg.self = p->self;
	p->cg.started = p->started;
	if (p->cg.mode != CGROUP_OFF)
		rc = cgroup_prepare(&p->cg, uid, what);
	scope_leave(r, saved);
	if (rc < 0)
		return -1;
	if (p->in_host)
		p->tree_kill = p->foreground ? TREE_NONE :
			       p->cg.active && p->cg.leaf[0] ? TREE_CGROUP :
			       TREE_GROUP;
	return 0;
}

/* A host's one descriptor: the deadline's timer and the waiter's fd,
 * made when the host first asks for it (leash_run_fd): a host that only
 * waits (leash_run_wait) polls the two itself and needs none. */
static int run_epoll(struct leash_run *r)
{
	int fds[2] = { r->w.timer.fd, r->w.waiter.fd };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) < 0) {
			int err = errno;

			close(ep);
			return errno = err, -1;
		}
	}
	r->epfd = ep;
	return 0;
}

/* The child: made by leash(1)'s waiter thread where it may (spawn_job,
 * spawn.h), else forked here; a thread that cannot be had, or its clone
 * refused, leaves the fork. */
static int run_spawn(struct leash_run *r)
{
	struct plan *p = r->plan;

	if (r->kind == WAITER_THREAD && spawn_job_ok(p) &&
	    spawn_job_open(&r->job, p, &r->ss.orig_mask, &r->c) == 0) {
		if (waiter_start_spawning(&r->w.waiter, spawn_job_run,
					  &r->job) < 0) {
			spawn_job_cancel(&r->job, &r->c);
		} else if (spawn_job_born(&r->job, &r->c) == 0) {
			return 0;
		} else {
			waiter_stop(&r->w.waiter);
		}
	}
	return spawn_start(p, &r->ss.orig_mask, &r->c);
}

/* Spawn, then the loop begun. */
static int run_begin(struct leash_run *r)
{
	struct plan *p = r->plan;

	if (run_spawn(r) < 0)
		return -1;
	p->cg.child = r->c.pid;
	r->started = true;
	/* No pidfd for a host's child (before 5.3, or refused): the one
	 * case a thread is started, to wait for the exit. */
	if (p->in_host && r->c.pidfd < 0)
		r->kind = WAITER_THREAD;
	supervise_begin(&r->w, p, &r->ss, r->kind, &r->c, &r->out);
	/* A host needs a poll-able descriptor that the deadline and the exit
	 * both wake: without timerfd or a waiter fd there is none. */
	if (p->in_host && (r->w.timer.fd < 0 || r->w.waiter.fd < 0))
		return errno = ENOSYS, -1;
	return 0;
}

/* The fallbacks its calls take are the run's, leash(1)'s as a host's:
 * its outcome names them. */
int run_start(struct leash_run *r)
{
	unsigned saved = scope_enter();
	int rc = run_begin(r);

	scope_leave(r, saved);
	return rc;
}

/* One process left in the leaf, by pid and name. */
static void left_in_leaf(pid_t pid, void *tally)
{
	struct proc_stat st;

	tally_left_add(tally, pid, proc_stat_read(AT_FDCWD, pid, &st) == 0 ?
				   st.name : "");
}

/* What the command left running in its leaf, which after the reap holds
 * only them: named for the report and -v, and, with --kill-leftovers,
 * the KILL that cgroup_release sends them counted.  After a signal,
 * what it reached gets 100 ms to finish dying (cgroup_release waits
 * as long for the leaf to empty), so only what outlives it is named. */
static void leaf_leftovers(const struct plan *plan, struct tally *t)
{
	const struct cgroup_plan *cg = &plan->cg;
	unsigned n;

	t->left_seen = true;
	if (cgroup_populated(cg) != 1)
		return;
	if (t->nsent)
		cgroup_wait_empty(cg, 100);
	cgroup_each_pid(cg, left_in_leaf, t);
	n = t->nleft + t->left_dropped;
	if (!cg->kill_leftovers || !n)
		return;
	t->leftovers = n;
	tally_sent_add(t, SIGKILL, TALLY_LEFTOVERS,
		       timespec_since(&plan->started), n);
}

void run_account(const struct plan *plan, struct outcome *out)
{
	const struct cgroup_plan *cg = &plan->cg;
	struct rusage ru;

	if (!plan->account)
		return;
	if (cgroup_has_leaf(cg)) {
		leaf_leftovers(plan, &out->tally);
		cgroup_usage(cg, &out->usage);
		out->have_usage = true;
		if (out->usage.user_us >= 0 && out->usage.system_us >= 0) {
			out->user_us = out->usage.user_us;
			out->system_us = out->usage.system_us;
			out->cpu_from = "cgroup";
			return;
		}
	}
	/* The reap's own rusage (a host's run): the host's other children
	 * are not ours to count. */
	if (out->have_rusage) {
		out->user_us = out->ru_user_us;
		out->system_us = out->ru_system_us;
		out->cpu_from = "rusage";
	} else if (!plan->in_host && getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		out->user_us = (long long)ru.ru_utime.tv_sec * 1000000 +
			       ru.ru_utime.tv_usec;
		out->system_us = (long long)ru.ru_stime.tv_sec * 1000000 +
				 ru.ru_stime.tv_usec;
		out->cpu_from = "rusage";
	}
}

/* The end: the one reap, the account, then the leaf removed and the
 * child's own word (a failure before exec) read. */
static int run_end(struct leash_run *r)
{
	struct plan *p = r->plan;
	int rc = supervise_end(&r->w, &r->c, &r->out);

	clock_now(LEASH_CLOCK, &r->ended);
	if (rc == 0)
		run_account(p, &r->out);
	if (r->after_reap)
		r->after_reap(r);
	/* A subreaper killed the leftovers already; the leaf has none. */
	if (p->subreaper)
		p->cg.kill_leftovers = false;
	cgroup_release(&p->cg);
	spawn_result(&r->c, &r->err);
	if (r->c.pidfd >= 0)
		close(r->c.pidfd);
	r->c.pidfd = -1;
	if (r->epfd >= 0)
		close(r->epfd);
	r->epfd = -1;
	r->done = true;
	return rc;
}

/* ---- leash.h ---- */

int leash_spawn(leash_run_t **run, const char *path, char *const argv[],
		char *const envp[], const leash_attr_t *attr)
{
	struct leash_run *r;
	struct plan *p;
	const char *what = NULL;
	unsigned saved;
	int err;

	if (!run || !path || !argv || !argv[0])
		return -EINVAL;
	/* Zeroed: the plan's cgroup paths are "" without a write (attr.h). */
	if (!(r = calloc(1, sizeof *r)))
		return -ENOMEM;
	run_init(r, &r->own, attr && attr->flags & LEASH_WAIT_THREAD ?
			     WAITER_THREAD : WAITER_PIDFD);
	p = r->plan;
	if (attr)
		attr_plan_copy(p, &attr->plan);
	else
		attr_plan_defaults(p);
	p->file = path;
	p->argv = (char **)argv;
	p->envp = (char **)envp;
	p->self = getpid();
	clock_now(LEASH_CLOCK, &p->started);
	p->deadline = (struct timespec){ 0, 0 };
	if (!duration_is_zero(&p->duration)) {
		p->deadline = p->started;
		timespec_add(&p->deadline, &p->duration);
	}
	/* The child's mask at exec: empty (the host's is the host's). */
	sigemptyset(&r->ss.orig_mask);
	sigemptyset(&r->ss.handled);
	saved = scope_enter();
	if (run_prepare(r, &what) < 0) {
		err = errno ? errno : EINVAL;
		scope_leave(r, saved);
		free(r);
		return -err;
	}
	if (run_start(r) < 0) {
		err = errno;
		if (r->started) {
			/* Made, but not watchable: it dies, reaped. */
			supervise_signal(&r->w, SIGKILL, true);
			run_end(r);
		} else {
			cgroup_release(&p->cg);
		}
		scope_leave(r, saved);
		free(r);
		return -err;
	}
	scope_leave(r, saved);
	*run = r;
	return 0;
}

pid_t leash_run_pid(const leash_run_t *run)
{
	return run->w.pid;
}

int leash_run_fd(const leash_run_t *run)
{
	/* Made on the first call; the run is the host's, never const. */
	struct leash_run *r = (struct leash_run *)run;

	if (r->epfd < 0 && !r->done && run_epoll(r) < 0)
		return -1;
	return r->epfd;
}

/* One round of the loop for at most MS: 1 ended, 0 not yet, -errno. */
static int run_round(struct leash_run *r, int ms)
{
	unsigned saved = scope_enter();
	int rc = supervise_step(&r->w, ms);

	/* A failed poll ends the watch as the exit does (leash(1) always
	 * did so): what is owed is paid, the reap says the rest. */
	if (rc != 0)
		rc = run_end(r) < 0 ? -(errno ? errno : EIO) : 1;
	scope_leave(r, saved);
	return rc;
}

int leash_run_dispatch(leash_run_t *run)
{
	if (run->done)
		return 1;
	return run_round(run, 0);
}

int leash_run_wait(leash_run_t *run, int timeout_ms)
{
	struct timespec until, now;
	int rc, left = timeout_ms;

	clock_now(LEASH_CLOCK, &until);
	if (timeout_ms > 0)
		timespec_add(&until, &(struct timespec){ timeout_ms / 1000,
				(timeout_ms % 1000) * 1000000L });
	while (!run->done) {
		if ((rc = run_round(run, left)) != 0)
			return rc;
		if (timeout_ms < 0)
			continue;
		clock_now(LEASH_CLOCK, &now);
		if (!timespec_before(&now, &until))
			return 0;
		now = timespec_left(&until, &now);
		left = (int)(now.tv_sec * 1000 + now.tv_nsec / 1000000) + 1;
	}
	return 1;
}

int leash_run_signal(leash_run_t *run, int sig, unsigned flags)
{
	unsigned saved;
	int rc;

	if (flags & ~LEASH_SIGNAL_TREE || sig < 0 || sig > 64)
		return -EINVAL;
	if (run->done)
		return -ESRCH;
	saved = scope_enter();
	rc = supervise_signal(&run->w, sig, flags & LEASH_SIGNAL_TREE);
	if (rc < 0)
		rc = -errno;
	scope_leave(run, saved);
	return rc;
}

void leash_run_free(leash_run_t *run)
{
	if (!run)
		return;
	/* Still going: the tree dies, is reaped, its leaf removed. */
	if (!run->done && run->started) {
		leash_run_signal(run, SIGKILL, LEASH_SIGNAL_TREE);
		leash_run_wait(run, -1);
	}
	free(run);
}
