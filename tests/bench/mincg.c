/* SPDX-License-Identifier: ISC */
/* mincg: the floor of leash's cgroup step, what any launcher that puts
 * a command in DESIGN.md's groups has to ask of the kernel, and nothing
 * else: make the per-launch leaf, start the child in it (clone3 into
 * the leaf's directory where the kernel allows, else fork and write "0"
 * to its cgroup.procs), on a hybrid host also write "0" to the v1 uid
 * group's tasks (the child's one thread: the cheapest move the kernel
 * has), exec, supervise as minsup does, remove the leaf.
 *   mincg V1GROUP|- V2PARENT CMD...
 * The groups are leash's own (the bench's -u nobody rows use them), so
 * both pay for the same hierarchy; they are made when missing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* The first launch only: mkdir -p of the groups (EEXIST is fine). */
static void make_parents(const char *dir)
{
	char p[4096];

	snprintf(p, sizeof p, "%s", dir);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static int join(const char *dir, const char *file)
{
	char p[4200];
	int fd, ok;

	snprintf(p, sizeof p, "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static pid_t start(int leaf, const char *leafdir, int *born)
{
	uint64_t args[11] = { 0 };      /* struct clone_args, VER2 */
	long pid;

	args[0] = 0x200000000ULL;       /* CLONE_INTO_CGROUP */
	args[4] = SIGCHLD;
	args[10] = (uint64_t)leaf;
	pid = syscall(SYS_clone3, args, sizeof args);
	*born = pid >= 0;
	if (pid >= 0)
		return (pid_t)pid;
	pid = fork();
	if (pid == 0 && join(leafdir, "cgroup.procs") < 0)
		_exit(126);
	return (pid_t)pid;
}

int target_mincg(int argc, char **argv)
{
	char leafdir[4200];
	int leaf, born, rc;
	pid_t pid;

	if (argc < 4)
		return 2;
	snprintf(leafdir, sizeof leafdir, "%s/run_%d", argv[2], (int)getpid());
	if (mkdir(leafdir, 0755) < 0) {
		make_parents(argv[2]);
		if (strcmp(argv[1], "-"))
			make_parents(argv[1]);
		if (mkdir(leafdir, 0755) < 0)
			return 125;
	}
	leaf = open(leafdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	pid = start(leaf, leafdir, &born);
	if (pid == 0) {
		/* v1: the one thread, as leash does (no global lock). */
		if (strcmp(argv[1], "-") && join(argv[1], "tasks") < 0)
			_exit(126);
		execv(argv[3], argv + 3);
		_exit(127);
	}
	close(leaf);
	rc = minsup_supervise(pid);
	/* The reaped child no longer counts: the leaf is empty at once. */
	for (int i = 0; rmdir(leafdir) < 0 && errno == EBUSY && i < 1000; i++)
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	return rc;
}
