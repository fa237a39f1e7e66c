/* SPDX-License-Identifier: ISC */
/* readfile: a small file read whole, without stdio. */
#include "sys/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t readfile_at(int at, const char *name, char *buf, size_t size)
{
	ssize_t n = 0, got = 0;
	int fd = openat(at, name, O_RDONLY | O_CLOEXEC), saved;

	if (fd < 0)
		return -1;
	/* A short read is the end: seq_file fills the buffer while it can
	 * (and /proc/PID/stat is one record), so no read of 0 is needed. */
	while ((size_t)got < size - 1 &&
	       (n = read(fd, buf + got, size - 1 - got)) > 0) {
		got += n;
		if ((size_t)got < size - 1)
			break;
	}
	saved = errno;
	close(fd);
	buf[got] = '\0';
	if (n < 0 && got == 0) {
		errno = saved;
		return -1;
	}
	return got;
}
