/* SPDX-License-Identifier: ISC */
/* cgrelease: signal the leaf (held still meanwhile: cg_hold_fd) and kill it,
 * then remove it and sweep stale leaves. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "diag/diag.h"
#include "time/time.h"
#include "sys/sys.h"

/* What the parent sent the leaf: the release waits for it to empty,
 * briefly after a catchable signal (its handlers may run on), longer
 * after SIGKILL (only exiting tasks still pin the group).  Kept in the
 * plan, which is the run's (no global: libleash runs many at once); the
 * signalling side holds it const, the wait owed is the leaf's state. */
static void cg_owe_wait(const struct cgroup_plan *cg, int ms)
{
	struct cgroup_plan *state = (struct cgroup_plan *)cg;

	if (state->wait_ms < ms)
		state->wait_ms = ms;
}

/* A leaf of an earlier launch whose creator is gone: its pid is dead
 * (gone, or a zombie its parent has not reaped: a leash killed with
 * SIGKILL), or belongs to a process started after the leaf was made
 * (pid reuse: time/clock.h compares the stamp with /proc's start time).
 * The name is run_<pid>_<stamp>, or run_<pid>_<stamp>_<k> when the
 * first name was taken (cg_make_leaf). */
static bool cg_leaf_stale(const char *name)
{
	unsigned long long stamp, start;
	char *end, state;
	int pid;

	/* By hand, not sscanf: scanf alone would add 4 KiB to leash. */
	if (strncmp(name, "run_", 4))
		return false;
	pid = (int)strtol(name + 4, &end, 10);
	if (pid <= 0 || *end != '_')
		return false;
	stamp = strtoull(end + 1, &end, 10);
	if (*end == '_' && end[1] >= '0' && end[1] <= '9')
		strtoul(end + 1, &end, 10);
	if (*end)
		return false;
	start = proc_start(pid, &state);
	if (!start || state == 'Z' || state == 'X')
		return true;
	return clock_started_after(start, stamp);
}

/* Remove empty leaves left by launches whose leftovers ran on after
 * them; rmdir itself refuses a populated one, so racing is harmless. */
static void cg_sweep(const struct cgroup_plan *cg)
{
	const char *mine = cg_leaf_name(cg);
	char events[128];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	/* kernfs counts subdirectories in a directory's link count: 2
	 * means no other leaf, the usual case, for one fstat. */
	if (!cg->leaf[0] || cg->uid_fd < 0 || fstat(cg->uid_fd, &st) < 0 ||
	    st.st_nlink <= 2)
		return;
	fd = cgfs_open(cg->uid_fd, ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "run_", 4) != 0 ||
		    strcmp(e->d_name, mine) == 0 ||
		    !cg_leaf_stale(e->d_name) ||
		    snprintf(events, sizeof events, "%s/cgroup.events",
			     e->d_name) >= (int)sizeof events)
			continue;
		if (cgfs_key(dirfd(d), events, "populated") == 0)
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

struct cg_sig {
	int sig;
	pid_t skip;
	int err;
};

static void cg_kill_pid(pid_t pid, void *arg)
{
	struct cg_sig *s = arg;

	if (pid <= 0 || pid == s->skip)
		return;
	if (kill(pid, s->sig) < 0 && errno != ESRCH)
		s->err = errno;
}

static int cg_signal_fd(int leaf, int sig, pid_t skip)
{
	struct cg_sig s = { sig, skip, 0 };
	int hold = cg_hold_fd(leaf);
	int n = cgfs_each_pid(leaf, cg_kill_pid, &s), err = errno;

	cg_unhold_fd(leaf, hold);
	if (n < 0)
		return errno = err, -1;
	if (s.err) {
		errno = s.err;
		return -1;
	}
	return 0;
}

/* OP on the leaf's descriptor; if that directory is gone, once more on
 * the leaf's path: on the fork path a child that found its leaf removed
 * made it again under the same name. */
static int cg_on_leaf(const struct cgroup_plan *cg, int sig, pid_t skip,
		      int (*op)(int, int, pid_t))
{
	int rc = op(cg->leaf_fd, sig, skip), fd, err;

	if (rc == 0 || errno != ENOENT)
		return rc;
	fd = cgfs_dir(AT_FDCWD, cg->leaf);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;   /* no leaf, nobody left */
	rc = op(fd, sig, skip);
	err = errno;
	close(fd);
	errno = err;
	return rc < 0 && err == ENOENT ? 0 : rc;
}

static int cg_signal_leaf(const struct cgroup_plan *cg, int sig, pid_t skip)
{
	cg_owe_wait(cg, sig == SIGKILL ? 1000 : 100);
	return cg_on_leaf(cg, sig, skip, cg_signal_fd);
}

int cgroup_signal(const struct cgroup_plan *cg, int sig)
{
	if (!cg->active || !cg->leaf[0])
		return 0;
	return cg_signal_leaf(cg, sig, cg->child);
}

static int cg_kill_fd(int leaf, int sig, pid_t skip)
{
	(void)sig;
	(void)skip;
	if (cgfs_write(leaf, "cgroup.kill", "1") == 0)
		return 0;
	/* No cgroup.kill (before 5.14) in a leaf that is there: not gone. */
	if (errno == ENOENT && cgfs_exists(leaf, "cgroup.procs") == 0)
		errno = EOPNOTSUPP;
	return -1;
}

static int cg_kill_leaf(const struct cgroup_plan *cg)
{
	cg_owe_wait(cg, 1000);
	/* cgroup.kill (5.14) also catches forks racing with it. */
	if (cg_on_leaf(cg, SIGKILL, 0, cg_kill_fd) == 0)
		return 0;
	if (!(fallback_taken & FALLBACK_CGROUP_KILL))
		fallback_take(FALLBACK_CGROUP_KILL, errno, "each process of the "
			      "leaf is killed, the leaf frozen meanwhile");
	return cg_signal_leaf(cg, SIGKILL, 0);
}

int cgroup_kill(const struct cgroup_plan *cg)
{
	if (!cg->active || !cg->leaf[0])
		return 0;
	return cg_kill_leaf(cg);
}

/* Remove our leaf: 0 done, 1 processes are left in it (kept), -1 error.
 * rmdir first: a leaf whose command has been reaped is empty, so the
 * usual case costs one call; cgroup.events is read only on EBUSY. */
static int cg_leaf_remove(const struct cgroup_plan *cg, int wait)
{
	const char *name = cg_leaf_name(cg);
	struct timespec t0;

	if (unlinkat(cg->uid_fd, name, AT_REMOVEDIR) == 0)
		return 0;
	if (errno == ENOENT)    /* gone, or made again by the child */
		return rmdir(cg->leaf) == 0 || errno == ENOENT ? 0 : -1;
	if (errno != EBUSY)
		return -1;
	clock_now(CLOCK_MONOTONIC, &t0);
	if (cgfs_wait_event(cg->leaf_fd, "populated", 0, wait) < 0 &&
	    errno != ENOENT)
		return 1;
	cgfs_rmdir_below(cg->leaf_fd);
	/* Emptying and removal share one bound, 1 s (WAIT is at most
	 * that): a leaf member stuck in the kernel holds leash no longer
	 * (supervise.h, the bounded waits). */
	return cgfs_rmdir(cg->uid_fd, name, 1000 - (int)clock_ms_since(CLOCK_MONOTONIC, &t0));
}

void cgroup_release(struct cgroup_plan *cg)
{
	int rc;

	if (!cg->active)
		return;
	cg->active = false;
	if (!cg->leaf[0]) {
		if (cg->kill_leftovers)
			cg_note(cg, "cgroup: no leaf: leftovers not killed");
		cg_close(cg);
		return;
	}
	if (cg->kill_leftovers &&
	    cgfs_key(cg->leaf_fd, "cgroup.events", "populated") != 0)
		cg_kill_leaf(cg);
	rc = cg_leaf_remove(cg, cg->wait_ms);
	if (rc > 0)
		cg_note(cg, "cgroup: processes left in %s: kept, a later "
			"launch removes it once they are gone", cg->leaf);
	else if (rc < 0)
		cg_note(cg, "cgroup: cannot remove %s: %s", cg->leaf,
			strerror(errno));
	else
		cg_note(cg, "cgroup: removed %s", cg->leaf);
	/* After the command, off its start-up path. */
	cg_sweep(cg);
	cg_close(cg);
}
