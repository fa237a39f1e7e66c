/* SPDX-License-Identifier: ISC */
/* reportfile: where the report goes, decided when the option is read (so
 * a path leash cannot or may not write fails before the command starts).
 * A regular file, or no file yet, is written whole to a private
 * temporary beside it and put in its place at the end (swapped with the
 * old file, which is removed, or renamed): a reader sees the old file or
 * the whole new one.  Anything else (a device, a FIFO, /dev/stdout,
 * /dev/fd/N, a link to one of them) is opened now and written in place,
 * never replaced.  A path whose directory, or one above it, others may
 * write is refused (safedir.h): what they put there could take the
 * report's place.  A descriptor is
 * checked at once and written with one loop at the end. */
#ifndef LEASH_REPORTFILE_H
#define LEASH_REPORTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "report/safedir.h"

struct reportfile {
	int fd;                 /* -1: no report */
	const char *path;       /* the name given, NULL for --report-fd */
	int dir;                /* O_PATH of PATH's directory, or -1 */
	const char *base;       /* PATH's last component, in DIR */
	char *tmp;              /* the temporary in DIR; NULL: in place */
	mode_t mode;            /* the complete file's: 0644 less the umask */
	bool own_fd;            /* FD is ours to close when done */
	enum safedir_refusal shared;    /* refused: others may write PATH's
					 * directory, or one above it */
	dev_t dev;              /* the temporary's inode, which alone */
	ino_t ino;              /* is renamed into place */
};

/* --report=PATH, as above.  -1 with errno: EISDIR for a directory,
 * EPERM with SHARED set for a path someone other than root and leash's
 * own user could change (safedir_open). */
int reportfile_open(struct reportfile *f, const char *path);

/* --report-fd=FD: FD must be open for writing; above 2 it is made
 * close-on-exec, so the command does not get it.  -1 with errno. */
int reportfile_use_fd(struct reportfile *f, int fd);

/* Write BUF[0..N), then (for a file) give the temporary its final mode
 * and put it in the final name's place; on failure the temporary is
 * removed and the final name left as it was.  -1 with errno (ENOSPC
 * ...).  Once only. */
int reportfile_commit(struct reportfile *f, const char *buf, size_t n);

/* Remove the temporary without writing (nothing to report). */
void reportfile_abort(struct reportfile *f);

#endif
