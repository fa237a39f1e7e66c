/* SPDX-License-Identifier: ISC */
/* cgfs: small primitives on cgroupfs files, shared by the parent and the
 * forked child (everything but cgfs_each_pid and cgfs_wait_event is
 * async-signal-safe: no stdio, no malloc). */
#ifndef LEASH_CGFS_H
#define LEASH_CGFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* open PATH with O_CLOEXEC added, in one syscall. */
int cgfs_open(const char *path, int flags);

/* DST = A "/" B (B may be NULL: DST = A).  -1 ENAMETOOLONG. */
int cgfs_join(char *dst, size_t size, const char *a, const char *b);

/* mkdir DIR 0755; EEXIST counts as success.  *CREATED (may be NULL)
 * says whether this call made it. */
int cgfs_mkdir(const char *dir, bool *created);

/* Write VAL to DIR/FILE in one write(2). */
int cgfs_write(const char *dir, const char *file, const char *val);

/* Read DIR/FILE into BUF (NUL-terminated); bytes read or -1. */
ssize_t cgfs_read(const char *dir, const char *file, char *buf, size_t size);

/* The value of KEY in a "key value" file such as cgroup.events, or -1. */
long cgfs_key(const char *dir, const char *file, const char *key);

/* Wait until KEY in DIR/cgroup.events reads WANT, at most MS ms.
 * 0 when it does, -1 with ETIMEDOUT (or the open error). */
int cgfs_wait_event(const char *dir, const char *key, long want, int ms);

/* Call FN for every pid in DIR/cgroup.procs; the number of pids or -1. */
int cgfs_each_pid(const char *dir, void (*fn)(pid_t, void *), void *arg);

/* rmdir DIR, retrying EBUSY for at most MS ms; ENOENT counts as done. */
int cgfs_rmdir(const char *dir, int ms);

/* Start time of PID (field 22 of /proc/PID/stat), 0 when it is gone. */
unsigned long long cgfs_starttime(pid_t pid);

#endif
