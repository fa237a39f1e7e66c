/* SPDX-License-Identifier: ISC */
/* stdfd: descriptors 0-2 always open in leash, and a close that a
 * seccomp filter cannot refuse. */
#ifndef LEASH_STDFD_H
#define LEASH_STDFD_H

/* Before anything else opens a file: each of fds 0-2 that is closed
 * gets /dev/null, so no file of leash's (the report, a leaf's
 * directory) takes its number and gets what is written to it.  The
 * closed ones are remembered for stdfd_close_for_exec.  -1 with errno
 * when /dev/null cannot be opened. */
int stdfd_open(void);

/* In the child, just before exec: the fds that were closed at start are
 * closed again, so the command gets what the caller left. */
void stdfd_close_for_exec(void);

/* Close FD; a close the kernel refused (a seccomp trap comes back as
 * ENOSYS) is done by dup3 of fd 0 over it, close-on-exec, so that the
 * open file FD stood for (a pipe's write end) is released all the same. */
void stdfd_drop(int fd);

#endif
