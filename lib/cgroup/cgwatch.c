/* SPDX-License-Identifier: ISC */
/* cgwatch: the uid groups for leash watch: where they are, and one
 * uid's, made as leash -u makes it but without a per-launch leaf. */
#define _GNU_SOURCE
#include "cgroup/cgroup.h"
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "cgroup/mountinfo.h"
#include "diag/diag.h"

/* DIR inside the hierarchy mounted at MOUNT ("/leash"), or NULL. */
static const char *cg_inside(const char *dir, const char *mount)
{
	size_t n = strlen(mount);

	if (!n || strncmp(dir, mount, n) != 0 || (dir[n] && dir[n] != '/'))
		return NULL;
	return dir[n] ? dir + n : "/";
}

int cgroup_watch_top(struct cgroup_plan *cg, struct cgroup_watch_top *t,
		     const char **what)
{
	struct mountinfo_cgroups m;
	const char *rel = NULL;

	cg_reset(cg);
	cg->mode = CGROUP_REQUIRE;
	memset(t, 0, sizeof *t);
	/* systemd already groups each uid's logins in user-N.slice, where
	 * -u's commands join them (cgsystemd.c); what else changes uid is
	 * a service's, its unit's to place.  Taking either would move
	 * processes between systemd's units, which it forbids. */
	if (cg_sd_owns_tree(cg)) {
		cg_fail(cg, 0, false, "give --cgroup-root to watch into a "
			"tree of your own", "systemd manages this host's "
			"cgroups and already groups each uid's logins in its "
			"user-N.slice");
		goto fail;
	}
	if (cg_weight_check(cg) < 0 || cg_find_tops(cg) < 0)
		goto fail;
	if (mountinfo_cgroups(NULL, &m) < 0) {
		cg_fail(cg, errno, false, NULL, "cannot read /proc/self/mountinfo");
		goto fail;
	}
	if (cg->version == 1)
		rel = cg_inside(cg->cpu_top, m.v1cpu);
	else if (cg->version == 2)
		rel = cg_inside(cg->cpu_top, m.v2);
	if (!rel) {
		cg_fail(cg, 0, false, "give --cgroup-root below the cpu "
			"hierarchy's mount", "%s is not below the mount of the "
			"cpu hierarchy", DIAG_QUOTE(cg->cpu_top));
		goto fail;
	}
	t->version = cg->version;
	t->hybrid = cg->version == 1 && m.v2[0];
	cgfs_join(t->rel, sizeof t->rel, rel, NULL);
	return 0;
fail:
	*what = cg->msg;
	return -1;
}

/* v2 keeps processes in leaves only: the watched ones in uid_<uid>/watch. */
static int cg_watch_dir(struct cgroup_plan *cg)
{
	int fd;

	if (cg->version == 1)
		return cg->cpu_fd;
	if (cgfs_mkdir(cg->uid_fd, "watch", NULL) < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			cg_hint(errno), "cannot create cgroup %s/watch",
			DIAG_QUOTE(cg->cpu_uid));
	fd = cgfs_dir(cg->uid_fd, "watch");
	if (fd < 0)
		return errno == ENOENT ? CG_AGAIN : -1;
	cg_close_fd(&cg->leaf_fd);
	cg->leaf_fd = fd;
	return fd;
}

static int cg_watch_build(struct cgroup_plan *cg, uid_t uid)
{
	if (cg_find_tops(cg) < 0 || cg_plan_uids(cg, uid) < 0)
		return -1;
	cg->leaf_top[0] = '\0';         /* no per-launch leaf */
	cg_weight_file(cg);
	for (int i = 0; i < CG_REMAKE_TRIES; i++) {
		int rc = cg_build_cpu(cg), dir = -1;

		if (rc == 0)
			rc = dir = cg_watch_dir(cg);
		if (dir >= 0)
			return dir;
		if (rc != CG_AGAIN)
			return -1;
		cg_close(cg);
	}
	return cg_fail(cg, ENOENT, false, "something keeps removing it",
		       "cannot create cgroup %s", DIAG_QUOTE(cg->cpu_uid));
}

int cgroup_watch_group(struct cgroup_plan *cg, uid_t uid, int *procs,
		       const char **what)
{
	int dir;

	cg_reset(cg);
	cg->mode = CGROUP_REQUIRE;
	*procs = -1;
	dir = cg_watch_build(cg, uid);
	if (dir >= 0) {
		*procs = cgfs_open(dir, "cgroup.procs", O_WRONLY);
		if (*procs < 0)
			cg_fail(cg, errno, false, NULL, "cannot open %s/%s"
				"cgroup.procs", cg->cpu_uid,
				cg->version == 2 ? "watch/" : "");
		else
			cg_note(cg, "cgroup v%d: %s %s%s", cg->version,
				cg->created ? "created" : "joined", cg->cpu_uid,
				cg->version == 2 ? "/watch" : "");
	}
	cg_close(cg);
	if (*procs < 0)
		*what = cg->msg;
	return *procs < 0 ? -1 : 0;
}
