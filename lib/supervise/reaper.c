/* SPDX-License-Identifier: ISC */
/* reaper: adopt, walk, signal and reap the command's descendants. */
#define _GNU_SOURCE
#include "supervise/reaper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "diag/diag.h"
#include "sys/sys.h"

#define KILL_ROUNDS 200         /* x 5 ms: reaper_kill_all's and
				 * reaper_close's bound, together */

struct proc {
	struct proc_stat st;
	bool mine;              /* a descendant of leash */
};

struct procs {
	struct proc *v;
	size_t n, cap;
};

int reaper_enable(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

void reaper_open(struct reaper *r, pid_t self, pid_t child)
{
	r->self = self;
	r->child = child;
	r->adopted = false;
	r->rounds = 0;
}

void reaper_child_signal(struct reaper *r, pid_t from, int code)
{
	siginfo_t si;

	/* The command's own exit ends the loop (the rest is reaped at the
	 * end); an adopted exit coalesced into it is left to init. */
	if (from == r->child && code != CLD_STOPPED &&
	    code != CLD_CONTINUED && code != CLD_TRAPPED)
		return;
	r->adopted = true;
	/* Ask first without reaping, then reap only what is not the
	 * command: its pid must stay pinned until supervise reaps it. */
	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    si.si_pid == 0 || si.si_pid == r->child)
			return;
		waitid(P_PID, (id_t)si.si_pid, &si, WEXITED | WNOHANG);
	}
}

static int procs_add(struct procs *t, const struct proc *p)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct proc *v = realloc(t->v, cap * sizeof *v);
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *p;
	return 0;
}

static int proc_by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc *)a)->st.pid, y = ((const struct proc *)b)->st.pid;

	return (x > y) - (x < y);
}

static struct proc *procs_find(struct procs *t, pid_t pid)
{
	struct proc key = { .st.pid = pid };

	return bsearch(&key, t->v, t->n, sizeof key, proc_by_pid);
}

/* Mark leash's descendants: its children, then theirs, until a pass
 * adds nobody (as many passes as the tree is deep). */
static void procs_mark(struct procs *t, pid_t self)
{
	bool more = true;

	qsort(t->v, t->n, sizeof *t->v, proc_by_pid);
	while (more) {
		more = false;
		for (size_t i = 0; i < t->n; i++) {
			struct proc *p = &t->v[i], *up;
			if (p->mine || p->st.pid == self)
				continue;
			if (p->st.ppid == self ||
			    ((up = procs_find(t, p->st.ppid)) && up->mine))
				p->mine = more = true;
		}
	}
}

/* One walk of /proc: every process with its parent, group, start time. */
static int procs_scan(struct procs *t, pid_t self)
{
	struct dirent *e;
	struct proc p;
	int fd = proc_open();
	/* No procfs: a failed walk, not a tree of none. */
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	t->n = 0;
	if (!d) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return errno = err, -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		memset(&p, 0, sizeof p);
		if (proc_stat_read(dirfd(d), (pid_t)atoi(e->d_name), &p.st) == 0 &&
		    procs_add(t, &p) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	procs_mark(t, self);
	return 0;
}

static bool proc_live(const struct proc *p)
{
	return p->st.state != 'Z' && p->st.state != 'X' && p->st.state != 'x';
}

/* Said once, however many descendants are signalled. */
static void pidfd_fallback(int err)
{
	static bool said;

	if (!said)
		fallback_take(FALLBACK_PIDFD, err, "descendants are signalled "
			      "by pid, after a start-time check");
	said = true;
}

/* A child of leash is pinned until leash reaps it; a deeper one may be
 * reaped by its own parent at any time, so it is signalled through a
 * pidfd taken while its start time still matches what the walk saw. */
static int proc_kill(const struct reaper *r, const struct proc *p, int sig)
{
	int fd, rc;
	char state;

	if (p->st.ppid == r->self)
		return kill(p->st.pid, sig) < 0 && errno != ESRCH ? -1 : 0;
	fd = (int)syscall(SYS_pidfd_open, p->st.pid, 0);
	/* ENOSYS before 5.3; EPERM, which pidfd_open never means itself,
	 * from a seccomp profile. */
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		pidfd_fallback(errno);
	else if (fd < 0)
		return errno == ESRCH ? 0 : -1;
	if (proc_start(p->st.pid, &state) != p->st.start)
		rc = 0;                 /* gone; its pid went to another */
	else if (fd >= 0)
		rc = (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
	else
		rc = kill(p->st.pid, sig); /* before 5.3: the check above only */
	if (rc < 0 && errno == ESRCH)
		rc = 0;
	if (fd >= 0) {
		int err = errno;
		close(fd);
		errno = err;
	}
	return rc;
}

int reaper_signal(struct reaper *r, int sig, pid_t skip_pgrp, unsigned *found)
{
	struct procs t = { 0 };
	int err = 0;

	*found = 0;
	r->adopted = true;
	if (procs_scan(&t, r->self) < 0) {
		err = errno;
		free(t.v);
		return errno = err, -1;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct proc *p = &t.v[i];
		if (!p->mine || p->st.pid == r->child || !proc_live(p))
			continue;
		++*found;
		if (skip_pgrp && p->st.pgrp == skip_pgrp && sig != SIGKILL)
			continue;
		if (proc_kill(r, p, sig) < 0)
			err = errno;
		else if (sig != 0 && sig != SIGKILL && sig != SIGCONT &&
			 proc_kill(r, p, SIGCONT) < 0)
			err = errno;
	}
	free(t.v);
	return err ? (errno = err, -1) : 0;
}

/* Reap adopted zombies the walk saw (never the command), so that their
 * children, re-parented to leash, are found by the next walk. */
static void procs_reap(const struct reaper *r, const struct procs *t)
{
	siginfo_t si;

	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].st.ppid == r->self && t->v[i].st.pid != r->child &&
		    !proc_live(&t->v[i]))
			waitid(P_PID, (id_t)t->v[i].st.pid, &si, WEXITED | WNOHANG);
}

/* Count P once over all rounds: the killed set, by pid and start time;
 * SEEN hears of each the first time. */
static void killed_note(struct procs *k, const struct proc *p,
			reaper_seen_fn *seen, void *arg)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].st.pid == p->st.pid && k->v[i].st.start == p->st.start)
			return;
	procs_add(k, p);
	if (seen)
		seen(p->st.pid, p->st.name, arg);
}

int reaper_kill_all(struct reaper *r, unsigned *killed, reaper_seen_fn *seen,
		    void *arg)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	struct procs t = { 0 }, k = { 0 };
	int err = 0;

	r->adopted = true;
	for (; r->rounds < KILL_ROUNDS; r->rounds++) {
		unsigned live = 0;
		if (procs_scan(&t, r->self) < 0) {
			err = errno;
			break;
		}
		for (size_t i = 0; i < t.n; i++) {
			const struct proc *p = &t.v[i];
			if (!p->mine || p->st.pid == r->child || !proc_live(p))
				continue;
			/* One we may not kill (EPERM) does not keep us here. */
			if (proc_kill(r, p, SIGKILL) < 0) {
				err = errno;
				continue;
			}
			live++;
			killed_note(&k, p, seen, arg);
		}
		procs_reap(r, &t);
		if (!live)
			break;
		nanosleep(&tick, NULL);
	}
	*killed = (unsigned)k.n;
	free(t.v);
	free(k.v);
	return err ? (errno = err, -1) : 0;
}

/* A live descendant other than the command. */
static bool proc_left(const struct reaper *r, const struct proc *p)
{
	return p->mine && p->st.pid != r->child && proc_live(p);
}

/* Whether leash has a child other than the command.  Once the command
 * has exited, every live descendant is one or below one (the command's
 * children came here), so none means nothing to walk /proc for: the
 * usual case costs one small read, not a read of every process.  Asked
 * of leash's main thread, which forked the command and, the subreaper's
 * first live thread, adopts the orphans.  True when the list cannot be
 * read (a kernel without CONFIG_PROC_CHILDREN): the walk tells. */
static bool reaper_has_others(const struct reaper *r)
{
	char file[32], buf[512], *p, *end;
	ssize_t n;

	snprintf(file, sizeof file, "task/%d/children", (int)r->self);
	n = proc_read(r->self, file, buf, sizeof buf);
	if (n < 0 || n == sizeof buf - 1)
		return true;
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			return false;
		if (pid != r->child)
			return true;
	}
}

int reaper_list(struct reaper *r, int wait_ms, reaper_seen_fn *seen,
		void *arg)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	struct procs t = { 0 };
	int found;

	if (!reaper_has_others(r))
		return 0;
	for (int waited = 0;; waited += 5) {
		if (procs_scan(&t, r->self) < 0) {
			int err = errno;
			free(t.v);
			return errno = err, -1;
		}
		found = 0;
		for (size_t i = 0; i < t.n; i++)
			found += proc_left(r, &t.v[i]);
		if (!found || waited >= wait_ms)
			break;
		nanosleep(&tick, NULL);
	}
	for (size_t i = 0; i < t.n; i++)
		if (proc_left(r, &t.v[i]))
			seen(t.v[i].st.pid, t.v[i].st.name, arg);
	free(t.v);
	return found;
}

void reaper_close(struct reaper *r, bool wait_dying)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	siginfo_t si;

	/* No signal follows: reaping anything now is safe.  Nothing seen
	 * but the command: nothing to reap (a zombie whose SIGCHLD merged
	 * with the command's goes to init with the rest, which reaps it). */
	for (int round = r->rounds; r->adopted;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0)
			break;          /* ECHILD: nobody left */
		if (si.si_pid)
			continue;
		if (!wait_dying || ++round >= KILL_ROUNDS)
			break;
		nanosleep(&tick, NULL);
	}
}

int reaper_tree_cpu(pid_t self, unsigned long long *ticks)
{
	struct procs t = { 0 };

	if (procs_scan(&t, self) < 0) {
		int err = errno;
		free(t.v);
		return errno = err, -1;
	}
	*ticks = 0;
	for (size_t i = 0; i < t.n; i++)
		if (t.v[i].mine)
			*ticks += t.v[i].st.cpu;
	free(t.v);
	return 0;
}
