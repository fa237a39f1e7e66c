/* SPDX-License-Identifier: ISC */
/* reportfile: a private temporary renamed into place, a file written in
 * place, or a descriptor. */
#define _GNU_SOURCE
#include "report/reportfile.h"
#include "report/safedir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <linux/fs.h>, kernel ABI: swap the two names. */
#define RENAME_EXCHANGE_FLAG (1 << 1)

/* The umask, which only umask(2) tells: read at option time, while
 * leash has one thread. */
static mode_t umask_now(void)
{
	mode_t m = umask(077);

	umask(m);
	return m;
}

/* BASE.XXXXXX in DIR, mode 0600 whatever the umask: nobody else may
 * write or read it before it is complete (the final mode comes then).
 * O_EXCL never follows a link put there.  The six letters come from the
 * kernel's AT_RANDOM bytes and the pid (no clock: musl's first vDSO call
 * faults in two pages); EEXIST tries other letters. */
static int make_temp(struct reportfile *f)
{
	static const char abc[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const unsigned char *seed = (const void *)getauxval(AT_RANDOM);
	unsigned long long r = (unsigned long long)getpid() << 32;
	size_t n = strlen(f->base);
	struct stat st;

	if (!(f->tmp = malloc(n + 8)))
		return -1;
	memcpy(f->tmp, f->base, n);
	memcpy(f->tmp + n, ".XXXXXX", 8);
	/* A shell's > mode, but never writable by others whatever the
	 * umask: a leftover of the command could rewrite the outcome. */
	f->mode = 0644 & ~umask_now();
	for (int i = 0; seed && i < 8; i++)
		r ^= (unsigned long long)seed[i] << (8 * i);
	for (int tries = 0; tries < 100; tries++) {
		for (int i = 0; i < 6; i++, r /= 62)
			f->tmp[n + 1 + i] = abc[r % 62];
		f->fd = openat(f->dir, f->tmp, O_WRONLY | O_CREAT | O_EXCL |
			       O_NOFOLLOW | O_CLOEXEC, 0600);
		if (f->fd >= 0 || errno != EEXIST)
			break;
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		r ^= r >> 29;
	}
	if (f->fd >= 0 && fstat(f->fd, &st) == 0) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		return 0;
	}
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->tmp);
	f->tmp = NULL;
	return -1;
}

/* N from "N" (digits only), or -1. */
static int fd_number(const char *num)
{
	char *end;
	long n;

	if (*num < '0' || *num > '9')
		return -1;
	n = strtol(num, &end, 10);
	return *end || n > 1 << 20 ? -1 : (int)n;
}

/* The descriptor a name stands for, as a shell's redirection reads
 * /dev/stdout or /dev/fd/N (and as the kernel's /proc/self/fd links
 * behind them lead): -1 when NAME is none of them. */
static int descriptor_named(const char *name)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	const char *rest;
	char *end;
	long pid;

	if (!strcmp(name, "/dev/stdin"))
		return 0;
	if (!strcmp(name, "/dev/stdout"))
		return 1;
	if (!strcmp(name, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < 2; i++)
		if (!strncmp(name, dirs[i], strlen(dirs[i])))
			return fd_number(name + strlen(dirs[i]));
	/* /proc/PID/fd/N, PID leash's own (asked only then). */
	if (strncmp(name, "/proc/", 6) || name[6] < '1' || name[6] > '9')
		return -1;
	pid = strtol(name + 6, &end, 10);
	rest = end;
	if (strncmp(rest, "/fd/", 4) || pid != (long)getpid())
		return -1;
	return fd_number(rest + 4);
}

/* The descriptor PATH leads to through symbolic links (a link to
 * /dev/stdout), or -1: a few links deep, each read as the kernel would
 * (relative to the link's own directory). */
static int descriptor_behind(const char *path)
{
	char cur[PATH_MAX], to[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof cur)
		return -1;
	memcpy(cur, path, len + 1);
	for (int depth = 0; depth < 8; depth++) {
		int fd = descriptor_named(cur);
		ssize_t k;
		char *slash;

		if (fd >= 0)
			return fd;
		if ((k = readlink(cur, to, sizeof to - 1)) < 0)
			return -1;
		to[k] = '\0';
		slash = strrchr(cur, '/');
		len = to[0] == '/' || !slash ? 0 : (size_t)(slash + 1 - cur);
		if (len + (size_t)k >= sizeof cur)
			return -1;
		memcpy(cur + len, to, (size_t)k + 1);
	}
	return -1;
}

/* Written in place through a copy of descriptor FD (close-on-exec; the
 * command keeps FD as it was given): the same open file, so a file
 * behind /dev/stdout gets the report after what the command wrote. */
static int in_place_fd(struct reportfile *f, int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	if ((fl & O_ACCMODE) == O_RDONLY)
		return errno = EBADF, -1;
	f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	f->own_fd = f->fd >= 0;
	return f->fd < 0 ? -1 : 0;
}

/* F->dir and F->base from F->path, the directory and each one above it
 * checked (safedir.h): every later step goes through its descriptor,
 * so a directory renamed or replaced meanwhile does not move the
 * report. */
static int open_dir(struct reportfile *f)
{
	const char *slash = strrchr(f->path, '/');
	char dir[PATH_MAX];
	size_t n = slash ? (size_t)(slash - f->path) : 0;

	f->base = slash ? slash + 1 : f->path;
	if (n >= sizeof dir)
		return errno = ENAMETOOLONG, -1;
	memcpy(dir, f->path, n);
	if (slash && n == 0)
		dir[n++] = '/';
	else if (!slash)
		dir[n++] = '.';
	dir[n] = '\0';
	f->dir = safedir_open(dir, &f->shared);
	return f->dir < 0 ? -1 : 0;
}

/* What is at the path decides how it is written.  A symbolic link to a
 * regular file (or to nothing) is replaced as a file would be. */
static int open_at_path(struct reportfile *f)
{
	struct stat st;
	int fd;

	if (fstatat(f->dir, f->base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? make_temp(f) : -1;
	if (S_ISLNK(st.st_mode)) {
		if ((fd = descriptor_behind(f->path)) >= 0)
			return in_place_fd(f, fd);
		if (fstatat(f->dir, f->base, &st, 0) < 0)
			return errno == ENOENT ? make_temp(f) : -1;
		if (S_ISREG(st.st_mode))
			return make_temp(f);
	}
	if (S_ISDIR(st.st_mode))
		return errno = EISDIR, -1;
	if (S_ISREG(st.st_mode))
		return make_temp(f);
	/* A device, a FIFO (waited on for a reader, as a shell's > does):
	 * opened now, written in place. */
	f->fd = openat(f->dir, f->base, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	f->own_fd = f->fd >= 0;
	return f->fd < 0 ? -1 : 0;
}

int reportfile_open(struct reportfile *f, const char *path)
{
	size_t n = strlen(path);
	int fd;

	*f = (struct reportfile){ .fd = -1, .dir = -1, .path = path };
	if (n == 0)
		return errno = ENOENT, -1;
	if (path[n - 1] == '/')
		return errno = EISDIR, -1;
	if ((fd = descriptor_named(path)) >= 0) {
		if (in_place_fd(f, fd) < 0)
			goto fail;
		return 0;
	}
	if (open_dir(f) < 0 || open_at_path(f) < 0)
		goto fail;
	/* Written in place: the directory is needed no more. */
	if (!f->tmp) {
		close(f->dir);
		f->dir = -1;
	}
	return 0;
fail:
	fd = errno;
	reportfile_abort(f);
	return errno = fd, -1;
}

int reportfile_use_fd(struct reportfile *f, int fd)
{
	int fl = fcntl(fd, F_GETFL);

	*f = (struct reportfile){ .fd = -1, .dir = -1 };
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
		unlinkat(f->dir, f->tmp, 0);
		free(f->tmp);
		f->tmp = NULL;
	}
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	if (f->dir >= 0)
		close(f->dir);
	f->fd = f->dir = -1;
	f->own_fd = false;
}

/* The temporary takes PATH's place.  Swapped with the old file, which is
 * then removed: a plain rename over an existing file makes ext4 (and
 * btrfs) write the new data out at once (auto_da_alloc), which costs a
 * launch more than the rest of the report, and a data block that the
 * next report's rename frees again.  No old file, or no RENAME_EXCHANGE
 * here (kernel before 3.15, a filesystem without it): rename.  Readers
 * see the old file or the whole new one either way.  Both names are
 * taken in the directory opened and checked at the start. */
static int put_in_place(struct reportfile *f)
{
	struct stat st;

	/* The inode leash wrote, and nothing put under its name since. */
	if (fstatat(f->dir, f->tmp, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	if (st.st_dev != f->dev || st.st_ino != f->ino) {
		f->shared = SAFEDIR_DIR;
		return errno = EPERM, -1;
	}
	if (syscall(SYS_renameat2, f->dir, f->tmp, f->dir, f->base,
		    RENAME_EXCHANGE_FLAG) == 0) {
		/* TMP now names the old file; a directory put at PATH
		 * since the check goes back where it was. */
		if (unlinkat(f->dir, f->tmp, 0) < 0 && errno == EISDIR) {
			syscall(SYS_renameat2, f->dir, f->tmp, f->dir, f->base,
				RENAME_EXCHANGE_FLAG);
			return errno = EISDIR, -1;
		}
		return 0;
	}
	if (errno != ENOENT && errno != EINVAL && errno != ENOSYS &&
	    errno != EPERM)
		return -1;
	return renameat(f->dir, f->tmp, f->dir, f->base);
}

int reportfile_commit(struct reportfile *f, const char *buf, size_t n)
{
	int err;

	if (f->fd < 0)
		return 0;
	if (write_all(f->fd, buf, n) < 0)
		goto fail;
	if (!f->own_fd && !f->tmp) {
		f->fd = -1;             /* --report-fd: the caller's */
		return 0;
	}
	/* Complete: now the mode a shell's > gives. */
	if (f->tmp && f->mode != 0600 && fchmod(f->fd, f->mode) < 0)
		goto fail;
	/* close reports a delayed write error (NFS, quota). */
	err = close(f->fd);
	f->fd = -1;
	f->own_fd = false;
	if (err < 0 || (f->tmp && put_in_place(f) < 0))
		goto fail;
	free(f->tmp);
	f->tmp = NULL;
	reportfile_abort(f);
	return 0;
fail:
	err = errno;
	reportfile_abort(f);
	return errno = err, -1;
}
