/* SPDX-License-Identifier: ISC */
/* cgplan: what the cgroup files share: the plan's messages and names. */
#define _GNU_SOURCE
#include "cgplan.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgfs.h"
#include "diag.h"

void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;

	if (!cg->verbose || !cg->note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cg->note("%s", buf);
}

/* Fill cg->msg: TEXT[: strerror(ERR)][ (HINT)]; -1 with errno = ERR. */
int cg_fail(struct cgroup_plan *cg, int err, bool soft,
	    const char *hint, const char *fmt, ...)
{
	size_t n, size = sizeof cg->msg;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cg->msg, size, fmt, ap);
	va_end(ap);
	n = strlen(cg->msg);
	if (err && n < size)
		n += snprintf(cg->msg + n, size - n, ": %s", strerror(err));
	cg->hint_at = (int)(n < size ? n : size - 1);
	if (hint && n < size)
		snprintf(cg->msg + n, size - n, " (%s)", hint);
	cg->soft = soft;
	errno = err ? err : ENODEV;
	return -1;
}

const char *cg_hint(int err)
{
	switch (err) {
	case EROFS:
		return "the cgroup mount is read-only: give a writable "
		       "--cgroup-root DIR, or use --cgroup=off";
	case EACCES:
	case EPERM:
		/* Root refused: SELinux (Android), or no CAP_DAC_OVERRIDE. */
		if (geteuid() == 0)
			return "refused to root: a security policy such as "
			       "SELinux, or a group of another owner; use "
			       "--cgroup=off";
		return "run as root or give a delegated subtree with "
		       "--cgroup-root DIR";
	default:
		return "use --cgroup=off to run without a cgroup";
	}
}

/* The message of a path beyond CGROUP_PATH_MAX, made from A. */
static int cg_fail_long(struct cgroup_plan *cg, const char *a)
{
	return cg_fail(cg, ENAMETOOLONG, false, NULL,
		       "cgroup path too long: %s", diag_quote(a));
}

/* Copy A[/B] into DST or fail with a message. */
int cg_path(struct cgroup_plan *cg, char *dst, const char *a,
		   const char *b)
{
	if (cgfs_join(dst, CGROUP_PATH_MAX, a, b) == 0)
		return 0;
	return cg_fail_long(cg, a);
}

/* A path's room after cg_paths_clear: a usual path fits, so that setting
 * it moves nothing, and all five lie within 640 bytes. */
#define CG_ROOM 128

void cg_paths_clear(struct cgroup_plan *cg)
{
	for (int i = 0; i < CGROUP_PATHS; i++) {
		cg->paths[i * CG_ROOM] = '\0';
		cg->path[i] = cg->paths + i * CG_ROOM;
	}
	cg->paths_end = cg->paths + CGROUP_PATHS * CG_ROOM;
}

static bool cg_within(const char *p, const char *start, size_t len)
{
	return (uintptr_t)p - (uintptr_t)start < len;
}

/* Path ID's room GROW bytes larger: the paths after it move up, and *A
 * and *B with them when they point there. */
static void cg_grow(struct cgroup_plan *cg, enum cgroup_path id, size_t grow,
		    const char **a, const char **b)
{
	char *tail = cg->paths + (cg->path[id + 1] - cg->paths);
	size_t move = (size_t)(cg->paths_end - cg->path[id + 1]);

	if (cg_within(*a, tail, move))
		*a += grow;
	if (*b && cg_within(*b, tail, move))
		*b += grow;
	memmove(tail + grow, tail, move);
	for (int i = id + 1; i <= CGROUP_PATHS; i++)
		cg->path[i] += grow;
}

/* The paths lie in cg->paths in enum order, path i in the room from
 * path[i] to path[i + 1], so a launch's few short paths share a page.
 * A room only grows, to the length set plus its NUL: each path still
 * fits CGROUP_PATH_MAX - 1 bytes whatever the others hold, since the
 * area has room for all five at their longest. */
int cg_set(struct cgroup_plan *cg, enum cgroup_path id, const char *a,
	   const char *b)
{
	char *dst = cg->paths + (cg->path[id] - cg->paths);
	size_t room = (size_t)(cg->path[id + 1] - cg->path[id]);
	size_t la = strlen(a), lb = b ? strlen(b) : 0;
	size_t n = la + (b ? 1 + lb : 0);

	if (n >= CGROUP_PATH_MAX)
		return cg_fail_long(cg, a);
	if (n >= room)
		cg_grow(cg, id, n + 1 - room, &a, &b);
	memcpy(dst, a, la);     /* A is not path ID: no overlap */
	if (b) {
		dst[la] = '/';
		memcpy(dst + la + 1, b, lb);
	}
	dst[n] = '\0';
	return 0;
}
