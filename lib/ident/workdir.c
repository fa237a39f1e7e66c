/* SPDX-License-Identifier: ISC */
/* workdir: the command's starting directory, and a login's fallback. */
#include "ident/workdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "diag/diag.h"

int workdir_fallback_set(struct workdir_fallback *f, const char *shown,
			 const char *dir)
{
	static const char fmt[] = "%s: warning: cannot change directory to %s";
	int n = snprintf(NULL, 0, fmt, diag_prog, shown);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);

	if (!s)
		return errno = ENOMEM, -1;
	snprintf(s, (size_t)n + 1, fmt, diag_prog, shown);
	free(f->warn);
	f->warn = s;
	f->dir = dir;
	return 0;
}

/* No stdio here: the child may share the parent's memory (vfork). */
int workdir_enter(const char *path, const struct workdir_fallback *f)
{
	if (chdir(path) == 0)
		return 0;
	if (!f->warn)
		return -1;
	const char *why = strerror(errno);
	struct iovec v[] = {
		{ f->warn, strlen(f->warn) }, { ": ", 2 },
		{ (char *)why, strlen(why) }, { "\n", 1 },
	};
	/* A lost warning changes nothing: go on as if it was said. */
	if (writev(STDERR_FILENO, v, 4) < 0)
		errno = 0;
	return f->dir ? chdir(f->dir) : 0;
}
