/* SPDX-License-Identifier: ISC */
/* sys: what a libc would give, made small or exact for a static leash,
 * and the readers of the kernel's files.  It knows no area of leash (no
 * plan, no cgroup, no signal policy) and includes none.
 *
 * Promises: every function here is async-signal-safe unless its header
 * says otherwise (the forked child calls them), allocates nothing but
 * from arena, and returns -1 with errno (or a documented value) instead
 * of exiting or printing.
 *
 *   readfile   a small /proc or cgroupfs file read whole, no stdio
 *   format     printf without floating point (the static build's)
 *   small      qsort and strstr smaller than musl's
 *   stdfd      fds 0-2 open from the start; a close nothing refuses
 *   arena      leash's malloc (no header: it is malloc)
 *   bss        BSS_PAGE: a large zeroed static on pages of its own
 *   quote      an operand quoted as GNU's quote() does
 *   glob       a shell pattern against a path, fnmatch's FNM_PATHNAME
 *              rule, in bytes (leash watch --from)
 *   decpoint   the caller's locale's decimal point (glibc's files)
 *   opt        getopt_long with glibc's behaviour and messages
 *   nr         the system call numbers some libcs lack, defined once
 *   proc       /proc, its one reader: procfs checked, /proc/PID/stat
 *              (pid, parent, state, start), status, children
 *   sysname    a system call's name from its number, for a message */
#ifndef LEASH_SYS_H
#define LEASH_SYS_H

#include "sys/bss.h"
#include "sys/decpoint.h"
#include "sys/format.h"
#include "sys/glob.h"
#include "sys/nr.h"
#include "sys/opt.h"
#include "sys/proc.h"
#include "sys/quote.h"
#include "sys/readfile.h"
#include "sys/small.h"
#include "sys/stdfd.h"
#include "sys/sysname.h"

#endif
