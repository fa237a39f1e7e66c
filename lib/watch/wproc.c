/* SPDX-License-Identifier: ISC */
/* wproc: one process as /proc shows it: state, parent, flags, start,
 * policy (stat), real and effective uid (status), and its groups in
 * the cpu hierarchy and, on a hybrid host, in cgroup2 (cgroup). */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroup/cgroup.h"
#include "sys/sys.h"

uint64_t w_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* CLOCK_BOOTTIME - CLOCK_MONOTONIC now: it grows at each suspend. */
uint64_t w_boot_offset(void)
{
	struct timespec b, m;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_BOOTTIME, &b);
	return (uint64_t)(b.tv_sec - m.tv_sec) * 1000000000ULL +
	       (uint64_t)(b.tv_nsec - m.tv_nsec);
}

static int w_read(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
	if (readfile_at(AT_FDCWD, path, buf, size) >= 0)
		return 0;
	if (errno == ENOENT)
		errno = ESRCH;
	return -1;
}

/* Fields 3.. of stat, after the last ')' (comm may hold any byte). */
static int w_stat(pid_t pid, struct w_proc *p)
{
	char buf[1024], *s, *end;

	if (w_read(pid, "stat", buf, sizeof buf) < 0)
		return -1;
	s = strrchr(buf, ')');
	if (!s || s[1] != ' ')
		return errno = EINVAL, -1;
	p->state = s[2];
	s += 3;
	for (int field = 4; field <= 41; field++) {
		unsigned long long v = strtoull(s, &end, 10);

		if (end == s)
			return errno = EINVAL, -1;
		if (field == 4)
			p->ppid = (pid_t)v;
		else if (field == 9)
			p->flags = (unsigned long)v;
		else if (field == 22)
			p->start = v;
		else if (field == 41)
			p->policy = (unsigned)v;
		s = end;
	}
	return 0;
}

static int w_status(pid_t pid, struct w_proc *p)
{
	char buf[2048], *s, *end;
	unsigned long r, e;

	if (w_read(pid, "status", buf, sizeof buf) < 0)
		return -1;
	/* "Uid:\tREAL\tEFFECTIVE\t...", by hand: scanf alone is 4 KiB. */
	s = strstr(buf, "\nUid:");
	if (!s)
		return errno = EINVAL, -1;
	r = strtoul(s + 5, &end, 10);
	if (end == s + 5 || (e = strtoul(end, &s, 10), s == end))
		return errno = EINVAL, -1;
	p->ruid = (uid_t)r;
	p->euid = (uid_t)e;
	return 0;
}

static void w_copy(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "ID:CONTROLLERS:PATH" lines: v1's line with the cpu controller, and
 * cgroup2's "0::" line. */
static int w_groups(const struct watch *w, pid_t pid, struct w_proc *p)
{
	char buf[4096];

	p->cpu[0] = p->v2[0] = '\0';
	if (w_read(pid, "cgroup", buf, sizeof buf) < 0)
		return -1;
	for (char *line = buf, *nl; *line; line = *nl ? nl + 1 : nl) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		if (!c2 || c2 > nl)
			continue;
		*c2 = '\0';
		bool v2 = c1 == line + 1 && line[0] == '0' && c1 + 1 == c2;
		bool cpu = w->top.version == 2 ? v2 :
			   !v2 && mountinfo_has_token(c1 + 1, ',', "cpu");

		if (cpu)
			w_copy(p->cpu, sizeof p->cpu, c2 + 1, (size_t)(nl - c2 - 1));
		if (v2 && w->top.hybrid)
			w_copy(p->v2, sizeof p->v2, c2 + 1, (size_t)(nl - c2 - 1));
	}
	return 0;
}

/* The uid first: most processes of a rescan are not watched. */
int w_proc_read(const struct watch *w, pid_t pid, struct w_proc *p)
{
	if (w_status(pid, p) < 0)
		return -1;
	if (!w_uid_wanted(w, w->o.by_euid ? p->euid : p->ruid))
		return 1;
	if (w_stat(pid, p) < 0 || w_groups(w, pid, p) < 0)
		return -1;
	return 0;
}

unsigned long long w_proc_start(pid_t pid)
{
	struct w_proc p;

	return w_stat(pid, &p) < 0 ? 0 : p.start;
}
