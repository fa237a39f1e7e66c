/* SPDX-License-Identifier: ISC */
/* wrule: which uids are watched, what is never moved, and the
 * allow-list of the groups a process may be taken from. */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sys.h"

#define W_PF_KTHREAD 0x00200000UL

const char *watch_reason_name(enum watch_reason r)
{
	static const char *const names[] = { "uid", "fork", "scan" };

	return r < WATCH_NREASONS ? names[r] : "?";
}

bool w_uid_wanted(const struct watch *w, uid_t uid)
{
	for (int i = 0; i < w->o.nuids; i++)
		if (uid >= w->o.uids[i].lo && uid <= w->o.uids[i].hi)
			return true;
	return false;
}

static int w_parse_id(const char *s, char **end, uid_t *out)
{
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v > 4294967294UL)   /* (uid_t)-1 is no uid */
		return -1;
	*out = (uid_t)v;
	return 0;
}

int watch_parse_uids(struct watch_opts *o, const char *s)
{
	char *end;

	o->nuids = 0;
	do {
		struct watch_range r;

		if (o->nuids == WATCH_MAX_RANGES)
			return errno = E2BIG, -1;
		if (w_parse_id(s, &end, &r.lo) < 0)
			return errno = EINVAL, -1;
		r.hi = r.lo;
		if (*end == '-' && w_parse_id(end + 1, &end, &r.hi) < 0)
			return errno = EINVAL, -1;
		if (r.hi < r.lo || (*end && *end != ','))
			return errno = EINVAL, -1;
		o->uids[o->nuids++] = r;
		s = end + 1;
	} while (*end);
	return 0;
}

/* The groups of leash's own: v1 uid_N holds processes, v2 uid_N/watch. */
static bool w_own(const struct watch *w, const char *path)
{
	const char *rel = strcmp(w->top.rel, "/") ? w->top.rel : "";
	size_t n = strlen(rel);

	if (strncmp(path, rel, n) || strncmp(path + n, "/uid_", 5))
		return false;
	path += n + 5;
	path += strspn(path, "0123456789");
	return w->top.version == 1 ? !*path : !strcmp(path, "/watch");
}

/* Deny by default: the root, systemd's login sessions, the patterns
 * the admin gave (--from).  Not a service, a container, a delegated
 * unit, Android's uid_X/pid_Y, a leash leaf: another manager's. */
static bool w_allowed(const struct watch *w, const char *path, bool own_ok)
{
	if (!strcmp(path, "/") || (own_ok && w_own(w, path)) ||
	    glob_match("/user.slice/user-*.slice/session-*.scope", path))
		return true;
	for (int i = 0; i < w->o.nfrom; i++)
		if (glob_match(w->o.from[i], path))
			return true;
	return false;
}

const char *w_never(const struct watch *w, pid_t pid, const struct w_proc *p)
{
	if (pid <= 2 || (p->flags & W_PF_KTHREAD) || p->ppid == 2)
		return "a kernel thread or init";
	if (p->state == 'Z' || p->state == 'X')
		return "exiting";
	if (pid == w->self)
		return "the watcher";
	for (int i = 0; i < w->nancestors; i++)
		if (pid == w->ancestors[i])
			return "the watcher's ancestor";
	/* SCHED_FIFO, SCHED_RR, SCHED_DEADLINE: a v1 group without
	 * cpu.rt_runtime_us refuses them, and they are not CFS's. */
	if (p->policy == 1 || p->policy == 2 || p->policy == 6)
		return "real-time";
	if (!p->cpu[0] || !w_allowed(w, p->cpu, true))
		return "its group is not on the allow-list";
	if (p->v2[0] && !w_allowed(w, p->v2, false))
		return "its cgroup2 group is not on the allow-list";
	return NULL;
}

bool w_in_place(const struct watch *w, const struct w_proc *p, uid_t uid)
{
	char want[CGROUP_PATH_MAX + 48];

	snprintf(want, sizeof want, "%s/uid_%u%s",
		 strcmp(w->top.rel, "/") ? w->top.rel : "", (unsigned)uid,
		 w->top.version == 2 ? "/watch" : "");
	return !strcmp(p->cpu, want);
}
