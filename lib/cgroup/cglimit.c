/* SPDX-License-Identifier: ISC */
/* cglimit: the limits on the leaf (limit.h's rows: memory.max, pids.max,
 * cpu.max), with their controllers enabled down leash's own path.
 * Between cgplan and cgbuild: cgroup_prepare applies them to the leaf it
 * made, before any process is in it (what the leaf measured: leaf.c). */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgfs.h"
#include "sys/sys.h"
#include "diag/diag.h"
#include "cgroup/mountinfo.h"

const char *cgroup_limit_option(const struct cgroup_plan *cg)
{
	for (int i = 0; i < CGROUP_NLIMITS; i++)
		if (cg->limits[i][0])
			return limit_rows[i].option;
	return NULL;
}

static bool cg_has(int at, const char *file, const char *ctl)
{
	char buf[512];

	return readfile_at(at, file, buf, sizeof buf) >= 0 &&
	       mountinfo_has_token(buf, ' ', ctl);
}

/* Does DIR/FILE list CTL?  False too for a path that does not fit. */
static bool cg_dir_has(const char *dir, const char *file, const char *ctl)
{
	char path[CGROUP_PATH_MAX + 32];

	return cgfs_join(path, sizeof path, dir, file) == 0 &&
	       cg_has(AT_FDCWD, path, ctl);
}

/* Why cgroup2 at DIR's mount has no CTL: the root (the first group up
 * without cgroup.type) lacks it, and /proc/cgroups says where it is. */
static const char *cg_why_absent(const char *dir, const char *ctl,
				 char *hint, size_t size)
{
	char path[CGROUP_PATH_MAX], buf[2048];
	char *slash;

	snprintf(path, sizeof path, "%s", dir);
	for (;;) {
		char type[CGROUP_PATH_MAX + 16];
		if (cgfs_join(type, sizeof type, path, "cgroup.type") < 0 ||
		    cgfs_exists(AT_FDCWD, type) < 0 ||
		    !(slash = strrchr(path, '/')) || slash == path)
			break;
		*slash = '\0';
	}
	if (cg_dir_has(path, "cgroup.controllers", ctl))
		return NULL;    /* there, only not passed down to DIR */
	snprintf(hint, size, "not in this kernel");
	/* "name hierarchy num_cgroups enabled" lines; no stdio, no scanf
	 * (they would double this file's share of the binary). */
	if (readfile_at(AT_FDCWD, "/proc/cgroups", buf, sizeof buf) <= 0)
		return hint;
	for (char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		size_t n = strlen(ctl);
		char *end;
		long hier, on;
		if (strncmp(l, ctl, n) || (l[n] != '\t' && l[n] != ' '))
			continue;
		hier = strtol(l + n, &end, 10);
		strtol(end, &end, 10);
		on = strtol(end, &end, 10);
		if (!on)
			snprintf(hint, size, "disabled on the kernel command line");
		else if (hier)
			snprintf(hint, size, "hybrid hierarchy: %s is on cgroup v1",
				 ctl);
		else
			snprintf(hint, size, "not enabled in the root's "
				 "cgroup.subtree_control");
		break;
	}
	return hint;
}

/* CTL in DIR's cgroup.subtree_control, DIR being leash's: R or below. */
static int cg_enable_in(struct cgroup_plan *cg, const struct limit_row *l,
			const char *dir)
{
	char plus[24];
	int fd = cgfs_dir(AT_FDCWD, dir), rc = 0;

	if (fd < 0)
		return cg_fail(cg, errno, false, NULL, "%s: cannot open cgroup "
			       "%s", l->option, DIAG_QUOTE(dir));
	if (!cg_has(fd, "cgroup.subtree_control", l->controller)) {
		snprintf(plus, sizeof plus, "+%s", l->controller);
		if (cgfs_write(fd, "cgroup.subtree_control", plus) < 0)
			rc = cg_fail(cg, errno, false, errno == EBUSY ?
				"it holds processes, as the leaf of an outer "
				"leash does" : cg_hint(errno), "%s: cannot "
				"enable %s in %s/cgroup.subtree_control",
				l->option, l->controller, dir);
	}
	close(fd);
	return rc;
}

/* The controller reaches the leaf: R must have it from above (leash
 * writes nothing above R), then each group from R down to the leaf's
 * parent passes it on.  A controller enabled here stays: it is leash's
 * own path, and the next launch needs it too. */
static int cg_reach(struct cgroup_plan *cg, const struct limit_row *l)
{
	char dir[CGROUP_PATH_MAX], hint[96];
	const char *top = cg->leaf_top, *rest = cg->leaf_uid + strlen(top);
	const char *why;

	if (cg_has(cg->leaf_fd, "cgroup.controllers", l->controller))
		return 0;
	if (strncmp(cg->leaf_uid, top, strlen(top)) || (*rest && *rest != '/'))
		return cg_fail(cg, 0, false, NULL, "%s: leaf %s is not under "
			       "%s", l->option, cg->leaf, top);
	if (!cg_dir_has(top, "cgroup.controllers", l->controller)) {
		if ((why = cg_why_absent(top, l->controller, hint, sizeof hint)))
			return cg_fail(cg, 0, false, why, "%s: the %s controller "
				       "is not available in cgroup2 here",
				       l->option, l->controller);
		return cg_fail(cg, 0, false, "enable it in the parent's "
			       "cgroup.subtree_control or delegate it",
			       "%s: the %s controller is not enabled for %s",
			       l->option, l->controller, DIAG_QUOTE(top));
	}
	snprintf(dir, sizeof dir, "%s", top);
	for (;;) {
		if (cg_enable_in(cg, l, dir) < 0)
			return -1;
		if (!*rest)
			return 0;
		size_t n = strcspn(rest + 1, "/") + 1;
		size_t len = strlen(dir);
		snprintf(dir + len, sizeof dir - len, "%.*s", (int)n, rest);
		rest += n;
	}
}

/* Every limit given, on the leaf just made (nothing in it yet). */
int cg_limit_apply(struct cgroup_plan *cg)
{
	for (int i = 0; i < CGROUP_NLIMITS; i++) {
		const struct limit_row *l = &limit_rows[i];
		const char *v = cg->limits[i];

		if (!*v)
			continue;
		if (!cg->leaf[0] || cg->leaf_fd < 0)
			return cg_fail(cg, 0, false, "a limit needs a per-launch "
				       "leaf in cgroup2", "%s: no cgroup2 "
				       "mount here", l->option);
		if (cg_reach(cg, l) < 0)
			return -1;
		if (cgfs_write(cg->leaf_fd, l->file, v) < 0)
			return cg_fail(cg, errno, false, NULL, "%s: cannot set "
				       "%s/%s to %s", l->option, cg->leaf,
				       l->file, v);
		cg_note(cg, "cgroup: %s %s", l->file, v);
	}
	return 0;
}
