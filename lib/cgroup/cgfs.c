/* SPDX-License-Identifier: ISC */
/* cgfs: small primitives on cgroupfs files. */
#define _GNU_SOURCE
#include "cgroup/cgfs.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "time/time.h"

/* openat, not open: musl's open() adds an fcntl(FD_CLOEXEC) call for
 * old kernels, one more syscall on every cgroupfs file we touch. */
int cgfs_open(int at, const char *name, int flags)
{
	return openat(at, name, flags | O_CLOEXEC);
}

int cgfs_dir(int at, const char *name)
{
	return cgfs_open(at, name, O_PATH | O_DIRECTORY);
}

int cgfs_exists(int at, const char *name)
{
	return faccessat(at, name, F_OK, 0);
}

int cgfs_join(char *dst, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = b ? strlen(b) : 0;

	if (la + 1 + lb + 1 > size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dst, a, la);
	if (b) {
		dst[la++] = '/';
		memcpy(dst + la, b, lb);
	}
	dst[la + lb] = '\0';
	return 0;
}

int cgfs_mkdir(int at, const char *name, bool *created)
{
	int rc = mkdirat(at, name, 0755);

	if (created)
		*created = rc == 0;
	if (rc < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int cgfs_write(int at, const char *file, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, saved;

	fd = cgfs_open(at, file, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	saved = errno;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = n < 0 ? saved : EIO;
	return -1;
}

long long cgfs_key(int at, const char *file, const char *key)
{
	char buf[512], *p = buf;
	size_t klen = strlen(key);

	if (readfile_at(at, file, buf, sizeof buf) < 0)
		return -1;
	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ')
			return strtoll(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	errno = ENOENT;
	return -1;
}

long long cgfs_number(int at, const char *file)
{
	char buf[32], *end;
	long long v;

	if (readfile_at(at, file, buf, sizeof buf) <= 0)
		return -1;
	v = strtoll(buf, &end, 10);
	return end != buf && (*end == '\n' || !*end) ? v : -1;
}

/* cgroup.events raises POLLPRI on every change, so we sleep in poll()
 * and re-read instead of spinning. */
int cgfs_wait_event(int dir, const char *key, long want, int ms)
{
	struct timespec t0;
	struct pollfd p;
	long left;

	if (ms <= 0) {
		long v = cgfs_key(dir, "cgroup.events", key);

		if (v == want)
			return 0;
		if (v >= 0)
			errno = ETIMEDOUT;
		return -1;
	}
	p.fd = cgfs_open(dir, "cgroup.events", O_RDONLY);
	if (p.fd < 0)
		return -1;
	p.events = POLLPRI;
	clock_now(CLOCK_MONOTONIC, &t0);
	while (cgfs_key(dir, "cgroup.events", key) != want) {
		left = ms - clock_ms_since(CLOCK_MONOTONIC, &t0);
		if (left <= 0) {
			close(p.fd);
			errno = ETIMEDOUT;
			return -1;
		}
		/* Bounded slices: a missed edge costs at most 10 ms. */
		poll(&p, 1, left < 10 ? (int)left : 10);
	}
	close(p.fd);
	return 0;
}

static void cgfs_parse_pids(char *buf, size_t *keep,
			    void (*fn)(pid_t, void *), void *arg, int *count)
{
	char *p = buf, *nl;

	while ((nl = strchr(p, '\n'))) {
		*nl = '\0';
		if (fn)
			fn((pid_t)strtol(p, NULL, 10), arg);
		(*count)++;
		p = nl + 1;
	}
	/* A partial last line is kept for the next read. */
	*keep = strlen(p);
	memmove(buf, p, *keep);
}

/* FN on every subdirectory of DIR (an O_PATH descriptor is enough), as
 * an O_PATH descriptor and a name, until FN returns nonzero.  kernfs
 * counts subdirectories in the link count: a leaf without any (the usual
 * case) costs one fstat. */
static int cgfs_each_child(int dir, int (*fn)(int, int, const char *, void *),
			   void *arg)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, rc = 0;

	if (fstat(dir, &st) < 0 || st.st_nlink <= 2)
		return 0;
	if ((fd = cgfs_open(dir, ".", O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while (rc == 0 && (e = readdir(d)))
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			int child = cgfs_dir(dirfd(d), e->d_name);
			if (child >= 0) {
				rc = fn(dirfd(d), child, e->d_name, arg);
				close(child);
			}
		}
	closedir(d);
	return rc;
}

/* Leaves nested in a leaf (a nested leash's) are walked this deep. */
#define CGFS_DEPTH 8

struct cgfs_pids {
	void (*fn)(pid_t, void *);
	void *arg;
	int count, depth;
};

static int cgfs_pids_in(int dir, struct cgfs_pids *w);

static int cgfs_pids_child(int parent, int child, const char *name, void *arg)
{
	struct cgfs_pids *w = arg;

	(void)parent;
	(void)name;
	return cgfs_pids_in(child, w) < 0 && errno != ENOENT ? -1 : 0;
}

static int cgfs_pids_in(int dir, struct cgfs_pids *w)
{
	char buf[4096];
	size_t keep = 0;
	int fd, rc = 0;
	ssize_t n;

	fd = cgfs_open(dir, "cgroup.procs", O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + keep, sizeof buf - 1 - keep)) > 0) {
		buf[keep + n] = '\0';
		cgfs_parse_pids(buf, &keep, w->fn, w->arg, &w->count);
	}
	close(fd);
	if (n < 0)
		return -1;
	if (w->depth < CGFS_DEPTH) {
		w->depth++;
		rc = cgfs_each_child(dir, cgfs_pids_child, w);
		w->depth--;
	}
	return rc;
}

int cgfs_each_pid(int dir, void (*fn)(pid_t, void *), void *arg)
{
	struct cgfs_pids w = { fn, arg, 0, 0 };

	return cgfs_pids_in(dir, &w) < 0 ? -1 : w.count;
}

static int cgfs_rmdir_child(int parent, int child, const char *name, void *arg)
{
	int *depth = arg;

	if (*depth < CGFS_DEPTH) {
		++*depth;
		cgfs_each_child(child, cgfs_rmdir_child, depth);
		--*depth;
	}
	unlinkat(parent, name, AT_REMOVEDIR);
	return 0;
}

void cgfs_rmdir_below(int dir)
{
	int depth = 0;

	cgfs_each_child(dir, cgfs_rmdir_child, &depth);
}

int cgfs_rmdir(int at, const char *name, int ms)
{
	struct timespec t0, pause = { 0, 1000000 };

	clock_now(CLOCK_MONOTONIC, &t0);
	/* Exiting tasks pin a cgroup for a moment after populated 0. */
	while (unlinkat(at, name, AT_REMOVEDIR) < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno != EBUSY || clock_ms_since(CLOCK_MONOTONIC, &t0) >= ms)
			return -1;
		nanosleep(&pause, NULL);
	}
	return 0;
}
