/* SPDX-License-Identifier: ISC */
/* attr: leash_attr_*, the setters that grow a host's spawn plan. */
#define _GNU_SOURCE
#include "spawn/attr.h"

#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "leash.h"

/* Where the cgroup paths lie in a plan: from leaf_top to msg's end. */
#define PATHS_AT offsetof(struct plan, cg.leaf_top)
#define PATHS_END (offsetof(struct plan, cg.msg) + CGROUP_PATH_MAX + 256)

void attr_plan_copy(struct plan *dst, const struct plan *src)
{
	memcpy(dst, src, PATHS_AT);
	memcpy((char *)dst + PATHS_END, (const char *)src + PATHS_END,
	       sizeof *dst - PATHS_END);
}

void attr_plan_defaults(struct plan *plan)
{
	plan->term_signal = SIGTERM;
	plan->pdeath_signal = 0;        /* it follows the forking thread */
	plan->own_group = true;
	plan->in_host = true;
	plan->exec_direct = true;
	plan->account = true;
	plan->signal_as_status = true;
	plan->cg.mode = CGROUP_OFF;
	sigemptyset(&plan->end_signals);
}

unsigned leash_version(void)
{
	return LEASH_API_VERSION;
}

int leash_attr_init(leash_attr_t **attr)
{
	struct leash_attr *a = calloc(1, sizeof *a);

	if (!a)
		return -ENOMEM;
	attr_plan_defaults(&a->plan);
	*attr = a;
	return 0;
}

void leash_attr_destroy(leash_attr_t *attr)
{
	if (!attr)
		return;
	free(attr->groups);
	free(attr->cwd);
	free(attr->root);
	free(attr);
}

static bool valid_signal(int sig)
{
	return sig > 0 && sig <= 64 && sig != SIGSTOP;
}

static bool valid_time(const struct timespec *t)
{
	return !t || (t->tv_sec >= 0 && t->tv_nsec >= 0 &&
		      t->tv_nsec < 1000000000L);
}

int leash_attr_set_deadline(leash_attr_t *attr, int signal,
			    const struct timespec *duration,
			    const struct timespec *kill_after)
{
	if (!attr || (signal && !valid_signal(signal)) ||
	    !valid_time(duration) || !valid_time(kill_after))
		return -EINVAL;
	attr->plan.term_signal = signal ? signal : SIGTERM;
	attr->plan.duration = duration ? *duration : (struct timespec){ 0, 0 };
	attr->plan.kill_after = kill_after ? *kill_after :
					     (struct timespec){ 0, 0 };
	return 0;
}

int leash_attr_set_user(leash_attr_t *attr, uid_t uid, gid_t gid,
			size_t ngroups, const gid_t *groups)
{
	struct ident *id;
	gid_t *copy = NULL;

	if (!attr || uid == (uid_t)-1 || gid == (gid_t)-1 ||
	    ngroups > IDENT_NGROUPS_MAX || (ngroups && !groups))
		return -EINVAL;
	if (ngroups && !(copy = malloc(ngroups * sizeof *copy)))
		return -ENOMEM;
	if (ngroups)
		memcpy(copy, groups, ngroups * sizeof *copy);
	free(attr->groups);
	attr->groups = copy;
	id = &attr->plan.id;
	id->have_uid = id->have_gid = id->have_groups = true;
	id->gid_explicit = id->groups_explicit = true;
	id->uid = uid;
	id->gid = gid;
	id->ngroups = ngroups;
	id->groups = copy;
	id->source = "number";
	id->uid_change = 0;
	return 0;
}

/* A copy of S in *DST (NULL: none). */
static int set_string(char **dst, const char *s)
{
	char *copy = NULL;

	if (s && strlen(s) >= CGROUP_PATH_MAX)
		return -ENAMETOOLONG;
	if (s && !(copy = strdup(s)))
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

int leash_attr_set_cgroup(leash_attr_t *attr, enum leash_cgroup mode,
			  const char *root)
{
	static const enum cgroup_mode modes[] = {
		[LEASH_CGROUP_OFF] = CGROUP_OFF,
		[LEASH_CGROUP_AUTO] = CGROUP_AUTO,
		[LEASH_CGROUP_REQUIRE] = CGROUP_REQUIRE,
		[LEASH_CGROUP_TRACK] = CGROUP_TRACK,
	};
	int rc;

	if (!attr || (unsigned)mode > LEASH_CGROUP_TRACK)
		return -EINVAL;
	if ((rc = set_string(&attr->root, root)) < 0)
		return rc;
	attr->plan.cg.mode = modes[mode];
	attr->plan.cg.root = attr->root;
	attr->plan.cg.asked = mode != LEASH_CGROUP_OFF;
	return 0;
}

int leash_attr_set_cpu_weight(leash_attr_t *attr, unsigned weight)
{
	if (!attr || weight > 10000)
		return -EINVAL;
	attr->plan.cg.weight = weight;
	return 0;
}

int leash_attr_set_limit(leash_attr_t *attr, enum leash_limit which,
			 const char *value)
{
	char out[LIMIT_VALUE_MAX];

	if (!attr || (unsigned)which >= CGROUP_NLIMITS)
		return -EINVAL;
	if (!value) {
		attr->plan.cg.limits[which][0] = '\0';
		return 0;
	}
	if (limit_rows[which].spell(value, out))
		return -EINVAL;
	memcpy(attr->plan.cg.limits[which], out, sizeof out);
	return 0;
}

int leash_attr_set_cwd(leash_attr_t *attr, const char *dir)
{
	int rc;

	if (!attr)
		return -EINVAL;
	if ((rc = set_string(&attr->cwd, dir)) < 0)
		return rc;
	attr->plan.chdir = attr->cwd;
	return 0;
}

int leash_attr_set_flags(leash_attr_t *attr, unsigned flags)
{
	struct plan *p;

	if (!attr || (flags & ~LEASH_FLAGS_ALL))
		return -EINVAL;
	p = &attr->plan;
	attr->flags = flags;
	p->exec_direct = !(flags & LEASH_SEARCH_PATH);
	p->cg.kill_leftovers = flags & LEASH_KILL_LEFTOVERS;
	p->foreground = flags & LEASH_FOREGROUND;
	p->own_group = !p->foreground;
	p->no_clone3 = flags & LEASH_NO_CLONE3;
	return 0;
}

/* enum leash_limit is CGROUP_LIMITS' order. */
_Static_assert((int)LEASH_LIMIT_MEMORY_MAX == (int)CGROUP_LIMIT_MEMORY &&
	       (int)LEASH_LIMIT_PIDS_MAX == (int)CGROUP_LIMIT_PIDS &&
	       (int)LEASH_LIMIT_CPU_MAX == (int)CGROUP_LIMIT_CPU, "leash_limit");
