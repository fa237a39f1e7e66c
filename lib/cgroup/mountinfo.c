/* SPDX-License-Identifier: ISC */
/* mountinfo: find the cgroup hierarchies in /proc/self/mountinfo. */
#define _GNU_SOURCE
#include "cgroup/mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "sys/sys.h"

/* One read of mountinfo; a longer line than this is not a cgroup's. */
#define MOUNTINFO_BUF 8192

/* The kernel writes space, tab, newline and backslash as \ooo. */
static void mountinfo_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Cut the next space-separated field off *S. */
static char *mountinfo_field(char **s)
{
	char *f = *s, *end;

	if (!f || !*f)
		return NULL;
	end = strchr(f, ' ');
	if (end) {
		*end = '\0';
		*s = end + 1;
	} else {
		*s = NULL;
	}
	return f;
}

int mountinfo_split(char *line, struct mountinfo_entry *e)
{
	/* Optional fields vary in number: the " - " separator ends them. */
	char *sep = strstr(line, " - ");
	char *left = line, *right, *nl;

	if (!sep)
		goto bad;
	*sep = '\0';
	right = sep + 3;
	if ((nl = strchr(right, '\n')))
		*nl = '\0';
	if (!mountinfo_field(&left) || !mountinfo_field(&left) ||
	    !mountinfo_field(&left))
		goto bad;
	e->root = mountinfo_field(&left);
	e->point = mountinfo_field(&left);
	e->fstype = mountinfo_field(&right);
	if (!e->point || !e->fstype || !mountinfo_field(&right))
		goto bad;
	e->superopts = mountinfo_field(&right);
	if (!e->superopts)
		goto bad;
	mountinfo_unescape(e->root);
	mountinfo_unescape(e->point);
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

bool mountinfo_has_token(const char *list, char sep, const char *token)
{
	size_t n = strlen(token);

	while (list && *list) {
		const char *end = strchr(list, sep);
		size_t len = end ? (size_t)(end - list) : strlen(list);

		/* A trailing newline is not part of the last token. */
		if (!end && len && list[len - 1] == '\n')
			len--;
		if (len == n && memcmp(list, token, n) == 0)
			return true;
		list = end ? end + 1 : NULL;
	}
	return false;
}

long mountinfo_magic(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) < 0)
		return -1;
	return (long)sf.f_type;
}

/* Is the mount of this line the one PATH shows now?  A tmpfs mounted
 * on top (or a missing directory) gives another magic or an error. */
static bool mountinfo_visible(const char *point, long magic)
{
	return mountinfo_magic(point) == magic;
}

/* Keep the first candidate, unless a later one shows the root. */
static void mountinfo_take(char *dst, bool *dst_root,
			   const struct mountinfo_entry *e)
{
	bool is_root = strcmp(e->root, "/") == 0;

	if (*dst && (*dst_root || !is_root))
		return;
	if (strlen(e->point) >= MOUNTINFO_PATH_MAX)
		return;
	strcpy(dst, e->point);
	*dst_root = is_root;
}

static void mountinfo_consider(char *line, struct mountinfo_cgroups *m,
			       bool *root1, bool *root2)
{
	struct mountinfo_entry e;

	if (mountinfo_split(line, &e) < 0)
		return;
	if (strcmp(e.fstype, "cgroup2") == 0) {
		if (mountinfo_visible(e.point, MOUNTINFO_CGROUP2_MAGIC))
			mountinfo_take(m->v2, root2, &e);
	} else if (strcmp(e.fstype, "cgroup") == 0 &&
		   mountinfo_has_token(e.superopts, ',', "cpu")) {
		if (mountinfo_visible(e.point, MOUNTINFO_CGROUP1_MAGIC))
			mountinfo_take(m->v1cpu, root1, &e);
	}
}

/* Not inlined: its path would add 4 KiB to the frame that parses. */
static __attribute__((noinline)) bool mountinfo_v2_has_cpu(const char *mount)
{
	char path[PATH_MAX + 32], buf[256];

	snprintf(path, sizeof path, "%s/cgroup.controllers", mount);
	if (readfile_at(AT_FDCWD, path, buf, sizeof buf) <= 0)
		return false;
	return mountinfo_has_token(buf, ' ', "cpu");
}

/* Feed every complete line of BUF[0..*LEN) to mountinfo_consider and
 * keep the unfinished tail.  A line longer than the buffer is dropped
 * whole: *SKIP says the buffer's start is still inside such a line, so
 * its tail is not read as a line of its own. */
static void mountinfo_lines(char *buf, size_t *len, bool eof, bool *skip,
			    struct mountinfo_cgroups *m, bool *r1, bool *r2)
{
	char *p = buf, *nl;

	buf[*len] = '\0';
	if (*skip) {
		if (!(nl = memchr(buf, '\n', *len))) {
			*len = 0;
			return;
		}
		p = nl + 1;
		*skip = false;
	}
	while ((nl = strchr(p, '\n')) || (eof && *p)) {
		if (nl)
			*nl = '\0';
		mountinfo_consider(p, m, r1, r2);
		p = nl ? nl + 1 : p + strlen(p);
	}
	*len -= (size_t)(p - buf);
	if (*len == MOUNTINFO_BUF - 1) {
		*len = 0;
		*skip = true;
	}
	memmove(buf, p, *len);
}

int mountinfo_cgroups(const char *file, struct mountinfo_cgroups *m)
{
	/* No stdio: one openat and a few reads, no malloc. */
	int fd = openat(AT_FDCWD, file ? file : "/proc/self/mountinfo",
			O_RDONLY | O_CLOEXEC);
	bool root1 = false, root2 = false, skip = false;
	char buf[MOUNTINFO_BUF];
	size_t len = 0;
	ssize_t n;

	m->v1cpu[0] = m->v2[0] = '\0';
	m->v2cpu = false;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) {
		len += (size_t)n;
		mountinfo_lines(buf, &len, false, &skip, m, &root1, &root2);
	}
	mountinfo_lines(buf, &len, true, &skip, m, &root1, &root2);
	close(fd);
	if (n < 0)
		return -1;
	if (m->v2[0])
		m->v2cpu = mountinfo_v2_has_cpu(m->v2);
	return 0;
}
