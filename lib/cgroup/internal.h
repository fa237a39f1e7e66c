/* SPDX-License-Identifier: ISC */
/* cgroup/internal.h: the internals the cgroup files share, private to them; the
 * rest of leash sees cgroup.h only.  The files in the order a launch
 * goes through them, each calling only those before it:
 *   cgfs.c       primitives on cgroupfs files (no plan)
 *   cgmsg.c      the plan's words: -v notes, the failure line and hint
 *   cgfind.c     discovery: where the hierarchies are
 *   cgsystemd.c  discovery on a systemd host: the unit or the uid's
 *                scope (sdbus.c: the one D-Bus call that makes it)
 *   cgplan.c     plan: the paths under them, the weight, the reset
 *   cglimit.c    limits: the controllers down to the leaf, its values,
 *                what it measured
 *   cgbuild.c    build: the groups and the leaf (cgroup_prepare)
 *   cgwatch.c    leash watch's uid groups: build without a leaf
 *   cgjoin.c     join: the child's, the clone3 birth leaf, a refusal
 *   leaf.c       the leaf while it lives: hold, count, populated, usage
 *   cgrelease.c  release: signal, freeze, kill, remove, sweep */
#ifndef LEASH_CGROUP_INTERNAL_H
#define LEASH_CGROUP_INTERNAL_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cgroup/cgroup.h"

/* Leaf names tried when one is taken (a suffix each time). */
#define CG_NAME_TRIES 8
/* Bound of the "removed under us, make it again" loops (the parent's
 * build, the child's join): each round is a few system calls, and a
 * preempted launch can lose many rounds in a row to a remover. */
#define CG_REMAKE_TRIES 32
/* Returned by build steps when a parent vanished: start over. */
#define CG_AGAIN (-2)
/* cgroup2 R without cpu for its children (cg->msg says so). */
#define CG_NOCPU (-3)

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

/* The uid group holding the weight: v1's cpu group, else cgroup2's. */
static inline int cg_weight_fd(const struct cgroup_plan *cg)
{
	return cg->version == 1 ? cg->cpu_fd : cg->uid_fd;
}

/* cgmsg.c */
/* -v lines (nothing unless cg->verbose). */
void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fill cg->msg: TEXT[: strerror(ERR)][ (HINT)]; -1 with errno = ERR. */
int cg_fail(struct cgroup_plan *cg, int err, bool soft, const char *hint,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The hint for a failed mkdir or write with ERR. */
const char *cg_hint(int err);
/* Read-only, not ours, refused: auto mode may run without a group. */
bool cg_soft_errno(int err);
/* cg_fail for a mkdir of DIR that failed with errno. */
int cg_fail_mkdir(struct cgroup_plan *cg, const char *dir);
/* DST (CGROUP_PATH_MAX bytes, neither A nor B) := A[/B], or fail with a
 * message. */
int cg_path(struct cgroup_plan *cg, char *dst, const char *a, const char *b);

/* cgfind.c: the tops of the uid groups (version, cpu_top, leaf_top),
 * from --cgroup-root or mountinfo; or, without mountinfo, the uid group
 * NAME where it usually is, opened with its paths set (0), or 1 when
 * the full search must run. */
int cg_find_tops(struct cgroup_plan *cg);
int cg_fast_find(struct cgroup_plan *cg, const char *name);
/* Our own cgroup2 group, when it is a leaf of leash's under LEAF_TOP
 * (.../uid_<uid>/run_..., at any depth): its path into OUT (SIZE bytes),
 * 0; -1 when we are in no leaf of leash's. */
int cg_find_own_leaf(const char *leaf_top, char *out, size_t size);
/* Our own cgroup2 group as /proc/self/cgroup says it (relative to the
 * mount): 0, or -1 (no procfs, no cgroup2 line, longer than SIZE). */
int cg_self_path(char *out, size_t size);
/* Where in PATH a leaf of leash's begins ("/uid_<digits>/run_"), or NULL. */
const char *cg_leaf_in(const char *path);

/* cgsystemd.c: on a systemd host, where the groups go (cg->sd, unit,
 * the tops and uid groups planned): 0; 1 off systemd (or under
 * --cgroup-root): the usual places; 2 no group at all (a unit that is
 * not delegated; said to note); -1 with cg->msg.  cg_sd_scope: uid
 * UID's scope made when systemd has none (D-Bus), its keeper in keep/. */
int cg_systemd(struct cgroup_plan *cg, uid_t uid);
int cg_sd_scope(struct cgroup_plan *cg, uid_t uid);
/* /sys/fs/cgroup is systemd's unified tree; false: said to note. */
bool cg_sd_unified(struct cgroup_plan *cg);
/* systemd booted, its unified tree, and no --cgroup-root: a tree where
 * leash writes only where systemd delegated. */
bool cg_sd_owns_tree(struct cgroup_plan *cg);

/* cgplan.c */
/* Forget everything but the options (the descriptors are not ours to
 * close yet). */
void cg_reset(struct cgroup_plan *cg);
/* --cpu-weight against the mode and its range, before anything is made. */
int cg_weight_check(struct cgroup_plan *cg);
/* The weight's file and value for the hierarchy found. */
void cg_weight_file(struct cgroup_plan *cg);
/* The uid groups' paths under the tops. */
int cg_plan_uids(struct cgroup_plan *cg, uid_t uid);
/* Auto, cgroup2 R without cpu: a tracking leaf in R instead. */
void cg_plan_leaf_only(struct cgroup_plan *cg);

/* leaf.c: hold the leaf at LEAF still (our leaf, or the one a child made
 * again under its name): 1 frozen by this call, 0 held already, -1. */
int cg_hold_fd(int leaf);
void cg_unhold_fd(int leaf, int hold);
/* cglimit.c: the limits given, on the new leaf; -1 with cg->msg. */
int cg_limit_apply(struct cgroup_plan *cg);

/* cgbuild.c: a new leaf under cg->uid_fd, opened into cg->leaf_fd;
 * the cpu hierarchy's uid group with its weight (CG_AGAIN: start over). */
int cg_make_leaf(struct cgroup_plan *cg);
int cg_build_cpu(struct cgroup_plan *cg);

#endif
