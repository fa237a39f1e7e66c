/* SPDX-License-Identifier: ISC */
/* cgfind: where the cgroup hierarchies are, and the plan's paths in them. */
#define _GNU_SOURCE
#include "cgplan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cgfs.h"
#include "diag.h"
#include "mountinfo.h"

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
	if (cg_set(cg, CGROUP_CPU_TOP, parent, NULL) < 0)
		return -1;
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
	cg_set(cg, CGROUP_CPU_TOP, "", NULL);
	cg_set(cg, CGROUP_CPU_UID, "", NULL);
	return cg_set(cg, CGROUP_LEAF_TOP, v2, "leash");
}

/* The tops, R of the cpu groups and of the leaves: from --cgroup-root,
 * or from what mountinfo found, by the mode. */
static int cg_locate_tops(struct cgroup_plan *cg,
			  const struct mountinfo_cgroups *m)
{
	const char *root = cg_root_option(cg);

	if (root) {
		if (cg_locate_root(cg, root) < 0)
			return -1;
		if (cg->mode == CGROUP_TRACK) {
			cg_set(cg, CGROUP_LEAF_TOP, cg->cpu_top, NULL);
			cg->version = 0;
			cg_set(cg, CGROUP_CPU_TOP, "", NULL);
		}
		return 0;
	}
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
		return cg_locate_leaf_only(cg, m->v2);
	}
	if (m->v2cpu || m->v1cpu[0]) {
		cg->version = m->v2cpu ? 2 : 1;
		return cg_set(cg, CGROUP_CPU_TOP, m->v2cpu ? m->v2 : m->v1cpu,
			      "leash");
	}
	return cg_fail_none(cg, m);
}

/* The uid groups under the tops; hybrid: the leaf's top in cgroup2. */
static int cg_locate_uids(struct cgroup_plan *cg,
			  const struct mountinfo_cgroups *m, uid_t uid)
{
	char name[32];

	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	if (cg->version && cg_set(cg, CGROUP_CPU_UID, cg->cpu_top, name) < 0)
		return -1;
	if (cg->version == 2) {
		cg_set(cg, CGROUP_LEAF_TOP, cg->cpu_top, NULL);
	} else if (cg->version == 1 && m->v2[0]) {
		/* Hybrid: track the launch in cgroup2, no controllers. */
		if (cg_set(cg, CGROUP_LEAF_TOP, m->v2, "leash") < 0)
			return -1;
	}
	if (cg->leaf_top[0] &&
	    cg_set(cg, CGROUP_LEAF_UID, cg->leaf_top, name) < 0)
		return -1;
	return 0;
}

/* Pick the hierarchies and compute every path (nothing is made yet). */
int cg_locate(struct cgroup_plan *cg, uid_t uid)
{
	struct mountinfo_cgroups m;

	if (mountinfo_cgroups(NULL, &m) < 0)
		return cg_fail(cg, errno, true, cg_hint(errno),
			       "cannot read /proc/self/mountinfo");
	if (cg_locate_tops(cg, &m) < 0)
		return -1;
	return cg_locate_uids(cg, &m, uid);
}

/* The usual places, where mountinfo (dear to read: tens of µs) would
 * find them: cgroup2 at /sys/fs/cgroup (unified, Android 12+),
 * .../unified (hybrid) or /dev/cg2_bpf (Android 10-11), the v1 cpu
 * hierarchy at /sys/fs/cgroup/cpu or /dev/cpuctl (Android).  In that
 * order: a Debian host's steady state never looks at Android's places.
 * A controller lives in one hierarchy only, so a uid group with
 * cpu.weight means cpu is on cgroup2, one with cpu.shares that it is on
 * v1. */
#define CG_COUNT(a) (sizeof a / sizeof *a)
static const char *const cg_v2_bases[] = {
	"/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/dev/cg2_bpf",
};
static const char *const cg_v1_bases[] = {
	"/sys/fs/cgroup/cpu", "/dev/cpuctl",
};

/* BASE/leash/NAME when it exists on a filesystem of MAGIC holding FILE
 * (NULL: any): its descriptor, with the paths TOP and DIR set (built in
 * place: no path on the stack); else -1. */
static int cg_fast_open(struct cgroup_plan *cg, const char *base,
			const char *name, long magic, const char *file,
			enum cgroup_path top, enum cgroup_path dir)
{
	struct statfs sf;
	int fd;

	if (cg_set(cg, top, base, "leash") < 0 ||
	    cg_set(cg, dir, cg->path[top], name) < 0)
		return -1;
	fd = cgfs_dir(AT_FDCWD, cg->path[dir]);
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
	cg_set(cg, CGROUP_CPU_TOP, cg->leaf_top, NULL);
	cg_set(cg, CGROUP_CPU_UID, cg->leaf_uid, NULL);
	return 0;
}

/* cpu on v1: a uid group with cpu.shares in one of the v1 places. */
static int cg_fast_v1cpu(struct cgroup_plan *cg, const char *name)
{
	for (size_t i = 0; i < CG_COUNT(cg_v1_bases) && cg->cpu_fd < 0; i++)
		cg->cpu_fd = cg_fast_open(cg, cg_v1_bases[i], name,
					  MOUNTINFO_CGROUP1_MAGIC, "cpu.shares",
					  CGROUP_CPU_TOP, CGROUP_CPU_UID);
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
					  CGROUP_LEAF_TOP, CGROUP_LEAF_UID);
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
