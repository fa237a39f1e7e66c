/* SPDX-License-Identifier: ISC */
/* reportfile: where the report goes.  A file is written whole to a
 * temporary file beside it, made when the option is read (so a path
 * leash cannot write fails before the command starts), and put in its
 * place at the end (swapped with the old file, which is removed, or
 * renamed): a reader sees the old file or the whole new one.  A
 * descriptor is checked at once and written with one loop at the end. */
#ifndef LEASH_REPORTFILE_H
#define LEASH_REPORTFILE_H

#include <stdbool.h>
#include <stddef.h>

struct reportfile {
	int fd;                 /* -1: no report */
	const char *path;       /* the final name, NULL for a descriptor */
	char *tmp;              /* the temporary beside it */
};

/* --report=PATH: make PATH.XXXXXX beside it.  -1 with errno (EISDIR
 * when PATH is a directory). */
int reportfile_open(struct reportfile *f, const char *path);

/* --report-fd=FD: FD must be open for writing; above 2 it is made
 * close-on-exec, so the command does not get it.  -1 with errno. */
int reportfile_use_fd(struct reportfile *f, int fd);

/* Write BUF[0..N), then (for a file) put the temporary in the final
 * name's place; on failure the temporary is removed and the final name
 * left as it was.  -1 with errno (ENOSPC ...).  Once only. */
int reportfile_commit(struct reportfile *f, const char *buf, size_t n);

/* Remove the temporary without writing (nothing to report). */
void reportfile_abort(struct reportfile *f);

#endif
