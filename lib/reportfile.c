/* SPDX-License-Identifier: ISC */
/* reportfile: a temporary file renamed into place, or a descriptor. */
#define _GNU_SOURCE
#include "reportfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int reportfile_open(struct reportfile *f, const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	mode_t mask;

	f->fd = -1;
	f->path = path;
	if (n == 0)
		return errno = ENOENT, -1;
	if ((stat(path, &st) == 0 && S_ISDIR(st.st_mode)) || path[n - 1] == '/')
		return errno = EISDIR, -1;
	if (!(f->tmp = malloc(n + 8)))
		return -1;
	memcpy(f->tmp, path, n);
	memcpy(f->tmp + n, ".XXXXXX", 8);
	f->fd = mkostemp(f->tmp, O_CLOEXEC);
	if (f->fd < 0) {
		int err = errno;
		free(f->tmp);
		f->tmp = NULL;
		return errno = err, -1;
	}
	/* mkstemp makes it 0600: give it the mode a shell's > would. */
	mask = umask(0);
	umask(mask);
	fchmod(f->fd, 0666 & ~mask);
	return 0;
}

int reportfile_use_fd(struct reportfile *f, int fd)
{
	int fl = fcntl(fd, F_GETFL);

	f->fd = -1;
	f->path = NULL;
	f->tmp = NULL;
	if (fl < 0)
		return -1;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return errno = EBADF, -1;
	if (fd > 2 && fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return -1;
	f->fd = fd;
	return 0;
}

static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, buf, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return errno = EIO, -1;
		buf += k;
		n -= (size_t)k;
	}
	return 0;
}

void reportfile_abort(struct reportfile *f)
{
	if (f->tmp) {
		unlink(f->tmp);
		free(f->tmp);
		f->tmp = NULL;
	}
	if (f->path && f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int reportfile_commit(struct reportfile *f, const char *buf, size_t n)
{
	int err;

	if (f->fd < 0)
		return 0;
	if (write_all(f->fd, buf, n) < 0)
		goto fail;
	if (!f->path) {
		f->fd = -1;
		return 0;
	}
	/* close reports a delayed write error (NFS, quota). */
	err = close(f->fd);
	f->fd = -1;
	if (err < 0 || rename(f->tmp, f->path) < 0)
		goto fail;
	free(f->tmp);
	f->tmp = NULL;
	return 0;
fail:
	err = errno;
	reportfile_abort(f);
	return errno = err, -1;
}
