/* SPDX-License-Identifier: ISC */
/* readfile: a small file of /proc or cgroupfs read whole into the
 * caller's buffer, with no stdio and no malloc (async-signal-safe: the
 * forked child uses it too). */
#ifndef LEASH_READFILE_H
#define LEASH_READFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Read AT/NAME (AT_FDCWD for a path) into BUF, NUL-terminated: the
 * bytes read (at most SIZE - 1: a longer file is cut there), or -1 with
 * errno. */
ssize_t readfile_at(int at, const char *name, char *buf, size_t size);

#endif
