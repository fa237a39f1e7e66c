/* SPDX-License-Identifier: ISC */
/* cgroup: the per-uid cpu group and the per-launch leaf. */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgfs.h"
#include "clock.h"
#include "diag.h"
#include "mountinfo.h"

/* Bounds for "removed under us, make it again" loops; the child's is
 * larger since a preempted child can lose the race several times. */
#define CG_RETRIES 8
#define CG_JOIN_RETRIES 32
/* Returned by build steps when a parent vanished: start over. */
#define CG_AGAIN (-2)

/* What the parent sent the leaf: the release waits for it to empty,
 * briefly after a catchable signal (its handlers may run on), longer
 * after SIGKILL (only exiting tasks still pin the group). */
static int cg_wait_ms;

static void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;

	if (!cg->verbose || !cg->note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cg->note("%s", buf);
}

/* Fill cg->msg: TEXT[: strerror(ERR)][ (HINT)]; -1 with errno = ERR. */
static int cg_fail(struct cgroup_plan *cg, int err, bool soft,
		   const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int cg_fail(struct cgroup_plan *cg, int err, bool soft,
		   const char *hint, const char *fmt, ...)
{
	size_t n, size = sizeof cg->msg;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cg->msg, size, fmt, ap);
	va_end(ap);
	n = strlen(cg->msg);
	if (err && n < size)
		n += snprintf(cg->msg + n, size - n, ": %s", strerror(err));
	cg->hint_at = (int)(n < size ? n : size - 1);
	if (hint && n < size)
		snprintf(cg->msg + n, size - n, " (%s)", hint);
	cg->soft = soft;
	errno = err ? err : ENODEV;
	return -1;
}

static const char *cg_hint(int err)
{
	switch (err) {
	case EROFS:
		return "the cgroup mount is read-only: give a writable "
		       "--cgroup-root DIR, or use --cgroup=off";
	case EACCES:
	case EPERM:
		return "run as root or give a delegated subtree with "
		       "--cgroup-root DIR";
	default:
		return "use --cgroup=off to run without a cgroup";
	}
}

/* Read-only, not ours, gone: auto mode may run without a group. */
static bool cg_soft_errno(int err)
{
	return err == EROFS || err == EACCES || err == EPERM;
}

static int cg_fail_mkdir(struct cgroup_plan *cg, const char *dir)
{
	int err = errno;

	return cg_fail(cg, err, cg_soft_errno(err), cg_hint(err),
		       "cannot create cgroup %s", diag_quote(dir));
}

/* Copy A[/B] into DST or fail with a message. */
static int cg_path(struct cgroup_plan *cg, char *dst, const char *a,
		   const char *b)
{
	if (cgfs_join(dst, CGROUP_PATH_MAX, a, b) == 0)
		return 0;
	return cg_fail(cg, errno, false, NULL, "cgroup path too long: %s",
		       diag_quote(a));
}

static void cg_reset(struct cgroup_plan *cg)
{
	cg->active = false;
	cg->soft = false;
	cg->version = 0;
	cg->cpu_top[0] = cg->cpu_uid[0] = '\0';
	cg->leaf_top[0] = cg->leaf_uid[0] = cg->leaf[0] = '\0';
	cg->wfile[0] = cg->wvalue[0] = cg->msg[0] = '\0';
}

/* Auto mode acts, like the kernel patch at set_user(), when the uid
 * changes, or when the user asked for anything cgroup. */
static bool cg_acts(const struct cgroup_plan *cg, uid_t uid)
{
	if (cg->mode == CGROUP_OFF)
		return false;
	if (cg->mode == CGROUP_REQUIRE)
		return true;
	return cg->asked || cg->weight || cg->root || cg->kill_leftovers ||
	       uid != geteuid();
}

/* --cgroup-root DIR: the hierarchy is whatever DIR (or its parent, when
 * DIR is still to be made) lives on. */
static int cg_locate_root(struct cgroup_plan *cg, const char *root)
{
	char parent[PATH_MAX], *slash;
	const char *probe = root;
	long magic;

	if (cg_path(cg, parent, root, NULL) < 0)
		return -1;
	while ((slash = strrchr(parent, '/')) && slash > parent && !slash[1])
		*slash = '\0';  /* trailing slashes */
	strcpy(cg->cpu_top, parent);
	magic = mountinfo_magic(cg->cpu_top);
	if (magic < 0 && errno == ENOENT && (slash = strrchr(parent, '/'))) {
		slash[slash == parent] = '\0';
		probe = parent;
		magic = mountinfo_magic(parent);
	}
	if (magic == MOUNTINFO_CGROUP2_MAGIC)
		return (cg->version = 2);
	if (magic == MOUNTINFO_CGROUP1_MAGIC) {
		char file[PATH_MAX];

		if (cgfs_join(file, sizeof file, probe, "cpu.shares") == 0 &&
		    access(file, F_OK) == 0)
			return (cg->version = 1);
		return cg_fail(cg, 0, false, "give a directory in the cpu "
			       "hierarchy", "--cgroup-root %s is not in the "
			       "cpu controller's hierarchy", diag_quote(root));
	}
	return cg_fail(cg, magic < 0 ? errno : 0, false, NULL,
		       "--cgroup-root %s is not on a cgroup filesystem",
		       diag_quote(root));
}

/* No usable hierarchy: say which part is missing (reference 7). */
static int cg_fail_none(struct cgroup_plan *cg,
			const struct mountinfo_cgroups *m)
{
	if (m->v2[0])
		return cg_fail(cg, 0, true, cg_hint(0), "no cpu cgroup "
			       "controller available (not in %s/cgroup."
			       "controllers, no v1 hierarchy has it)", m->v2);
	return cg_fail(cg, 0, true, cg_hint(0),
		       "no cgroup mount with the cpu controller");
}

/* Pick the hierarchies and compute every path (nothing is made yet). */
static int cg_locate(struct cgroup_plan *cg, uid_t uid)
{
	const char *root = cg->root ? cg->root : getenv("LEASH_CGROUP_ROOT");
	struct mountinfo_cgroups m;
	char name[32];

	if (mountinfo_cgroups(NULL, &m) < 0)
		return cg_fail(cg, errno, true, cg_hint(errno),
			       "cannot read /proc/self/mountinfo");
	if (root && *root) {
		if (cg_locate_root(cg, root) < 0)
			return -1;
	} else if (m.v2cpu || m.v1cpu[0]) {
		cg->version = m.v2cpu ? 2 : 1;
		if (cg_path(cg, cg->cpu_top, m.v2cpu ? m.v2 : m.v1cpu,
			    "leash") < 0)
			return -1;
	} else {
		return cg_fail_none(cg, &m);
	}
	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	if (cg_path(cg, cg->cpu_uid, cg->cpu_top, name) < 0)
		return -1;
	if (cg->version == 2) {
		strcpy(cg->leaf_top, cg->cpu_top);
		strcpy(cg->leaf_uid, cg->cpu_uid);
	} else if (m.v2[0]) {
		/* Hybrid: track the launch in cgroup2, no controllers. */
		if (cg_path(cg, cg->leaf_top, m.v2, "leash") < 0 ||
		    cg_path(cg, cg->leaf_uid, cg->leaf_top, name) < 0)
			return -1;
	}
	return 0;
}

/* --cpu-weight in v2 units; v1 gets the kernel's own conversion,
 * shares = round(weight * 1024 / 100). */
static int cg_weight(struct cgroup_plan *cg)
{
	unsigned w = cg->weight;

	if (!w)
		return 0;
	if (w > 10000)
		return cg_fail(cg, ERANGE, false, "use 1..10000",
			       "cpu weight %u", w);
	if (cg->version == 1) {
		strcpy(cg->wfile, "cpu.shares");
		w = (w * 1024 + 50) / 100;
	} else {
		strcpy(cg->wfile, "cpu.weight");
	}
	snprintf(cg->wvalue, sizeof cg->wvalue, "%u", w);
	return 0;
}

/* v2 R: cpu must reach it, it must hold no process and stay a domain
 * (one stray process in R makes every uid_N "domain invalid"), and it
 * enables cpu for its children - the only subtree_control we write. */
static int cg_v2_check(struct cgroup_plan *cg)
{
	const char *r = cg->cpu_top;
	char buf[256];

	if (cgfs_read(r, "cgroup.controllers", buf, sizeof buf) < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot read %s/cgroup.controllers", r);
	if (!mountinfo_has_token(buf, ' ', "cpu"))
		return cg_fail(cg, 0, true, "enable cpu in the parent's "
			       "cgroup.subtree_control or delegate it",
			       "cpu controller not enabled for %s",
			       diag_quote(r));
	if (cgfs_read(r, "cgroup.type", buf, sizeof buf) > 0 &&
	    strcmp(buf, "domain\n") != 0)
		return cg_fail(cg, 0, false, "move the processes out of it",
			       "cgroup %s is of type %.*s, not domain",
			       diag_quote(r), (int)strcspn(buf, "\n"), buf);
	if (cgfs_read(r, "cgroup.procs", buf, sizeof buf) > 0)
		return cg_fail(cg, 0, false, "move them out; leash puts "
			       "processes only in leaves", "cgroup %s must "
			       "not contain processes", diag_quote(r));
	if (cgfs_read(r, "cgroup.subtree_control", buf, sizeof buf) >= 0 &&
	    mountinfo_has_token(buf, ' ', "cpu"))
		return 0;
	if (cgfs_write(r, "cgroup.subtree_control", "+cpu") < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			cg_hint(errno), "cannot enable cpu in "
			"%s/cgroup.subtree_control", r);
	return 0;
}

static int cg_v2_top(struct cgroup_plan *cg)
{
	bool created;
	int rc;

	if (cgfs_mkdir(cg->cpu_top, &created) < 0)
		return cg_fail_mkdir(cg, cg->cpu_top);
	rc = cg_v2_check(cg);
	/* Leave nothing behind that this failed attempt made. */
	if (rc == -1 && created)
		rmdir(cg->cpu_top);
	return rc;
}

/* The uid group of the cpu hierarchy, with its weight when given.  The
 * uid group usually exists: try it first, its parent only on ENOENT. */
static int cg_build_cpu(struct cgroup_plan *cg, bool *created)
{
	int rc = 0;

	if (cg->version == 2)
		rc = cg_v2_top(cg);
	else if (cgfs_mkdir(cg->cpu_uid, created) == 0)
		goto weight;
	else if (errno != ENOENT)
		return cg_fail_mkdir(cg, cg->cpu_uid);
	else if (cgfs_mkdir(cg->cpu_top, NULL) < 0)
		rc = cg_fail_mkdir(cg, cg->cpu_top);
	if (rc)
		return rc;
	if (cgfs_mkdir(cg->cpu_uid, created) < 0)
		return errno == ENOENT ? CG_AGAIN :
		       cg_fail_mkdir(cg, cg->cpu_uid);
weight:
	if (cg->wfile[0] && cgfs_write(cg->cpu_uid, cg->wfile,
				       cg->wvalue) < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot set %s/%s to %s", cg->cpu_uid,
			cg->wfile, cg->wvalue);
	return 0;
}

/* run_<pid>_<boot time in ns>: unique while we live, costs no syscall
 * (vDSO clock), and lets a later launch tell that its creator is gone.
 * Another suffix on a (foreign) clash. */
static int cg_make_leaf(struct cgroup_plan *cg)
{
	struct timespec now;
	unsigned long long stamp;
	char name[80];
	bool created;

	clock_now(CLOCK_BOOTTIME, &now);
	stamp = (unsigned long long)now.tv_sec * 1000000000ULL +
		(unsigned long long)now.tv_nsec;
	for (int k = 0; k < CG_RETRIES; k++) {
		int n = snprintf(name, sizeof name, "run_%d_%llu",
				 (int)getpid(), stamp);
		if (k)
			snprintf(name + n, sizeof name - n, "_%d", k);
		if (cg_path(cg, cg->leaf, cg->leaf_uid, name) < 0)
			return -1;
		if (cgfs_mkdir(cg->leaf, &created) < 0)
			return errno == ENOENT ? CG_AGAIN :
			       cg_fail_mkdir(cg, cg->leaf);
		if (created)
			return 0;
	}
	return cg_fail(cg, EEXIST, false, NULL, "cannot create cgroup %s",
		       diag_quote(cg->leaf));
}

static int cg_build_leaf(struct cgroup_plan *cg)
{
	int rc = 0;

	if (!cg->leaf_top[0])
		return 0;
	if (cg->version == 1 && cgfs_mkdir(cg->leaf_uid, NULL) < 0) {
		/* Hybrid: the leaf's parents live in cgroup2. */
		if (errno != ENOENT)
			rc = cg_fail_mkdir(cg, cg->leaf_uid);
		else if (cgfs_mkdir(cg->leaf_top, NULL) < 0)
			rc = cg_fail_mkdir(cg, cg->leaf_top);
		else if (cgfs_mkdir(cg->leaf_uid, NULL) < 0)
			rc = errno == ENOENT ? CG_AGAIN :
			     cg_fail_mkdir(cg, cg->leaf_uid);
	}
	if (rc == 0)
		rc = cg_make_leaf(cg);
	if (rc)
		cg->leaf[0] = '\0';    /* never remove what is not ours */
	if (rc == -1 && cg->version == 1 && cg->soft &&
	    cg->mode == CGROUP_AUTO) {
		/* The cpu group works; only tracking is lost. */
		cg_note(cg, "cgroup: no per-launch leaf: %.*s", cg->hint_at,
			cg->msg);
		cg->leaf_top[0] = cg->leaf[0] = '\0';
		return 0;
	}
	return rc;
}

static int cg_build(struct cgroup_plan *cg, bool *created)
{
	for (int i = 0; i < CG_RETRIES; i++) {
		int rc = cg_build_cpu(cg, created);

		if (rc == 0)
			rc = cg_build_leaf(cg);
		if (rc != CG_AGAIN)
			return rc;
	}
	return cg_fail(cg, ENOENT, false, "something keeps removing it",
		       "cannot create cgroup %s", diag_quote(cg->cpu_uid));
}

/* A leaf of an earlier launch whose creator is gone: its pid is dead, or
 * belongs to a process started after the leaf was made (pid reuse; the
 * start time in /proc counts clock ticks since boot, as CLOCK_BOOTTIME). */
static bool cg_leaf_stale(const char *name)
{
	unsigned long long stamp, start;
	long hz = sysconf(_SC_CLK_TCK);
	int pid;

	char *end;

	/* By hand, not sscanf: scanf alone would add 4 KiB to leash. */
	if (strncmp(name, "run_", 4))
		return false;
	pid = (int)strtol(name + 4, &end, 10);
	if (pid <= 0 || *end != '_')
		return false;
	stamp = strtoull(end + 1, &end, 10);
	if (*end)
		return false;
	start = cgfs_starttime(pid);
	if (!start)
		return true;
	return hz > 0 && start * (1000000000ULL / (unsigned long long)hz) >
			 stamp;
}

/* Remove empty leaves left by launches whose leftovers ran on after
 * them; rmdir itself refuses a populated one, so racing is harmless. */
static void cg_sweep(const struct cgroup_plan *cg)
{
	const char *mine = strrchr(cg->leaf, '/');
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	/* Usually nothing is there: one read instead of a directory scan. */
	if (!cg->leaf[0] ||
	    cgfs_key(cg->leaf_uid, "cgroup.stat", "nr_descendants") == 0 ||
	    !(d = opendir(cg->leaf_uid)))
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "run_", 4) != 0 ||
		    (mine && strcmp(e->d_name, mine + 1) == 0) ||
		    !cg_leaf_stale(e->d_name) ||
		    cgfs_join(path, sizeof path, cg->leaf_uid, e->d_name) < 0)
			continue;
		if (cgfs_key(path, "cgroup.events", "populated") == 0)
			rmdir(path);
	}
	closedir(d);
}

static void cg_note_ready(const struct cgroup_plan *cg, bool created)
{
	char cur[32] = "";
	const char *file = cg->version == 1 ? "cpu.shares" : "cpu.weight";

	if (!cg->verbose || !cg->note)
		return;
	if (!cg->wfile[0] && cgfs_read(cg->cpu_uid, file, cur, sizeof cur) > 0)
		cur[strcspn(cur, "\n")] = '\0';
	cg_note(cg, "cgroup v%d: %s %s, %s %s%s", cg->version,
		created ? "created" : "joined", cg->cpu_uid, file,
		cg->wfile[0] ? cg->wvalue : cur,
		cg->wfile[0] ? "" : " (not changed)");
	if (cg->leaf[0])
		cg_note(cg, "cgroup: leaf %s", cg->leaf);
	else
		cg_note(cg, "cgroup: no per-launch leaf (no cgroup2 mount): "
			"the deadline reaches the process group only");
}

int cgroup_prepare(struct cgroup_plan *cg, uid_t uid, const char **what)
{
	bool created = false;
	int rc;

	cg_reset(cg);
	if (!cg_acts(cg, uid))
		return 0;
	rc = cg_locate(cg, uid);
	if (rc >= 0)
		rc = cg_weight(cg);
	if (rc >= 0)
		rc = cg_build(cg, &created);
	if (rc < 0) {
		if (cg->mode == CGROUP_AUTO && cg->soft) {
			cg_note(cg, "running without a cgroup: %.*s",
				cg->hint_at, cg->msg);
			cg_reset(cg);
			return 0;
		}
		if (what)
			*what = cg->msg;
		return -1;
	}
	cg->active = true;
	cg->created = created;
	cg_note_ready(cg, created);
	return 0;
}

/* Child: make the chain again after it was removed under us. */
static int cg_rebuild(const struct cgroup_plan *cg, bool leaf_chain)
{
	const char *top = leaf_chain ? cg->leaf_top : cg->cpu_top;
	const char *uid = leaf_chain ? cg->leaf_uid : cg->cpu_uid;

	if (cgfs_mkdir(top, NULL) < 0)
		return -1;
	if (cg->version == 2 &&
	    cgfs_write(top, "cgroup.subtree_control", "+cpu") < 0)
		return -1;
	if (cgfs_mkdir(uid, NULL) < 0)
		return -1;
	if (cg->wfile[0] && (cg->version == 2 || !leaf_chain) &&
	    cgfs_write(uid, cg->wfile, cg->wvalue) < 0)
		return -1;
	if (leaf_chain && cgfs_mkdir(cg->leaf, NULL) < 0)
		return -1;
	return 0;
}

/* Writing "0" moves the writer itself (v1 and v2).  ENOENT/ENODEV: the
 * group was removed between prepare and now: recreate, retry. */
static int cg_join_one(const struct cgroup_plan *cg, const char *dir,
		       bool leaf_chain)
{
	for (int i = 0; i < CG_JOIN_RETRIES; i++) {
		if (cgfs_write(dir, "cgroup.procs", "0") == 0)
			return 0;
		if (errno != ENOENT && errno != ENODEV)
			return -1;
		if (cg_rebuild(cg, leaf_chain) < 0 && errno != ENOENT)
			return -1;
	}
	errno = ENOENT;
	return -1;
}

int cgroup_join_step(const struct cgroup_plan *cg, enum cgroup_step *step)
{
	if (!cg->active)
		return 0;
	/* The tracking leaf first: from here on a kill reaches us. */
	*step = CGROUP_STEP_LEAF;
	if (cg->leaf[0] && cg_join_one(cg, cg->leaf, true) < 0)
		return -1;
	*step = CGROUP_STEP_CPU;
	if (cg->version == 1 && cg_join_one(cg, cg->cpu_uid, false) < 0)
		return -1;
	return 0;
}

int cgroup_join(const struct cgroup_plan *cg)
{
	enum cgroup_step step;

	return cgroup_join_step(cg, &step);
}

const char *cgroup_join_error(struct cgroup_plan *cg, int step, int err)
{
	const char *hint = cg_hint(err);
	const char *path = step == CGROUP_STEP_CPU || !cg->leaf[0] ?
			   cg->cpu_uid : cg->leaf;

	if (err == EOPNOTSUPP)
		hint = "a process sits in a parent cgroup; move it out";
	else if (err == EINVAL && cg->version == 1 && path == cg->cpu_uid)
		hint = "a real-time task needs cpu.rt_runtime_us in the group";
	else if (err == EBUSY)
		hint = "a parent cgroup has processes and controllers";
	cg_fail(cg, err, false, hint, "cannot join cgroup %s",
		diag_quote(path));
	return cg->msg;
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

/* A frozen leaf cannot fork, and its members cannot exit and free
 * their pids while we walk cgroup.procs; a member stuck in the kernel
 * may delay the freeze, so the wait is bounded and we go on anyway. */
static bool cg_freeze(const struct cgroup_plan *cg)
{
	if (cgfs_write(cg->leaf, "cgroup.freeze", "1") < 0)
		return false;
	cgfs_wait_event(cg->leaf, "frozen", 1, 100);
	return true;
}

static int cg_signal_leaf(const struct cgroup_plan *cg, int sig, pid_t skip)
{
	struct cg_sig s = { sig, skip, 0 };
	bool frozen;
	int n;

	if (cg_wait_ms < (sig == SIGKILL ? 1000 : 100))
		cg_wait_ms = sig == SIGKILL ? 1000 : 100;
	frozen = cg_freeze(cg);
	n = cgfs_each_pid(cg->leaf, cg_kill_pid, &s);
	if (frozen)
		cgfs_write(cg->leaf, "cgroup.freeze", "0");
	if (n < 0)
		return errno == ENOENT ? 0 : -1;   /* no leaf, nobody left */
	if (s.err) {
		errno = s.err;
		return -1;
	}
	return 0;
}

int cgroup_signal(const struct cgroup_plan *cg, int sig)
{
	if (!cg->active || !cg->leaf[0])
		return 0;
	return cg_signal_leaf(cg, sig, cg->child);
}

int cgroup_kill(const struct cgroup_plan *cg)
{
	if (!cg->active || !cg->leaf[0])
		return 0;
	cg_wait_ms = 1000;
	/* cgroup.kill (5.14) also catches forks racing with it. */
	if (cgfs_write(cg->leaf, "cgroup.kill", "1") == 0)
		return 0;
	return cg_signal_leaf(cg, SIGKILL, 0);
}

void cgroup_release(struct cgroup_plan *cg)
{
	int wait;

	if (!cg->active)
		return;
	if (!cg->leaf[0]) {
		if (cg->kill_leftovers)
			cg_note(cg, "cgroup: no leaf: leftovers not killed");
		cg->active = false;
		return;
	}
	if (cg->kill_leftovers &&
	    cgfs_key(cg->leaf, "cgroup.events", "populated") != 0)
		cgroup_kill(cg);
	wait = cg_wait_ms;
	cg->active = false;
	if (cgfs_wait_event(cg->leaf, "populated", 0, wait) < 0 &&
	    errno != ENOENT) {
		cg_note(cg, "cgroup: processes left in %s: kept, a later "
			"launch removes it once they are gone", cg->leaf);
		cg_sweep(cg);
		return;
	}
	if (cgfs_rmdir(cg->leaf, 1000) < 0)
		cg_note(cg, "cgroup: cannot remove %s: %s", cg->leaf,
			strerror(errno));
	else
		cg_note(cg, "cgroup: removed %s", cg->leaf);
	/* After the command, off its start-up path. */
	cg_sweep(cg);
}
