/* SPDX-License-Identifier: ISC */
/* procmount: /proc, only when it is procfs. */
#ifndef LEASH_PROCMOUNT_H
#define LEASH_PROCMOUNT_H

/* /proc opened as a directory (O_RDONLY, close-on-exec) when procfs is
 * mounted there; else -1 with errno, ENOENT for a directory that is no
 * procfs (an empty /proc in a chroot or an image being built): a walk
 * of it would find no process and pass for a tree with none. */
int procmount_open(void);

#endif
