/* SPDX-License-Identifier: ISC */
/* cgplan: the plan under the tops found: the uid groups' paths, the
 * weight to write, and the reset that forgets them. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The descriptors are not closed: the plan starts zeroed, and 0 is
 * stdin.  msg is left: it is read only after cg_fail filled it. */
void cg_reset(struct cgroup_plan *cg)
{
	cg->active = cg->created = false;
	cg->soft = false;
	cg->sd = CGROUP_SD_NONE;
	cg->scope_made = false;
	cg->no_outer = false;
	cg->unit[0] = '\0';
	cg->version = 0;
	cg->hint_at = 0;
	cg->wait_ms = 0;
	cg->cpu_fd = cg->uid_fd = cg->leaf_fd = -1;
	cg->leaf_top[0] = cg->leaf_uid[0] = '\0';
	cg->cpu_top[0] = cg->cpu_uid[0] = cg->leaf[0] = '\0';
	cg->wfile[0] = cg->wvalue[0] = '\0';
}

int cg_weight_check(struct cgroup_plan *cg)
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

/* v1 gets the kernel's own conversion, shares = round(weight * 1024 /
 * 100). */
void cg_weight_file(struct cgroup_plan *cg)
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

int cg_plan_uids(struct cgroup_plan *cg, uid_t uid)
{
	char name[32];

	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	if (cg->version && cg_path(cg, cg->cpu_uid, cg->cpu_top, name) < 0)
		return -1;
	if (cg->leaf_top[0] &&
	    cg_path(cg, cg->leaf_uid, cg->leaf_top, name) < 0)
		return -1;
	return 0;
}

/* R is the leaves' top already (v2): its uid group stays the leaf's. */
void cg_plan_leaf_only(struct cgroup_plan *cg)
{
	cg_note(cg, "cgroup: tracking leaf only: %.*s", cg->hint_at, cg->msg);
	cg->version = 0;
	cg->wfile[0] = '\0';
	cg_path(cg, cg->leaf_uid, cg->cpu_uid, NULL);
	cg->cpu_top[0] = cg->cpu_uid[0] = '\0';
}
