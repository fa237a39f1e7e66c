/* SPDX-License-Identifier: ISC */
/* cgmsg: the cgroup plan's words: -v notes, and the one line a failure
 * leaves in cg->msg with its error and a hint. */
#define _GNU_SOURCE
#include "cgroup/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "diag/diag.h"

/* Apart from cg_note, and never inlined: its buffer is a stack page
 * that a launch without -v would fault in for nothing (stack-clash
 * protection probes every page of a frame on entry). */
static __attribute__((noinline)) void note_say(const struct cgroup_plan *cg,
					       const char *fmt, va_list ap)
{
	char buf[PATH_MAX + 256];

	vsnprintf(buf, sizeof buf, fmt, ap);
	cg->note("%s", buf);
}

void cg_note(const struct cgroup_plan *cg, const char *fmt, ...)
{
	va_list ap;

	if (!cg->verbose || !cg->note)
		return;
	va_start(ap, fmt);
	note_say(cg, fmt, ap);
	va_end(ap);
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

/* Read-only, not ours, refused: auto mode may run without a group. */
bool cg_soft_errno(int err)
{
	return err == EROFS || err == EACCES || err == EPERM;
}

int cg_fail_mkdir(struct cgroup_plan *cg, const char *dir)
{
	int err = errno;

	return cg_fail(cg, err, cg_soft_errno(err), cg_hint(err),
		       "cannot create cgroup %s", DIAG_QUOTE(dir));
}

int cg_path(struct cgroup_plan *cg, char *dst, const char *a, const char *b)
{
	if (cgfs_join(dst, CGROUP_PATH_MAX, a, b) == 0)
		return 0;
	return cg_fail(cg, ENAMETOOLONG, false, NULL,
		       "cgroup path too long: %s", DIAG_QUOTE(a));
}
