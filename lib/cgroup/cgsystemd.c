/* SPDX-License-Identifier: ISC */
/* cgsystemd: on a systemd host (as sd_booted(3) decides: the directory
 * /run/systemd/system), leash writes only where systemd delegated
 * (systemd's docs/CGROUP_DELEGATION.md).  Where leash runs decides where
 * the groups go, by the unit of its own cgroup (the first component of
 * its path that is not a slice):
 *   - no unit, a login session (session-*.scope) or init.scope: uid N's
 *     scope, leash-uid-N.scope in user-N.slice, Delegate=yes, started
 *     over D-Bus (sdbus.c) at the uid's first launch around a keeper
 *     process that holds it alive; uid N's logins and leash's commands
 *     then share user-N.slice's weight.  Inside it: keep/ (the keeper:
 *     no process may stay in an inner group), uid_N/run_* as elsewhere;
 *   - another unit, delegated (the trusted.delegate or user.delegate
 *     xattr systemd sets on a Delegate=yes unit's cgroup): leash moves
 *     itself into <own group>/leash and makes uid_N/run_* beside it, so
 *     the unit's stop, limits and accounting reach the command;
 *   - another unit, not delegated: no group at all (systemd owns every
 *     group of it); the command stays in the unit.
 * --cgroup-root (LEASH_CGROUP_ROOT) wins: then nothing here runs. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "cgroup/mountinfo.h"
#include "cgroup/sdbus.h"
#include "diag/diag.h"
#include "sys/sys.h"

#define SD_BOOTED "/run/systemd/system"
#define SD_MOUNT "/sys/fs/cgroup"
/* How long systemd may take to put the keeper in the new scope. */
#define SD_SCOPE_WAIT_MS 3000

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t t = strlen(tail);

	return len >= t && memcmp(s + len - t, tail, t) == 0;
}

/* The unit of PATH: the first component that is not a slice, copied to
 * UNIT; the length of PATH up to its end (0: no unit). */
static size_t sd_unit_of(const char *path, char *unit, size_t size)
{
	const char *p = path;

	unit[0] = '\0';
	while (*p == '/') {
		size_t len = strcspn(p + 1, "/");

		if (!len)
			break;
		if (!ends_with(p + 1, len, ".slice")) {
			if (len < size)
				snprintf(unit, size, "%.*s", (int)len, p + 1);
			return (size_t)(p + 1 + len - path);
		}
		p += 1 + len;
	}
	return 0;
}

/* A unit whose processes are a login's, not a service's: leash there
 * takes the uid's own scope. */
static bool sd_login_unit(const char *unit)
{
	size_t len = strlen(unit);

	return !*unit || strcmp(unit, "init.scope") == 0 ||
	       (strncmp(unit, "session-", 8) == 0 && ends_with(unit, len, ".scope"));
}

/* Delegate=yes: systemd marks the unit's cgroup with trusted.delegate
 * (root may read it) and, since v253 or so, user.delegate. */
static bool sd_delegated(const char *dir)
{
	static const char *const names[] = { "trusted.delegate", "user.delegate" };
	char v[8];

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		ssize_t n = getxattr(dir, names[i], v, sizeof v);

		if (n == 1 && v[0] == '1')
			return true;
	}
	return false;
}

/* Leaves only (version 0) under TOP: a delegated unit, or the leaf of a
 * leash that started this one (cg_nest then nests in it). */
static int sd_plan_leaves(struct cgroup_plan *cg, uid_t uid, const char *top)
{
	char name[32];

	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	cg->version = 0;
	if (cg_path(cg, cg->leaf_top, top, NULL) < 0)
		return -1;
	return cg_path(cg, cg->leaf_uid, top, name);
}

/* uid N's scope: where its groups are, planned as a v2 cpu top. */
static int sd_plan_scope(struct cgroup_plan *cg, uid_t uid)
{
	char dir[CGROUP_PATH_MAX], name[32];

	cg->sd = CGROUP_SD_SCOPE;
	snprintf(cg->unit, sizeof cg->unit, "leash-uid-%u.scope", (unsigned)uid);
	snprintf(dir, sizeof dir, "%s/user.slice/user-%u.slice/%s", SD_MOUNT,
		 (unsigned)uid, cg->unit);
	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	if (cg->mode == CGROUP_TRACK)
		return sd_plan_leaves(cg, uid, dir);
	cg->version = 2;
	if (cg_path(cg, cg->cpu_top, dir, NULL) < 0 ||
	    cg_path(cg, cg->leaf_top, dir, NULL) < 0 ||
	    cg_path(cg, cg->cpu_uid, dir, name) < 0)
		return -1;
	return cg_path(cg, cg->leaf_uid, dir, name);
}

/* Delegated to us: leash itself moves into BASE/leash first, so BASE
 * holds no process and its leaves may take controllers (limits). */
static int sd_move_self(struct cgroup_plan *cg, const char *base)
{
	char dir[CGROUP_PATH_MAX];
	int fd, rc;

	if (cg_path(cg, dir, base, "leash") < 0)
		return -1;
	if (cgfs_mkdir(AT_FDCWD, dir, NULL) < 0)
		return cg_fail_mkdir(cg, dir);
	fd = cgfs_dir(AT_FDCWD, dir);
	rc = fd < 0 ? -1 : cgfs_write(fd, "cgroup.procs", "0");
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		return cg_fail(cg, errno, cg_soft_errno(errno), cg_hint(errno),
			       "cannot move leash into %s", DIAG_QUOTE(dir));
	return 0;
}

/* Inside UNIT (its cgroup UNITDIR), our own group OWN (absolute). */
static int sd_plan_unit(struct cgroup_plan *cg, uid_t uid,
			const char *unitdir, char *own)
{
	size_t len = strlen(own);

	if (!sd_delegated(unitdir)) {
		cg->sd = CGROUP_SD_UNIT;
		if (cg->mode == CGROUP_AUTO && !cgroup_limited(cg)) {
			cg_note(cg, "running without a cgroup: inside systemd "
				"unit %s, not delegated to leash (no Delegate="
				"yes): the command stays in the unit, whose "
				"stop, limits and accounting reach it; the "
				"deadline reaches its tree as leash's "
				"subreaper", cg->unit);
			return 1;
		}
		return cg_fail(cg, 0, false, "set Delegate=yes in the unit",
			       "inside systemd unit %s, not delegated: leash "
			       "may make no group there", cg->unit);
	}
	cg->sd = CGROUP_SD_DELEGATED;
	/* A leash of this unit that was moved already lives in .../leash. */
	if (ends_with(own, len, "/leash"))
		own[len - 6] = '\0';
	if (sd_plan_leaves(cg, uid, own) < 0)
		return -1;
	cg_note(cg, "systemd: inside %s (Delegate=yes): leaves below %s, "
		"leash itself in %s/leash", cg->unit, own, own);
	return sd_move_self(cg, own);
}

/* Only systemd's unified tree is handled: on a hybrid or legacy one
 * (the default before systemd 247) the groups go where they went
 * before, as -v says. */
bool cg_sd_unified(struct cgroup_plan *cg)
{
	struct statfs sf;

	if (statfs(SD_MOUNT, &sf) == 0 && (long)sf.f_type == MOUNTINFO_CGROUP2_MAGIC)
		return true;
	cg_note(cg, "systemd: %s is not its unified cgroup2 tree: leash's "
		"groups as without systemd", SD_MOUNT);
	return false;
}

bool cg_sd_owns_tree(struct cgroup_plan *cg)
{
	return !cg_root_option(cg) && access(SD_BOOTED, F_OK) == 0 &&
	       cg_sd_unified(cg);
}

/* cg_systemd's, on a systemd host.  Apart, and never inlined: its
 * 10 KiB of paths are stack pages that each launch elsewhere would
 * fault in for nothing (stack-clash protection probes every page of a
 * frame on entry). */
static __attribute__((noinline)) int sd_plan(struct cgroup_plan *cg,
					     uid_t uid)
{
	char rel[CGROUP_PATH_MAX / 2], own[CGROUP_PATH_MAX];
	char unitdir[CGROUP_PATH_MAX];
	const char *leaf;
	size_t at;
	int rc;

	if (cg_self_path(rel, sizeof rel) < 0)
		return cg_sd_unified(cg), 1;    /* no cgroup2 line: says why */
	at = sd_unit_of(rel, cg->unit, sizeof cg->unit);
	snprintf(own, sizeof own, "%s%s", SD_MOUNT, strcmp(rel, "/") ? rel : "");
	leaf = cg_leaf_in(rel);
	/* cg_nest need not read /proc/self/cgroup again. */
	cg->no_outer = !leaf;
	/* The scope's steady state finds its group without this check
	 * (cg_sd_build makes it before anything else). */
	if (!leaf && (sd_login_unit(cg->unit) ||
		      strncmp(cg->unit, "leash-uid-", 10) == 0))
		return sd_plan_scope(cg, uid);
	if (!cg_sd_unified(cg))
		return 1;
	if (leaf) {
		/* The command of an outer leash: its leaf holds this one's. */
		snprintf(unitdir, sizeof unitdir, "%s%.*s", SD_MOUNT,
			 (int)(leaf - rel), rel);
		cg->sd = sd_login_unit(cg->unit) ? CGROUP_SD_SCOPE :
			 CGROUP_SD_DELEGATED;
		return sd_plan_leaves(cg, uid, unitdir);
	}
	snprintf(unitdir, sizeof unitdir, "%s%.*s", SD_MOUNT, (int)at, rel);
	rc = sd_plan_unit(cg, uid, unitdir, own);
	return rc == 1 ? 2 : rc;
}

/* 1: not systemd's tree (or --cgroup-root): the usual places. 0: the
 * plan's paths are set.  2: no group (a unit not delegated: said under
 * -v).  -1: failure, with cg->msg. */
int cg_systemd(struct cgroup_plan *cg, uid_t uid)
{
	if (cg_root_option(cg) || access(SD_BOOTED, F_OK) < 0)
		return 1;
	return sd_plan(cg, uid);
}

/* The keeper: the scope's first process, which holds it alive between
 * launches (a scope is collected once empty).  A grandchild of leash,
 * so nothing of leash ever waits for it; it sleeps until systemd stops
 * the scope.  Its pid through PIPE. */
static _Noreturn void sd_keeper(int pipe_wr)
{
	static char name[] = "leash-keep";
	sigset_t all;
	pid_t pid;
	int fd;

	setsid();
	pid = fork();
	if (pid != 0) {
		if (pid > 0)
			(void)!write(pipe_wr, &pid, sizeof pid);
		_exit(pid > 0 ? 0 : 1);
	}
	for (int s = 1; s < 65; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (chdir("/") < 0)
		_exit(1);
	fd = open("/dev/null", O_RDWR);
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	for (int i = 3; i < 1024; i++)
		close(i);
	/* ps shows "leash-keep", not leash's first command line (root may
	 * point its argument area elsewhere; best effort). */
	prctl(PR_SET_NAME, name, 0, 0, 0);
	if (prctl(PR_SET_MM, PR_SET_MM_ARG_START, (unsigned long)name, 0, 0) == 0)
		prctl(PR_SET_MM, PR_SET_MM_ARG_END,
		      (unsigned long)(name + sizeof name), 0, 0);
	for (;;)
		pause();
}

static pid_t sd_keeper_start(void)
{
	int p[2];
	pid_t mid, pid = -1;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	mid = fork();
	if (mid == 0) {
		close(p[0]);
		sd_keeper(p[1]);
	}
	close(p[1]);
	if (mid > 0) {
		if (read(p[0], &pid, sizeof pid) != (ssize_t)sizeof pid)
			pid = -1;
		waitpid(mid, NULL, 0);
	}
	close(p[0]);
	return pid;
}

static void sd_nap(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

/* Wait until the scope's group exists (and, with PID, holds it). */
static int sd_scope_wait(struct cgroup_plan *cg, pid_t pid)
{
	char want[CGROUP_PATH_MAX], buf[1024];

	snprintf(want, sizeof want, "0::%s\n", cg->leaf_top + strlen(SD_MOUNT));
	for (int i = 0; i < SD_SCOPE_WAIT_MS; i++) {
		if (pid > 0 && proc_read(pid, "cgroup", buf, sizeof buf) > 0 &&
		    strstr(buf, want))
			return 0;
		if (pid <= 0 && access(cg->leaf_top, F_OK) == 0)
			return 0;
		sd_nap();
	}
	return cg_fail(cg, ETIMEDOUT, false, NULL, "systemd did not start "
		       "%s in %d ms", cg->unit, SD_SCOPE_WAIT_MS);
}

/* Start uid N's scope around a new keeper.  Another launch may have
 * started it meanwhile (UnitExists): that one's is as good. */
static int sd_scope_start(struct cgroup_plan *cg, uid_t uid)
{
	char slice[48], desc[64], err[400];
	pid_t keeper = sd_keeper_start();
	int e;

	if (keeper < 0)
		return cg_fail(cg, errno, false, NULL, "cannot start the "
			       "keeper of %s", cg->unit);
	snprintf(slice, sizeof slice, "user-%u.slice", (unsigned)uid);
	snprintf(desc, sizeof desc, "leash: uid %u's group", (unsigned)uid);
	if (sdbus_start_scope(cg->unit, slice, keeper, desc, err, sizeof err) == 0) {
		cg->scope_made = true;
		cg_note(cg, "systemd: started %s in %s (Delegate=yes) over "
			"%s, kept by pid %d", cg->unit, slice, err, (int)keeper);
		return sd_scope_wait(cg, keeper);
	}
	e = errno;
	/* Never in the scope: blocked in pause(), it is still ours. */
	kill(keeper, SIGKILL);
	if (e == EEXIST)
		return sd_scope_wait(cg, 0);
	return cg_fail(cg, e, e == EACCES || e == ENOENT || e == ECONNREFUSED,
		       "is systemd running, and leash root?",
		       "cannot start systemd scope %s: %s", cg->unit, err);
}

/* Every process of TOP's own cgroup.procs (not its subgroups') into
 * the group KEEP. */
static void sd_move_procs(int top, int keep)
{
	char buf[256], *p, *end;
	int procs = cgfs_open(top, "cgroup.procs", O_RDONLY);
	ssize_t n = procs < 0 ? -1 : read(procs, buf, sizeof buf - 1);

	if (procs >= 0)
		close(procs);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf; (end = strchr(p, '\n')); p = end + 1) {
		*end = '\0';
		cgfs_write(keep, "cgroup.procs", p);
	}
}

/* The scope's own group may hold no process (its children take the cpu
 * controller): what systemd put there, the keeper, goes to keep/. */
static int sd_scope_keep(struct cgroup_plan *cg)
{
	char keep[CGROUP_PATH_MAX];
	int top, fd;

	if (cg_path(cg, keep, cg->leaf_top, "keep") < 0)
		return -1;
	top = cgfs_dir(AT_FDCWD, cg->leaf_top);
	if (top < 0)
		return cg_fail(cg, errno, false, NULL, "cannot open %s",
			       DIAG_QUOTE(cg->leaf_top));
	if (cgfs_mkdir(AT_FDCWD, keep, NULL) < 0 ||
	    (fd = cgfs_dir(AT_FDCWD, keep)) < 0) {
		close(top);
		return cg_fail_mkdir(cg, keep);
	}
	sd_move_procs(top, fd);
	close(fd);
	close(top);
	return 0;
}

int cg_sd_scope(struct cgroup_plan *cg, uid_t uid)
{
	if (access(cg->leaf_top, F_OK) < 0 && sd_scope_start(cg, uid) < 0)
		return -1;
	return sd_scope_keep(cg);
}
