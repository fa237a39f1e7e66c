/* SPDX-License-Identifier: ISC */
/* reportfile: a temporary file renamed into place, or a descriptor. */
#define _GNU_SOURCE
#include "reportfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <linux/fs.h>, kernel ABI: swap the two names. */
#define RENAME_EXCHANGE_FLAG (1 << 1)

/* PATH.XXXXXX, made with the mode a shell's > gives (0666 less the
 * umask; a default ACL applies), so no fchmod follows as after mkstemp's
 * 0600; openat, since musl's open adds an fcntl.  The six letters come
 * from the kernel's AT_RANDOM bytes and the pid (no clock: musl's first
 * vDSO call faults in two pages); EEXIST tries other letters. */
static int make_temp(char *tmp, size_t n)
{
	static const char abc[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const unsigned char *seed = (const void *)getauxval(AT_RANDOM);
	unsigned long long r = (unsigned long long)getpid() << 32;

	for (int i = 0; seed && i < 8; i++)
		r ^= (unsigned long long)seed[i] << (8 * i);
	for (int tries = 0; tries < 100; tries++) {
		int fd;

		for (int i = 0; i < 6; i++, r /= 62)
			tmp[n + 1 + i] = abc[r % 62];
		fd = openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		r ^= r >> 29;
	}
	return -1;
}

int reportfile_open(struct reportfile *f, const char *path)
{
	struct stat st;
	size_t n = strlen(path);

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
	f->fd = make_temp(f->tmp, n);
	if (f->fd < 0) {
		int err = errno;
		free(f->tmp);
		f->tmp = NULL;
		return errno = err, -1;
	}
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

/* The temporary takes PATH's place.  Swapped with the old file, which is
 * then removed: a plain rename over an existing file makes ext4 (and
 * btrfs) write the new data out at once (auto_da_alloc), which costs a
 * launch more than the rest of the report, and a data block that the
 * next report's rename frees again.  No old file, or no RENAME_EXCHANGE
 * here (kernel before 3.15, a filesystem without it): rename.  Readers
 * see the old file or the whole new one either way. */
static int put_in_place(const char *tmp, const char *path)
{
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path,
		    RENAME_EXCHANGE_FLAG) == 0) {
		/* TMP now names the old file; a directory put at PATH
		 * since the check goes back where it was. */
		if (unlink(tmp) < 0 && errno == EISDIR) {
			syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path,
				RENAME_EXCHANGE_FLAG);
			return errno = EISDIR, -1;
		}
		return 0;
	}
	if (errno != ENOENT && errno != EINVAL && errno != ENOSYS &&
	    errno != EPERM)
		return -1;
	return rename(tmp, path);
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
	if (err < 0 || put_in_place(f->tmp, f->path) < 0)
		goto fail;
	free(f->tmp);
	f->tmp = NULL;
	return 0;
fail:
	err = errno;
	reportfile_abort(f);
	return errno = err, -1;
}
