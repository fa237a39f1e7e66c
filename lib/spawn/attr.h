/* SPDX-License-Identifier: ISC */
/* attr: libleash's attributes object (leash.h) is a spawn plan with the
 * strings and lists it points to, owned by it. */
#ifndef LEASH_ATTR_H
#define LEASH_ATTR_H

#include "spawn/plan.h"

struct leash_attr {
	struct plan plan;       /* a host's defaults (attr.c), then setters */
	unsigned flags;         /* LEASH_* of leash_attr_set_flags */
	gid_t *groups;          /* plan.id.groups points here */
	char *cwd;              /* plan.chdir */
	char *root;             /* plan.cg.root */
};

/* The plan a host's run starts from: no deadline, the caller's ids, no
 * cgroup, no word printed, the child leading its own group.  PLAN is
 * zeroed memory (calloc): only what is not zero is set. */
void attr_plan_defaults(struct plan *plan);

/* A run's copy of an attr's plan, into zeroed memory (DST: calloc).  The
 * cgroup paths (24 KiB of the 26) are "" in any attr, and only written
 * by a run that makes a group: left out of the copy, they stay zero, ""
 * without a write, so a run without a group never touches their six
 * pages (a fault each, in a host whose malloc maps the run afresh). */
void attr_plan_copy(struct plan *dst, const struct plan *src);

#endif
