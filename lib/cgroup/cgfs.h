/* SPDX-License-Identifier: ISC */
/* cgfs: small primitives on cgroupfs files, shared by the parent and the
 * forked child (everything but cgfs_each_pid and cgfs_wait_event is
 * async-signal-safe: no stdio, no malloc).  Files are named relative to
 * a directory descriptor AT (AT_FDCWD for a path), so a group is
 * resolved once and then reached through its descriptor. */
#ifndef LEASH_CGFS_H
#define LEASH_CGFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* openat AT/NAME with O_CLOEXEC added, in one syscall. */
int cgfs_open(int at, const char *name, int flags);

/* An O_PATH descriptor of the directory AT/NAME; -1 with errno. */
int cgfs_dir(int at, const char *name);

/* 0 when AT/NAME exists, else -1 with errno (faccessat F_OK). */
int cgfs_exists(int at, const char *name);

/* DST = A "/" B (B may be NULL: DST = A).  -1 ENAMETOOLONG. */
int cgfs_join(char *dst, size_t size, const char *a, const char *b);

/* mkdir AT/NAME 0755; EEXIST counts as success.  *CREATED (may be NULL)
 * says whether this call made it. */
int cgfs_mkdir(int at, const char *name, bool *created);

/* Write VAL to AT/FILE in one write(2). */
int cgfs_write(int at, const char *file, const char *val);

/* The value of KEY in a "key value" file such as cgroup.events, or -1
 * (long long: cpu.stat's microseconds pass 2^31 in 36 minutes). */
long long cgfs_key(int at, const char *file, const char *key);

/* A file holding one number (memory.peak, cgroup.freeze), or -1. */
long long cgfs_number(int at, const char *file);
/* Wait until KEY in DIR/cgroup.events reads WANT, at most MS ms.
 * 0 when it does, -1 with ETIMEDOUT (or the open error). */
int cgfs_wait_event(int dir, const char *key, long want, int ms);

/* Call FN (NULL: none, only count) for every pid in DIR/cgroup.procs and
 * in the groups nested below DIR (a nested leash's leaves); the number
 * of pids or -1. */
int cgfs_each_pid(int dir, void (*fn)(pid_t, void *), void *arg);

/* Remove the empty groups nested below DIR, deepest first (a nested
 * leash killed before it removed its leaf); those in use stay. */
void cgfs_rmdir_below(int dir);

/* rmdir AT/NAME, retrying EBUSY for at most MS ms; ENOENT counts as done. */
int cgfs_rmdir(int at, const char *name, int ms);

#endif
