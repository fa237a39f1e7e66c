/* SPDX-License-Identifier: ISC */
/* minrep: the floor of --report=FILE's file, what any launcher that
 * leaves its report as leash does (a temporary beside FILE, made before
 * the command starts so a path it cannot write fails first, put in
 * FILE's place when the command has ended, so a reader sees the old
 * report or the whole new one) has to ask of the kernel: minsup's
 * launch, plus the temporary made before the fork, a report's 500 bytes
 * written after the reap, the swap with the old file and the old file's
 * removal (a plain rename where there is no old file).
 *   minrep FILE CMD... */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

#define EXCHANGE (1 << 1)       /* RENAME_EXCHANGE, <linux/fs.h> */

int target_minrep(int argc, char **argv)
{
	char tmp[4200], report[500];
	int fd, rc;

	if (argc < 3)
		return 2;
	snprintf(tmp, sizeof tmp, "%s.%d", argv[1], (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return 125;
	rc = minsup_run(argv + 2);
	memset(report, 'r', sizeof report);
	report[sizeof report - 1] = '\n';
	if (write(fd, report, sizeof report) != (ssize_t)sizeof report ||
	    close(fd) < 0)
		return 125;
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, argv[1],
		    EXCHANGE) == 0)
		return unlink(tmp) < 0 ? 125 : rc;
	return rename(tmp, argv[1]) < 0 ? 125 : rc;
}
