/* SPDX-License-Identifier: ISC */
/* stdfd: fds 0-2 open from the start; a close that cannot be refused. */
#define _GNU_SOURCE
#include "sys/stdfd.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static unsigned closed_at_start;        /* bit N: fd N was closed */

int stdfd_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int null;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lowest free number: FD itself. */
		null = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (null < 0)
			return -1;
		if (null != fd) {
			/* Only if some other thread raced us; not in leash. */
			close(null);
			return errno = EBADF, -1;
		}
		closed_at_start |= 1u << fd;
	}
	return 0;
}

void stdfd_close_for_exec(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (closed_at_start & (1u << fd))
			close(fd);
}

void stdfd_drop(int fd)
{
	if (close(fd) == 0 || errno == EBADF || errno == EINTR)
		return;
	dup3(0, fd, O_CLOEXEC);
}
