/* SPDX-License-Identifier: ISC */
/* cgfind: where the cgroup hierarchies are: the tops of the uid groups. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "sys/sys.h"
#include "diag/diag.h"
#include "cgroup/mountinfo.h"

/* --cgroup-root DIR: the hierarchy is whatever DIR (or its parent, when
 * DIR is still to be made) lives on. */
static int cg_find_root(struct cgroup_plan *cg, const char *root)
{
	char parent[PATH_MAX], *slash;
	const char *probe = root;
	long magic;

	if (cg_path(cg, parent, root, NULL) < 0)
		return -1;
	while ((slash = strrchr(parent, '/')) && slash > parent && !slash[1])
		*slash = '\0';  /* trailing slashes */
	cg_path(cg, cg->cpu_top, parent, NULL);
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
			       "cpu controller's hierarchy", DIAG_QUOTE(root));
	}
	return cg_fail(cg, magic < 0 ? errno : 0, false, NULL,
		       "--cgroup-root %s is not on a cgroup%s filesystem",
		       DIAG_QUOTE(root), cg->mode == CGROUP_TRACK ? "2" : "");
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

/* The leaves' top beside a cpu top: v2 keeps them under the same R; v1,
 * where cgroup2 is mounted too (a hybrid host), in <cgroup2>/leash. */
static int cg_find_leaf_top(struct cgroup_plan *cg,
			    const struct mountinfo_cgroups *m)
{
	if (cg->version == 2)
		return cg_path(cg, cg->leaf_top, cg->cpu_top, NULL);
	return m->v2[0] ? cg_path(cg, cg->leaf_top, m->v2, "leash") : 0;
}

/* The tops under --cgroup-root: R itself, for the cpu groups or (track)
 * for the leaves alone. */
static int cg_find_root_tops(struct cgroup_plan *cg, const char *root,
			     const struct mountinfo_cgroups *m)
{
	if (cg_find_root(cg, root) < 0)
		return -1;
	if (cg->mode != CGROUP_TRACK)
		return cg_find_leaf_top(cg, m);
	cg->version = 0;
	cg_path(cg, cg->leaf_top, cg->cpu_top, NULL);
	cg->cpu_top[0] = '\0';
	return 0;
}

/* The tops from what mountinfo found, by the mode: the cpu hierarchy's
 * (cgroup2's first), or only a leaf in <cgroup2>/leash (--cgroup=track,
 * or auto where no hierarchy has cpu: the reason, in cg->msg, goes to
 * -v). */
static int cg_find_mount_tops(struct cgroup_plan *cg,
			      const struct mountinfo_cgroups *m)
{
	if (cg->mode == CGROUP_TRACK ||
	    (!m->v2cpu && !m->v1cpu[0] && m->v2[0] &&
	     cg->mode == CGROUP_AUTO)) {
		if (!m->v2[0])
			return cg_fail_none(cg, m);
		if (cg->mode == CGROUP_AUTO) {
			cg_fail_none(cg, m);
			cg_note(cg, "cgroup: tracking leaf only: %.*s",
				cg->hint_at, cg->msg);
		}
		cg->version = 0;
		return cg_path(cg, cg->leaf_top, m->v2, "leash");
	}
	if (!m->v2cpu && !m->v1cpu[0])
		return cg_fail_none(cg, m);
	cg->version = m->v2cpu ? 2 : 1;
	if (cg_path(cg, cg->cpu_top, m->v2cpu ? m->v2 : m->v1cpu, "leash") < 0)
		return -1;
	return cg_find_leaf_top(cg, m);
}

/* mountinfo also under --cgroup-root: a v1 root's leaves go to cgroup2. */
int cg_find_tops(struct cgroup_plan *cg)
{
	struct mountinfo_cgroups m;
	const char *root = cg_root_option(cg);

	if (mountinfo_cgroups(NULL, &m) < 0)
		return cg_fail(cg, errno, true, cg_hint(errno),
			       "cannot read /proc/self/mountinfo");
	if (root)
		return cg_find_root_tops(cg, root, &m);
	return cg_find_mount_tops(cg, &m);
}

/* The usual places, where mountinfo (dear to read: tens of µs) would
 * find them: cgroup2 at /sys/fs/cgroup (unified, Android 12+),
 * .../unified (hybrid) or /dev/cg2_bpf (Android 10-11), the v1 cpu
 * hierarchy at /sys/fs/cgroup/cpu,cpuacct (systemd's, where cpu is a
 * link to it: by that name, mountinfo's, the paths are the full
 * search's), /sys/fs/cgroup/cpu or /dev/cpuctl (Android).  In that
 * order: a Debian host's steady state never looks at Android's places.
 * A controller lives in one hierarchy only, so a uid group with
 * cpu.weight means cpu is on cgroup2, one with cpu.shares that it is on
 * v1. */
#define CG_COUNT(a) (sizeof a / sizeof *a)
static const char *const cg_v2_bases[] = {
	"/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/dev/cg2_bpf",
};
static const char *const cg_v1_bases[] = {
	"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu", "/dev/cpuctl",
};

/* BASE/leash/NAME when it exists on a filesystem of MAGIC holding FILE
 * (NULL: any): its descriptor, with the paths TOP and DIR set; else -1. */
static int cg_fast_open(struct cgroup_plan *cg, const char *base,
			const char *name, long magic, const char *file,
			char *top, char *dir)
{
	struct statfs sf;
	int fd;

	if (cg_path(cg, top, base, "leash") < 0 ||
	    cg_path(cg, dir, top, name) < 0)
		return -1;
	fd = cgfs_dir(AT_FDCWD, dir);
	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sf) == 0 && (long)sf.f_type == magic &&
	    (!file || cgfs_exists(fd, file) == 0))
		return fd;
	close(fd);
	return -1;
}

/* cpu on cgroup2: the uid group found there has cpu.weight. */
static int cg_fast_v2cpu(struct cgroup_plan *cg)
{
	if (cgfs_exists(cg->uid_fd, "cpu.weight") < 0)
		return -1;
	cg->version = 2;
	cg_path(cg, cg->cpu_top, cg->leaf_top, NULL);
	cg_path(cg, cg->cpu_uid, cg->leaf_uid, NULL);
	return 0;
}

/* cpu on v1: a uid group with cpu.shares in one of the v1 places. */
static int cg_fast_v1cpu(struct cgroup_plan *cg, const char *name)
{
	for (size_t i = 0; i < CG_COUNT(cg_v1_bases) && cg->cpu_fd < 0; i++)
		cg->cpu_fd = cg_fast_open(cg, cg_v1_bases[i], name,
					  MOUNTINFO_CGROUP1_MAGIC, "cpu.shares",
					  cg->cpu_top, cg->cpu_uid);
	if (cg->cpu_fd < 0)
		return -1;
	cg->version = 1;
	return 0;
}

/* The steady state without mountinfo: the uid groups exist (only the
 * first launch of a uid makes them) in the usual places.  0 when the
 * groups are open and cg is filled, 1 when the full search must run.
 * Where cgroup2 is /sys/fs/cgroup itself (unified: Debian 12, Android
 * 12+), cpu is looked for there first; elsewhere (hybrid, Android
 * 10-11) on v1 first, where those layouts keep it: a name that is not
 * in a uid group is a full kernfs lookup each time (its parent changes
 * with every leaf, and that voids the cached miss). */
int cg_fast_find(struct cgroup_plan *cg, const char *name)
{
	size_t i;
	bool unified;

	for (i = 0; i < CG_COUNT(cg_v2_bases) && cg->uid_fd < 0; i++)
		cg->uid_fd = cg_fast_open(cg, cg_v2_bases[i], name,
					  MOUNTINFO_CGROUP2_MAGIC, NULL,
					  cg->leaf_top, cg->leaf_uid);
	if (cg->uid_fd < 0)
		return 1;
	if (cg->mode == CGROUP_TRACK)
		return 0;
	unified = i == 1;       /* found at cg_v2_bases[0] */
	if (unified && cg_fast_v2cpu(cg) == 0)
		return 0;
	if (cg_fast_v1cpu(cg, name) == 0)
		return 0;
	return !unified && cg_fast_v2cpu(cg) == 0 ? 0 : 1;
}

/* "/uid_<digits>/run_" at P: a leaf of leash's begins there. */
static bool cg_leaf_at(const char *p)
{
	size_t digits;

	if (strncmp(p, "/uid_", 5) != 0)
		return false;
	digits = strspn(p + 5, "0123456789");
	return digits && strncmp(p + 5 + digits, "/run_", 5) == 0;
}

int cg_self_path(char *out, size_t size)
{
	char buf[1024];
	const char *path;
	size_t len;

	if (readfile_at(AT_FDCWD, "/proc/self/cgroup", buf, sizeof buf) <= 0)
		return -1;
	/* cgroup2's line, "0::PATH", first on a pure host, last on a
	 * hybrid one. */
	path = strncmp(buf, "0::", 3) == 0 ? buf : strstr(buf, "\n0::");
	if (!path)
		return -1;
	path += path == buf ? 3 : 4;
	len = strcspn(path, "\n");
	if (len >= size)
		return -1;
	memcpy(out, path, len);
	out[len] = '\0';
	return 0;
}

const char *cg_leaf_in(const char *path)
{
	const char *at;

	for (at = strchr(path, '/'); at && !cg_leaf_at(at); at = strchr(at + 1, '/'))
		;
	return at;
}

int cg_find_own_leaf(const char *leaf_top, char *out, size_t size)
{
	char path[1024];
	const char *at;
	size_t top = strlen(leaf_top), pre;

	if (cg_self_path(path, sizeof path) < 0)
		return -1;
	at = cg_leaf_in(path);
	/* PATH is relative to the mount, LEAF_TOP absolute: the part of
	 * PATH before the uid group must be LEAF_TOP's end. */
	pre = at ? (size_t)(at - path) : 0;
	if (!at || pre > top || strncmp(leaf_top + top - pre, path, pre) != 0)
		return -1;
	if (top - pre + strlen(path) >= size)
		return -1;
	memcpy(out, leaf_top, top - pre);
	strcpy(out + top - pre, path);
	return 0;
}
