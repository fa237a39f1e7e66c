/* SPDX-License-Identifier: ISC */
/* procmount: /proc, checked to be procfs by its filesystem's magic. */
#define _GNU_SOURCE
#include "sys/procmount.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC 0x9fa0 /* <linux/magic.h> */

int procmount_open(void)
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
