/* SPDX-License-Identifier: ISC */
/* proc: /proc/PID/stat, read in one place.  A process is known by its
 * pid and its start time together: a pid alone may have gone to
 * another process since it was seen. */
#ifndef LEASH_PROC_H
#define LEASH_PROC_H

#include <sys/types.h>

struct proc_stat {
	pid_t pid, ppid, pgrp;
	char state;                     /* field 3: 'Z' zombie, 'X' dead */
	unsigned long long start;       /* field 22: clock ticks since boot */
	unsigned long long cpu;         /* fields 14-17, utime + stime of it
					 * and its reaped children: ticks */
	char name[16];                  /* comm, at most 15 bytes */
};

/* /proc opened as a directory (O_RDONLY, close-on-exec) when procfs is
 * mounted there; else -1 with errno, ENOENT for a directory that is no
 * procfs (an empty /proc in a chroot or an image being built): a walk
 * of it would find no process and pass for a tree with none. */
int proc_open(void);
/* Is procfs mounted on /proc?  proc_open's test, asked with one statfs:
 * 0, or -1 with errno as proc_open's. */
int proc_check(void);
/* Parse BUF, the text of a /proc/PID/stat: 0, or -1 when it is not one.
 * The command name may hold anything, ')' and spaces too, so the fields
 * are counted from its last ')'. */
int proc_stat_parse(const char *buf, struct proc_stat *p);
/* Read PID's stat under PROC, a descriptor of /proc (AT_FDCWD: the
 * path /proc): 0, or -1 with errno (ENOENT, ESRCH: gone).  No stdio and
 * no allocation. */
int proc_stat_read(int proc, pid_t pid, struct proc_stat *p);
/* /proc/PID/FILE ("status", "task/TID/children") read whole into BUF,
 * as readfile_at: the bytes read, or -1 with errno. */
ssize_t proc_read(pid_t pid, const char *file, char *buf, size_t size);
/* PID's parent, -1 when it cannot be read. */
pid_t proc_parent(pid_t pid);
/* PID's start time, 0 when it is gone; *STATE its state ('\0' then). */
unsigned long long proc_start(pid_t pid, char *state);

#endif
