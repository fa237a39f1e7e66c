/* SPDX-License-Identifier: ISC */
/* cgplan: the internals the cgroup files share, private to them. */
/* cgroup.c prepares (builds the groups), cgfind.c discovers, cgjoin.c
 * joins, cgrelease.c signals and removes; the rest of leash sees
 * cgroup.h only. */
#ifndef LEASH_CGPLAN_H
#define LEASH_CGPLAN_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cgroup.h"

/* Bounds for "removed under us, make it again" loops; the child's is
 * larger since a preempted child can lose the race several times. */
#define CG_RETRIES 8
#define CG_JOIN_RETRIES 32
/* Returned by build steps when a parent vanished: start over. */
#define CG_AGAIN (-2)
/* cgroup2 R without cpu for its children (cg->msg says so). */
#define CG_NOCPU (-3)

/* -v lines (nothing unless cg->verbose). */
void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fill cg->msg: TEXT[: strerror(ERR)][ (HINT)]; -1 with errno = ERR. */
int cg_fail(struct cgroup_plan *cg, int err, bool soft, const char *hint,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The hint for a failed mkdir or write with ERR. */
const char *cg_hint(int err);
/* Copy A[/B] into DST (CGROUP_PATH_MAX) or fail with a message. */
int cg_path(struct cgroup_plan *cg, char *dst, const char *a, const char *b);
/* The plan's path ID := A[/B] ("" with B NULL: unused), or fail with a
 * message.  A and B may be the plan's other paths (not ID itself).  It
 * cannot fail for a copy of another path or for "": callers need not
 * check those.  The only writer of the paths; cg_paths_clear makes all
 * five "". */
int cg_set(struct cgroup_plan *cg, enum cgroup_path id, const char *a,
	   const char *b);
void cg_paths_clear(struct cgroup_plan *cg);

/* The last component of our leaf's path. */
static inline const char *cg_leaf_name(const struct cgroup_plan *cg)
{
	const char *slash = strrchr(cg->leaf, '/');

	return slash ? slash + 1 : cg->leaf;
}

static inline void cg_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static inline void cg_close(struct cgroup_plan *cg)
{
	cg_close_fd(&cg->cpu_fd);
	cg_close_fd(&cg->uid_fd);
	cg_close_fd(&cg->leaf_fd);
}

/* cmd/ puts LEASH_CGROUP_ROOT there too. */
static inline const char *cg_root_option(const struct cgroup_plan *cg)
{
	return cg->root && *cg->root ? cg->root : NULL;
}

/* cgfind.c: the hierarchies and every path of the plan (nothing is made
 * yet); the steady state's uid groups, opened without mountinfo (0), or
 * 1 when the full search must run. */
int cg_locate(struct cgroup_plan *cg, uid_t uid);
int cg_fast_find(struct cgroup_plan *cg, const char *name);

/* cgroup.c: a new leaf under cg->uid_fd, opened into cg->leaf_fd. */
int cg_make_leaf(struct cgroup_plan *cg);
/* cgjoin.c: remake the cpu (or LEAF_CHAIN: the cgroup2) chain by path. */
int cg_rebuild_chain(const struct cgroup_plan *cg, bool leaf_chain);

#endif
