/* SPDX-License-Identifier: ISC */
/* leaf: the per-launch leaf as the rest of leash sees it while the
 * command runs and after: held still, counted, walked, measured. */
#include "cgroup/internal.h"

#include <errno.h>
#include <stdlib.h>

#include "cgroup/cgfs.h"

/* A frozen leaf cannot fork, and its members cannot exit and free their
 * pids while we walk cgroup.procs.  The kernel's own cgroup.freeze says
 * whether a hold is already in place (only root writes it, and only
 * leash's holds do), so a hold inside another, such as a signal sent
 * while the job is suspended, leaves the thaw to the outer one. */
int cg_hold_fd(int leaf)
{
	if (cgfs_number(leaf, "cgroup.freeze") == 1)
		return 0;
	if (cgfs_write(leaf, "cgroup.freeze", "1") < 0)
		return -1;
	/* A member stuck in the kernel may delay the freeze: the wait is
	 * bounded, and we go on anyway. */
	cgfs_wait_event(leaf, "frozen", 1, 100);
	return 1;
}

void cg_unhold_fd(int leaf, int hold)
{
	if (hold == 1)
		cgfs_write(leaf, "cgroup.freeze", "0");
}

bool cgroup_has_leaf(const struct cgroup_plan *cg)
{
	return cg->active && cg->leaf[0] && cg->leaf_fd >= 0;
}

int cgroup_hold(const struct cgroup_plan *cg)
{
	if (!cgroup_has_leaf(cg))
		return errno = ENOENT, -1;
	return cg_hold_fd(cg->leaf_fd);
}

void cgroup_unhold(const struct cgroup_plan *cg, int hold)
{
	if (cgroup_has_leaf(cg))
		cg_unhold_fd(cg->leaf_fd, hold);
}

int cgroup_each_pid(const struct cgroup_plan *cg, void (*fn)(pid_t, void *),
		    void *arg)
{
	if (!cgroup_has_leaf(cg))
		return errno = ENOENT, -1;
	return cgfs_each_pid(cg->leaf_fd, fn, arg);
}

int cgroup_populated(const struct cgroup_plan *cg)
{
	if (!cgroup_has_leaf(cg))
		return errno = ENOENT, -1;
	return (int)cgfs_key(cg->leaf_fd, "cgroup.events", "populated");
}

int cgroup_wait_empty(const struct cgroup_plan *cg, int ms)
{
	if (!cgroup_has_leaf(cg))
		return errno = ENOENT, -1;
	return cgfs_wait_event(cg->leaf_fd, "populated", 0, ms);
}

long long cgroup_cpu_usec(const struct cgroup_plan *cg)
{
	if (!cgroup_has_leaf(cg))
		return errno = ENOENT, -1;
	return cgfs_key(cg->leaf_fd, "cpu.stat", "usage_usec");
}

void cgroup_usage(const struct cgroup_plan *cg, struct cgroup_usage *u)
{
	int fd = cg->leaf[0] ? cg->leaf_fd : -1;

	u->memory_peak = u->oom_kills = u->pids_peak = u->throttled_us = -1;
	u->user_us = u->system_us = -1;
	if (fd < 0)
		return;
	u->memory_peak = cgfs_number(fd, "memory.peak");
	u->oom_kills = cgfs_key(fd, "memory.events", "oom_kill");
	u->pids_peak = cgfs_number(fd, "pids.peak");
	u->throttled_us = cgfs_key(fd, "cpu.stat", "throttled_usec");
	u->user_us = cgfs_key(fd, "cpu.stat", "user_usec");
	u->system_us = cgfs_key(fd, "cpu.stat", "system_usec");
}
