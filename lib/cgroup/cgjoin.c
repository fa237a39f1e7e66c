/* SPDX-License-Identifier: ISC */
/* cgjoin: the child's join of its groups, the birth leaf of clone3, and
 * what the parent makes of a join that failed. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "diag/diag.h"

/* Write VAL to DIR/FILE by path (async-signal-safe). */
static int cg_write_path(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	if (cgfs_join(path, sizeof path, dir, file) < 0)
		return -1;
	return cgfs_write(AT_FDCWD, path, val);
}

/* Make the cpu (or LEAF_CHAIN: the cgroup2) chain again after another
 * process removed it under us: the one place where paths are resolved
 * again.  The leaf must be made by this call (a directory of its name
 * made by someone else is not ours). */
static int cg_rebuild_chain(const struct cgroup_plan *cg, bool leaf_chain)
{
	const char *top = leaf_chain ? cg->leaf_top : cg->cpu_top;
	const char *uid = leaf_chain ? cg->leaf_uid : cg->cpu_uid;

	/* On a systemd host the top is systemd's (a scope, a unit):
	 * never ours to make again. */
	if (cg->sd != CGROUP_SD_NONE ? cgfs_exists(AT_FDCWD, top) < 0 :
	    cgfs_mkdir(AT_FDCWD, top, NULL) < 0)
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
	for (int i = 0; i < CG_REMAKE_TRIES; i++) {
		if ((i == 0 && fd >= 0 ? cgfs_write(fd, file, "0") :
		     cg_write_path(dir, file, "0")) == 0)
			return 0;
		if (errno != ENOENT && errno != ENODEV)
			return -1;
		/* A leaf made again here would lack its limits: fail whole. */
		if (leaf_chain && cgroup_limited(cg))
			return errno = ENOENT, -1;
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
	/* The limits again, on the new leaf, before anything is in it. */
	if (rc == 0 && cgroup_limited(cg) && cg_limit_apply(cg) < 0) {
		unlinkat(cg->uid_fd, cg_leaf_name(cg), AT_REMOVEDIR);
		rc = -1;
	}
	/* Not made here: the path stays, so the forked child's join makes
	 * it again (with its own bounded retries; never when limited) or
	 * fails the launch, 125; never a command silently outside its leaf
	 * or its limits. */
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
		DIAG_QUOTE(path));
	return cg->msg;
}

bool cgroup_join_refused(struct cgroup_plan *cg, int step, int err)
{
	if (cg->mode != CGROUP_AUTO || !cg_soft_errno(err) ||
	    cgroup_limited(cg))
		return false;
	cgroup_join_error(cg, step, err);
	cg_note(cg, "running without a cgroup: %.*s", cg->hint_at, cg->msg);
	cg_reset(cg);
	cg->mode = CGROUP_OFF;
	return true;
}
