/* SPDX-License-Identifier: ISC */
/* proc: the one reader of /proc (see proc.h). */
#define _GNU_SOURCE
#include "sys/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sys/readfile.h"

#define PROC_SUPER_MAGIC 0x9fa0 /* <linux/magic.h> */

int proc_check(void)
{
	struct statfs sf;

	if (statfs("/proc", &sf) < 0)
		return -1;
	return sf.f_type == PROC_SUPER_MAGIC ? 0 : (errno = ENOENT, -1);
}

int proc_open(void)
{
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs sf;

	if (fd < 0)
		return -1;
	if (fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC)
		return fd;
	close(fd);
	return errno = ENOENT, -1;
}

/* The field after the one at F, or NULL where the line ends. */
static const char *next_field(const char *f)
{
	f = f ? strchr(f, ' ') : NULL;
	return f ? f + 1 : NULL;
}

int proc_stat_parse(const char *buf, struct proc_stat *p)
{
	const char *s = strrchr(buf, ')'), *open = strchr(buf, '('), *f;
	size_t n;
	int field;

	if (!s || !open || open > s || s[1] != ' ' || !s[2])
		return -1;
	p->pid = (pid_t)strtol(buf, NULL, 10);
	n = (size_t)(s - open - 1);
	n = n < sizeof p->name ? n : sizeof p->name - 1;
	memcpy(p->name, open + 1, n);
	p->name[n] = '\0';
	f = s + 2;                      /* field 3 */
	p->state = *f;
	for (field = 3; field < 4 && f; field++)
		f = next_field(f);
	if (!f)
		return -1;
	p->ppid = (pid_t)strtol(f, NULL, 10);
	if (!(f = next_field(f)))
		return -1;
	p->pgrp = (pid_t)strtol(f, NULL, 10);
	for (field = 5; field < 14 && f; field++)
		f = next_field(f);
	/* Fields 14-17: utime stime cutime cstime, ticks. */
	for (p->cpu = 0; field < 18 && f; field++, f = next_field(f))
		p->cpu += (unsigned long long)strtoll(f, NULL, 10);
	for (; field < 22 && f; field++)
		f = next_field(f);
	if (!f)
		return -1;
	p->start = strtoull(f, NULL, 10);
	return 0;
}

/* PROC/PID/FILE into BUF, without stdio: "/proc/" leads when PROC is
 * AT_FDCWD.  -1 with ENAMETOOLONG when it does not fit. */
static int proc_path(char *buf, size_t size, int proc, pid_t pid,
		     const char *file)
{
	char digits[16];
	size_t n = 0, at = 0, len = strlen(file);
	unsigned long v = (unsigned long)pid;

	if (proc == AT_FDCWD) {
		memcpy(buf, "/proc/", 6);
		at = 6;
	}
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	if (at + n + 1 + len + 1 > size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	while (n)
		buf[at++] = digits[--n];
	buf[at++] = '/';
	memcpy(buf + at, file, len + 1);
	return 0;
}

ssize_t proc_read(pid_t pid, const char *file, char *buf, size_t size)
{
	char path[64];

	if (proc_path(path, sizeof path, AT_FDCWD, pid, file) < 0)
		return -1;
	return readfile_at(AT_FDCWD, path, buf, size);
}

int proc_stat_read(int proc, pid_t pid, struct proc_stat *p)
{
	char path[32], buf[1024];

	if (pid <= 0) {
		errno = ESRCH;
		return -1;
	}
	if (proc_path(path, sizeof path, proc, pid, "stat") < 0 ||
	    readfile_at(proc, path, buf, sizeof buf) <= 0)
		return -1;
	if (proc_stat_parse(buf, p) < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

unsigned long long proc_start(pid_t pid, char *state)
{
	struct proc_stat p;

	if (proc_stat_read(AT_FDCWD, pid, &p) < 0) {
		*state = '\0';
		return 0;
	}
	*state = p.state;
	return p.start;
}

pid_t proc_parent(pid_t pid)
{
	struct proc_stat p;

	return proc_stat_read(AT_FDCWD, pid, &p) < 0 ? -1 : p.ppid;
}
