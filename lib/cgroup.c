/* SPDX-License-Identifier: ISC */
/* cgroup: the per-uid cpu group and the per-launch leaf. */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
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
/* cgroup2 R without cpu for its children (cg->msg says so). */
#define CG_NOCPU (-3)

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

/* PREFIX followed by the decimal V, at DST (room for 64 bytes); returns
 * the end.  Not snprintf: on the launch path its cost shows. */
static char *cg_name(char *dst, const char *prefix, unsigned long long v)
{
	char digits[24], *d = digits + sizeof digits;
	size_t n = strlen(prefix);

	memcpy(dst, prefix, n);
	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(dst + n, d, (size_t)(digits + sizeof digits - d));
	n += (size_t)(digits + sizeof digits - d);
	dst[n] = '\0';
	return dst + n;
}

/* The last component of our leaf's path. */
static const char *cg_leaf_name(const struct cgroup_plan *cg)
{
	const char *slash = strrchr(cg->leaf, '/');

	return slash ? slash + 1 : cg->leaf;
}

static void cg_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void cg_close(struct cgroup_plan *cg)
{
	cg_close_fd(&cg->cpu_fd);
	cg_close_fd(&cg->uid_fd);
	cg_close_fd(&cg->leaf_fd);
}

/* Forget everything (the descriptors are not ours to close yet: the
 * plan starts zeroed, and 0 is stdin). */
static void cg_reset(struct cgroup_plan *cg)
{
	cg->active = cg->created = false;
	cg->soft = false;
	cg->version = 0;
	cg->cpu_fd = cg->uid_fd = cg->leaf_fd = -1;
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
	if (cg->mode != CGROUP_AUTO)
		return true;
	return cg->asked || cg->weight || cg->root || cg->kill_leftovers ||
	       uid != geteuid();
}

/* cmd/ puts LEASH_CGROUP_ROOT there too. */
static const char *cg_root_option(const struct cgroup_plan *cg)
{
	return cg->root && *cg->root ? cg->root : NULL;
}

/* ---- discovery ---------------------------------------------------- */

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
	if (magic == MOUNTINFO_CGROUP1_MAGIC && cg->mode != CGROUP_TRACK) {
		char file[PATH_MAX];

		if (cgfs_join(file, sizeof file, probe, "cpu.shares") == 0 &&
		    access(file, F_OK) == 0)
			return (cg->version = 1);
		return cg_fail(cg, 0, false, "give a directory in the cpu "
			       "hierarchy", "--cgroup-root %s is not in the "
			       "cpu controller's hierarchy", diag_quote(root));
	}
	return cg_fail(cg, magic < 0 ? errno : 0, false, NULL,
		       "--cgroup-root %s is not on a cgroup%s filesystem",
		       diag_quote(root), cg->mode == CGROUP_TRACK ? "2" : "");
}

/* No usable hierarchy: say which part is missing (reference 7). */
static int cg_fail_none(struct cgroup_plan *cg,
			const struct mountinfo_cgroups *m)
{
	if (cg->mode == CGROUP_TRACK)
		return cg_fail(cg, 0, true, cg_hint(0), "no cgroup2 mount "
			       "for a tracking leaf");
	if (m->v2[0])
		return cg_fail(cg, 0, true, cg_hint(0), "no cpu cgroup "
			       "controller available (not in %s/cgroup."
			       "controllers, no v1 hierarchy has it)", m->v2);
	return cg_fail(cg, 0, true, cg_hint(0),
		       "no cgroup mount with the cpu controller");
}

/* Only a leaf, under <cgroup2>/leash: --cgroup=track, or auto where no
 * hierarchy has cpu (the reason, in cg->msg, goes to -v). */
static int cg_locate_leaf_only(struct cgroup_plan *cg, const char *v2)
{
	cg->version = 0;
	cg->cpu_top[0] = cg->cpu_uid[0] = '\0';
	return cg_path(cg, cg->leaf_top, v2, "leash");
}

/* Pick the hierarchies and compute every path (nothing is made yet). */
static int cg_locate(struct cgroup_plan *cg, uid_t uid)
{
	const char *root = cg_root_option(cg);
	struct mountinfo_cgroups m;
	char name[32];

	if (mountinfo_cgroups(NULL, &m) < 0)
		return cg_fail(cg, errno, true, cg_hint(errno),
			       "cannot read /proc/self/mountinfo");
	if (root) {
		if (cg_locate_root(cg, root) < 0)
			return -1;
		if (cg->mode == CGROUP_TRACK) {
			strcpy(cg->leaf_top, cg->cpu_top);
			cg->version = 0;
			cg->cpu_top[0] = '\0';
		}
	} else if (cg->mode == CGROUP_TRACK ||
		   (!m.v2cpu && !m.v1cpu[0] && m.v2[0] &&
		    cg->mode == CGROUP_AUTO)) {
		if (!m.v2[0])
			return cg_fail_none(cg, &m);
		if (cg->mode == CGROUP_AUTO) {
			cg_fail_none(cg, &m);
			cg_note(cg, "cgroup: tracking leaf only: %.*s",
				cg->hint_at, cg->msg);
		}
		if (cg_locate_leaf_only(cg, m.v2) < 0)
			return -1;
	} else if (m.v2cpu || m.v1cpu[0]) {
		cg->version = m.v2cpu ? 2 : 1;
		if (cg_path(cg, cg->cpu_top, m.v2cpu ? m.v2 : m.v1cpu,
			    "leash") < 0)
			return -1;
	} else {
		return cg_fail_none(cg, &m);
	}
	cg_name(name, "uid_", uid);
	if (cg->version && cg_path(cg, cg->cpu_uid, cg->cpu_top, name) < 0)
		return -1;
	if (cg->version == 2) {
		strcpy(cg->leaf_top, cg->cpu_top);
	} else if (cg->version == 1 && m.v2[0]) {
		/* Hybrid: track the launch in cgroup2, no controllers. */
		if (cg_path(cg, cg->leaf_top, m.v2, "leash") < 0)
			return -1;
	}
	if (cg->leaf_top[0] &&
	    cg_path(cg, cg->leaf_uid, cg->leaf_top, name) < 0)
		return -1;
	return 0;
}

/* The usual places, where mountinfo (dear to read: tens of µs) would
 * find them: cgroup2 at /sys/fs/cgroup (unified) or .../unified
 * (hybrid), the v1 cpu hierarchy at /sys/fs/cgroup/cpu or /dev/cpuctl
 * (Android).  A controller lives in one hierarchy only, so a uid group
 * with cpu.weight means cpu is on cgroup2, one with cpu.shares that it
 * is on v1. */
static const char *const cg_v2_bases[] = {
	"/sys/fs/cgroup", "/sys/fs/cgroup/unified",
};
static const char *const cg_v1_bases[] = {
	"/sys/fs/cgroup/cpu", "/dev/cpuctl",
};

/* BASE/leash/NAME when it exists on a filesystem of MAGIC holding FILE
 * (NULL: any): its descriptor, TOP and DIR filled; else -1. */
static int cg_fast_open(const char *base, const char *name, long magic,
			const char *file, char *top, char *dir)
{
	struct statfs sf;
	int fd;

	cgfs_join(top, CGROUP_PATH_MAX, base, "leash");
	cgfs_join(dir, CGROUP_PATH_MAX, top, name);
	fd = cgfs_dir(AT_FDCWD, dir);
	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sf) == 0 && (long)sf.f_type == magic &&
	    (!file || faccessat(fd, file, F_OK, 0) == 0))
		return fd;
	close(fd);
	return -1;
}

/* The steady state without mountinfo: the uid groups exist (only the
 * first launch of a uid makes them) in the usual places.  0 when the
 * groups are open and cg is filled, 1 when the full search must run. */
static int cg_fast_find(struct cgroup_plan *cg, const char *name)
{
	char top[CGROUP_PATH_MAX];
	size_t i;

	for (i = 0; i < 2 && cg->uid_fd < 0; i++)
		cg->uid_fd = cg_fast_open(cg_v2_bases[i], name,
					  MOUNTINFO_CGROUP2_MAGIC, NULL,
					  cg->leaf_top, cg->leaf_uid);
	if (cg->uid_fd < 0)
		return 1;
	if (cg->mode == CGROUP_TRACK)
		return 0;
	if (faccessat(cg->uid_fd, "cpu.weight", F_OK, 0) == 0) {
		cg->version = 2;
		strcpy(cg->cpu_top, cg->leaf_top);
		strcpy(cg->cpu_uid, cg->leaf_uid);
		return 0;
	}
	for (i = 0; i < 2 && cg->cpu_fd < 0; i++)
		cg->cpu_fd = cg_fast_open(cg_v1_bases[i], name,
					  MOUNTINFO_CGROUP1_MAGIC, "cpu.shares",
					  top, cg->cpu_uid);
	if (cg->cpu_fd < 0)
		return 1;
	cg->version = 1;
	strcpy(cg->cpu_top, top);
	return 0;
}

/* ---- building ----------------------------------------------------- */

/* --cpu-weight in v2 units, checked before anything is made. */
static int cg_weight_check(struct cgroup_plan *cg)
{
	if (cg->weight > 10000)
		return cg_fail(cg, ERANGE, false, "use 1..10000",
			       "cpu weight %u", cg->weight);
	if (cg->weight && cg->mode == CGROUP_TRACK)
		return cg_fail(cg, 0, false, "use --cgroup=auto or require",
			       "--cpu-weight needs the cpu group, which "
			       "--cgroup=track does not make");
	return 0;
}

/* The weight's file and value; v1 gets the kernel's own conversion,
 * shares = round(weight * 1024 / 100). */
static void cg_weight_file(struct cgroup_plan *cg)
{
	unsigned w = cg->weight;

	if (!w || !cg->version)
		return;
	if (cg->version == 1) {
		strcpy(cg->wfile, "cpu.shares");
		w = (w * 1024 + 50) / 100;
	} else {
		strcpy(cg->wfile, "cpu.weight");
	}
	snprintf(cg->wvalue, sizeof cg->wvalue, "%u", w);
}

/* The uid group holding the weight: v1's cpu group, else cgroup2's. */
static int cg_weight_fd(const struct cgroup_plan *cg)
{
	return cg->version == 1 ? cg->cpu_fd : cg->uid_fd;
}

/* v2 R: cpu must reach it, it must hold no process and stay a domain
 * (one stray process in R makes every uid_N "domain invalid"), and it
 * enables cpu for its children - the only subtree_control we write.
 * Only the first launch of a uid runs this: later ones find cpu.weight
 * in uid_<uid> (cg_fast_find), and a join that fails asks again. */
static int cg_v2_check(struct cgroup_plan *cg, int r)
{
	const char *path = cg->cpu_top;
	char buf[256];

	if (cgfs_read(r, "cgroup.controllers", buf, sizeof buf) < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot read %s/cgroup.controllers", path);
	if (!mountinfo_has_token(buf, ' ', "cpu")) {
		cg_fail(cg, 0, true, "enable cpu in the parent's cgroup."
			"subtree_control or delegate it", "cpu controller not "
			"enabled for %s", diag_quote(path));
		return CG_NOCPU;
	}
	if (cgfs_read(r, "cgroup.type", buf, sizeof buf) > 0 &&
	    strcmp(buf, "domain\n") != 0)
		return cg_fail(cg, 0, false, "move the processes out of it",
			       "cgroup %s is of type %.*s, not domain",
			       diag_quote(path), (int)strcspn(buf, "\n"), buf);
	if (cgfs_read(r, "cgroup.procs", buf, sizeof buf) > 0)
		return cg_fail(cg, 0, false, "move them out; leash puts "
			       "processes only in leaves", "cgroup %s must "
			       "not contain processes", diag_quote(path));
	if (cgfs_read(r, "cgroup.subtree_control", buf, sizeof buf) >= 0 &&
	    mountinfo_has_token(buf, ' ', "cpu"))
		return 0;
	if (cgfs_write(r, "cgroup.subtree_control", "+cpu") < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			cg_hint(errno), "cannot enable cpu in "
			"%s/cgroup.subtree_control", path);
	return 0;
}

static int cg_v2_top(struct cgroup_plan *cg)
{
	bool created;
	int rc, r;

	if (cgfs_mkdir(AT_FDCWD, cg->cpu_top, &created) < 0)
		return cg_fail_mkdir(cg, cg->cpu_top);
	r = cgfs_dir(AT_FDCWD, cg->cpu_top);
	if (r < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot open cgroup %s", diag_quote(cg->cpu_top));
	rc = cg_v2_check(cg, r);
	close(r);
	/* Auto keeps R for a tracking leaf; else leave nothing behind
	 * that this failed attempt made. */
	if (rc == CG_NOCPU && cg->mode != CGROUP_AUTO)
		rc = -1;
	if (rc == -1 && created)
		rmdir(cg->cpu_top);
	return rc;
}

/* mkdir DIR (its parent TOP first when missing; TOP NULL: start over
 * then) and open it.  The group usually exists: its parent is tried
 * only on ENOENT. */
static int cg_make_group(struct cgroup_plan *cg, const char *top,
			 const char *dir, bool *created, int *fd)
{
	if (cgfs_mkdir(AT_FDCWD, dir, created) < 0) {
		if (errno != ENOENT)
			return cg_fail_mkdir(cg, dir);
		if (!top)
			return CG_AGAIN;
		if (cgfs_mkdir(AT_FDCWD, top, NULL) < 0)
			return cg_fail_mkdir(cg, top);
		if (cgfs_mkdir(AT_FDCWD, dir, created) < 0)
			return errno == ENOENT ? CG_AGAIN :
			       cg_fail_mkdir(cg, dir);
	}
	*fd = cgfs_dir(AT_FDCWD, dir);
	if (*fd >= 0)
		return 0;
	return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false, NULL,
		"cannot open cgroup %s", diag_quote(dir));
}

static int cg_write_weight(struct cgroup_plan *cg)
{
	if (!cg->wfile[0] ||
	    cgfs_write(cg_weight_fd(cg), cg->wfile, cg->wvalue) == 0)
		return 0;
	return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false, NULL,
		"cannot set %s/%s to %s", cg->cpu_uid, cg->wfile, cg->wvalue);
}

/* The uid group of the cpu hierarchy, with its weight when given. */
static int cg_build_cpu(struct cgroup_plan *cg)
{
	int rc;

	if (cg->version == 2 && (rc = cg_v2_top(cg)) != 0)
		return rc;
	/* v2: R is checked above; made again, it must be checked again. */
	rc = cg_make_group(cg, cg->version == 1 ? cg->cpu_top : NULL,
			   cg->cpu_uid, &cg->created,
			   cg->version == 1 ? &cg->cpu_fd : &cg->uid_fd);
	return rc ? rc : cg_write_weight(cg);
}

/* run_<pid>_<boot time in ns>: unique while we live, costs no syscall
 * (vDSO clock), and lets a later launch tell that its creator is gone.
 * Another suffix on a (foreign) clash: only a leaf this call made is
 * ever ours.  The leaf is opened at once and reached only through it. */
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
		char *end = cg_name(name, "run_", (unsigned)getpid());

		end = cg_name(end, "_", stamp);
		if (k)
			cg_name(end, "_", (unsigned)k);
		if (cg_path(cg, cg->leaf, cg->leaf_uid, name) < 0)
			return -1;
		if (cgfs_mkdir(cg->uid_fd, name, &created) < 0)
			return errno == ENOENT ? CG_AGAIN :
			       cg_fail_mkdir(cg, cg->leaf);
		if (!created)
			continue;
		cg->leaf_fd = cgfs_dir(cg->uid_fd, name);
		if (cg->leaf_fd >= 0)
			return 0;
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot open cgroup %s", diag_quote(cg->leaf));
	}
	return cg_fail(cg, EEXIST, false, NULL, "cannot create cgroup %s",
		       diag_quote(cg->leaf));
}

static int cg_build_leaf(struct cgroup_plan *cg)
{
	int rc = 0;
	bool made;

	if (!cg->leaf_top[0])
		return 0;
	if (cg->uid_fd < 0)     /* hybrid, or leaf only: cgroup2's uid group */
		rc = cg_make_group(cg, cg->leaf_top, cg->leaf_uid, &made,
				   &cg->uid_fd);
	if (rc == 0)
		rc = cg_make_leaf(cg);
	if (rc)
		cg->leaf[0] = '\0';    /* never remove what is not ours */
	if (rc == -1 && cg->version == 1 && cg->soft &&
	    cg->mode == CGROUP_AUTO) {
		/* The cpu group works; only tracking is lost. */
		cg_note(cg, "cgroup: no per-launch leaf: %.*s", cg->hint_at,
			cg->msg);
		cg_close_fd(&cg->uid_fd);
		cg_close_fd(&cg->leaf_fd);
		cg->leaf_top[0] = cg->leaf[0] = '\0';
		return 0;
	}
	return rc;
}

/* Auto, cgroup2 R without cpu: keep a tracking leaf in R instead. */
static void cg_leaf_only_in_r(struct cgroup_plan *cg)
{
	cg_note(cg, "cgroup: tracking leaf only: %.*s", cg->hint_at, cg->msg);
	cg->version = 0;
	cg->wfile[0] = '\0';
	strcpy(cg->leaf_uid, cg->cpu_uid);
	cg->cpu_top[0] = cg->cpu_uid[0] = '\0';
}

static int cg_build(struct cgroup_plan *cg)
{
	for (int i = 0; i < CG_RETRIES; i++) {
		int rc = cg->version ? cg_build_cpu(cg) : 0;

		if (rc == CG_NOCPU) {
			cg_leaf_only_in_r(cg);
			rc = 0;
		}
		if (rc == 0)
			rc = cg_build_leaf(cg);
		if (rc != CG_AGAIN)
			return rc;
		cg_close(cg);
	}
	return cg_fail(cg, ENOENT, false, "something keeps removing it",
		       "cannot create cgroup %s", diag_quote(cg->version ?
		       cg->cpu_uid : cg->leaf_uid));
}

/* The steady state: the uid groups found where they usually are, the
 * weight written when given, the leaf made.  Anything unusual (a first
 * launch, an error to explain) undoes it all: 1, the full path runs. */
static int cg_fast(struct cgroup_plan *cg, uid_t uid)
{
	char name[32];

	if (cg_root_option(cg))
		return 1;
	cg_name(name, "uid_", uid);
	if (cg_fast_find(cg, name) == 0) {
		cg_weight_file(cg);
		if ((!cg->wfile[0] || cgfs_write(cg_weight_fd(cg), cg->wfile,
						 cg->wvalue) == 0) &&
		    cg_make_leaf(cg) == 0)
			return 0;
	}
	cg_close(cg);
	cg_reset(cg);
	return 1;
}

/* ---- prepare ------------------------------------------------------ */

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

static void cg_note_ready(const struct cgroup_plan *cg)
{
	char cur[32] = "";
	const char *file = cg->version == 1 ? "cpu.shares" : "cpu.weight";

	if (!cg->verbose || !cg->note)
		return;
	if (cg->version && !cg->wfile[0] &&
	    cgfs_read(cg_weight_fd(cg), file, cur, sizeof cur) > 0)
		cur[strcspn(cur, "\n")] = '\0';
	if (cg->version)
		cg_note(cg, "cgroup v%d: %s %s, %s %s%s", cg->version,
			cg->created ? "created" : "joined", cg->cpu_uid, file,
			cg->wfile[0] ? cg->wvalue : cur,
			cg->wfile[0] ? "" : " (not changed)");
	if (cg->leaf[0])
		cg_note(cg, "cgroup: leaf %s", cg->leaf);
	else
		cg_note(cg, "cgroup: no per-launch leaf (no cgroup2 mount): "
			"the deadline reaches the process group only");
}

/* Everything the fast path could not do: mountinfo, checks, mkdirs. */
static int cg_slow(struct cgroup_plan *cg, uid_t uid)
{
	int rc = cg_locate(cg, uid);

	if (rc < 0)
		return rc;
	cg_weight_file(cg);
	if (cg->weight && !cg->version)
		/* Not silent: the weight belongs to a cpu group. */
		diag_warn("--cpu-weight not applied: no cpu controller, "
			  "only a tracking leaf");
	return cg_build(cg);
}

int cgroup_prepare(struct cgroup_plan *cg, uid_t uid, const char **what)
{
	int rc;

	cg_reset(cg);
	if (!cg_acts(cg, uid))
		return 0;
	rc = cg_weight_check(cg);
	if (rc == 0 && (rc = cg_fast(cg, uid)) > 0)
		rc = cg_slow(cg, uid);
	if (rc < 0) {
		cg_close(cg);
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
	cg_note_ready(cg);
	return 0;
}

/* ---- joining ------------------------------------------------------ */

/* Write VAL to DIR/FILE by path (async-signal-safe). */
static int cg_write_path(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	if (cgfs_join(path, sizeof path, dir, file) < 0)
		return -1;
	return cgfs_write(AT_FDCWD, path, val);
}

/* Make the chain again after another process removed it under us: the
 * one place where paths are resolved again.  The leaf must be made by
 * this call (a directory of its name made by someone else is not ours). */
static int cg_rebuild_chain(const struct cgroup_plan *cg, bool leaf_chain)
{
	const char *top = leaf_chain ? cg->leaf_top : cg->cpu_top;
	const char *uid = leaf_chain ? cg->leaf_uid : cg->cpu_uid;

	if (cgfs_mkdir(AT_FDCWD, top, NULL) < 0)
		return -1;
	if (cg->version == 2 &&
	    cg_write_path(top, "cgroup.subtree_control", "+cpu") < 0)
		return -1;
	if (cgfs_mkdir(AT_FDCWD, uid, NULL) < 0)
		return -1;
	if (cg->wfile[0] && (cg->version == 2 || !leaf_chain) &&
	    cg_write_path(uid, cg->wfile, cg->wvalue) < 0)
		return -1;
	return 0;
}

static int cg_rebuild(const struct cgroup_plan *cg, bool leaf_chain)
{
	bool made;

	if (cg_rebuild_chain(cg, leaf_chain) < 0)
		return -1;
	if (!leaf_chain)
		return 0;
	if (cgfs_mkdir(AT_FDCWD, cg->leaf, &made) < 0)
		return -1;
	return made ? 0 : (errno = EEXIST, -1);
}

/* Writing "0" to FILE moves the writer itself (v1 and v2), through the
 * group's descriptor FD.  ENOENT/ENODEV: the group was removed between
 * prepare and now: recreate, retry (by path from then on). */
static int cg_join_one(const struct cgroup_plan *cg, int fd, const char *dir,
		       const char *file, bool leaf_chain)
{
	for (int i = 0; i < CG_JOIN_RETRIES; i++) {
		if ((i == 0 && fd >= 0 ? cgfs_write(fd, file, "0") :
		     cg_write_path(dir, file, "0")) == 0)
			return 0;
		if (errno != ENOENT && errno != ENODEV)
			return -1;
		if (cg_rebuild(cg, leaf_chain) < 0 && errno != ENOENT)
			return -1;
	}
	errno = ENOENT;
	return -1;
}

int cgroup_join_step(const struct cgroup_plan *cg, bool born,
		     enum cgroup_step *step)
{
	if (!cg->active)
		return 0;
	/* The tracking leaf first: from here on a kill reaches us. */
	*step = CGROUP_STEP_LEAF;
	if (cg->leaf[0] && !born &&
	    cg_join_one(cg, cg->leaf_fd, cg->leaf, "cgroup.procs", true) < 0)
		return -1;
	/* v1: "tasks", not cgroup.procs: the child is one thread, and the
	 * kernel moves the current thread without the global threadgroup
	 * lock a process move takes for writing, whose RCU grace period
	 * cost an isolated launch 12 ms here (cgroup2 has no such file for
	 * a domain group: there the child is born in its leaf). */
	*step = CGROUP_STEP_CPU;
	if (cg->version == 1 &&
	    cg_join_one(cg, cg->cpu_fd, cg->cpu_uid, "tasks", false) < 0)
		return -1;
	return 0;
}

int cgroup_birth_fd(const struct cgroup_plan *cg)
{
	return cg->active && cg->leaf[0] ? cg->leaf_fd : -1;
}

int cgroup_birth_lost(struct cgroup_plan *cg)
{
	const char *old = strrchr(cg->leaf, '/');
	int rc;

	cg_close_fd(&cg->leaf_fd);
	/* Gone, as clone3 said; should it not be, it is ours and empty. */
	if (old && cg->uid_fd >= 0)
		unlinkat(cg->uid_fd, old + 1, AT_REMOVEDIR);
	rc = cg_make_leaf(cg);
	if (rc == CG_AGAIN) {
		/* The uid group went too: remake the chain, open it again. */
		cg_close_fd(&cg->uid_fd);
		if (cg_rebuild_chain(cg, true) == 0 &&
		    (cg->uid_fd = cgfs_dir(AT_FDCWD, cg->leaf_uid)) >= 0)
			rc = cg_make_leaf(cg);
	}
	/* Not made here: the path stays, so the forked child's join makes
	 * it again (with its own bounded retries) or fails the launch, 125;
	 * never a command silently outside its leaf. */
	return rc ? -1 : 0;
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

/* ---- signals and release ------------------------------------------ */

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
static bool cg_freeze(int leaf)
{
	if (cgfs_write(leaf, "cgroup.freeze", "1") < 0)
		return false;
	cgfs_wait_event(leaf, "frozen", 1, 100);
	return true;
}

static int cg_signal_fd(int leaf, int sig, pid_t skip)
{
	struct cg_sig s = { sig, skip, 0 };
	bool frozen = cg_freeze(leaf);
	int n = cgfs_each_pid(leaf, cg_kill_pid, &s), err = errno;

	if (frozen)
		cgfs_write(leaf, "cgroup.freeze", "0");
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
	if (cg_wait_ms < (sig == SIGKILL ? 1000 : 100))
		cg_wait_ms = sig == SIGKILL ? 1000 : 100;
	return cg_on_leaf(cg, sig, skip, cg_signal_fd);
}

int cgroup_signal(const struct cgroup_plan *cg, int sig)
{
	if (!cg->active || !cg->leaf[0])
		return 0;
	return cg_signal_leaf(cg, sig, cg->child);
}

/* ENOSYS: the leaf is there but has no cgroup.kill (Linux before 5.14).
 * Both say ENOENT, and cg_on_leaf takes ENOENT for a leaf gone, with
 * nobody left to kill: on 5.10 the leaf's escapees lived on. */
static int cg_kill_fd(int leaf, int sig, pid_t skip)
{
	(void)sig;
	(void)skip;
	if (cgfs_write(leaf, "cgroup.kill", "1") == 0)
		return 0;
	if (errno == ENOENT && faccessat(leaf, "cgroup.procs", F_OK, 0) == 0)
		errno = ENOSYS;
	return -1;
}

static int cg_kill_leaf(const struct cgroup_plan *cg)
{
	cg_wait_ms = 1000;
	/* cgroup.kill (5.14) also catches forks racing with it. */
	if (cg_on_leaf(cg, SIGKILL, 0, cg_kill_fd) == 0)
		return 0;
	if (errno == ENOSYS)
		cg_note(cg, "cgroup: no cgroup.kill: freezing %s to kill it",
			cg->leaf);
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

	if (unlinkat(cg->uid_fd, name, AT_REMOVEDIR) == 0)
		return 0;
	if (errno == ENOENT)    /* gone, or made again by the child */
		return rmdir(cg->leaf) == 0 || errno == ENOENT ? 0 : -1;
	if (errno != EBUSY)
		return -1;
	if (cgfs_wait_event(cg->leaf_fd, "populated", 0, wait) < 0 &&
	    errno != ENOENT)
		return 1;
	return cgfs_rmdir(cg->uid_fd, name, 1000);
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
	rc = cg_leaf_remove(cg, cg_wait_ms);
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
