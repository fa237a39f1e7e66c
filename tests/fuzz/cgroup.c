/* SPDX-License-Identifier: ISC */
/* fuzz cgroup: the cgroupfs files leash reads, all holding the input:
 * cgroup.events and cgroup.stat (cgfs_key, cgfs_wait_event),
 * cgroup.procs (cgfs_each_pid), cgroup.controllers and
 * cgroup.subtree_control (readfile_at, mountinfo_has_token), and
 * /proc/PID/stat (proc_start, with a file bound over /proc/1/stat
 * in a private mount namespace). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "sys/proc.h"
#include "sys/readfile.h"
#include "common.h"
#include "cgroup/mountinfo.h"

static int fd[1];
static const char *dir;
static int dfd = -1;
static int have_stat;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const files[] = { "/proc/1/stat", NULL };
	static const char *const names[] = {
		"cgroup.events", "cgroup.stat", "cgroup.procs",
		"cgroup.controllers", "cgroup.subtree_control",
	};
	int tmp;

	(void)argc, (void)argv;
	fuzz_setup(files, fd);
	dir = fuzz_tmpdir();
	have_stat = fd[0] >= 0;
	if (!have_stat) {
		fprintf(stderr, "fuzz: cannot bind over /proc/1/stat: "
			"proc_start is not fuzzed\n");
		fd[0] = fuzz_file("overlay0");
	}
	/* One inode under every name: one write per input feeds them all. */
	tmp = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (linkat(tmp, "overlay0", tmp, names[i], 0) < 0)
			fuzz_fail(__FILE__, __LINE__, "linkat");
	close(tmp);
	/* The cgfs calls take a directory descriptor. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		fuzz_fail(__FILE__, __LINE__, "open dir");
	return 0;
}

static void count_pid(pid_t pid, void *arg)
{
	(void)pid;
	++*(int *)arg;
}

/* readfile_at into exactly SIZE bytes: ASan sees a write past them. */
static void read_sized(size_t size)
{
	char *buf = malloc(size);
	ssize_t n = readfile_at(dfd, "cgroup.controllers", buf, size);

	FUZZ_ASSERT(n >= 0 && (size_t)n < size);
	FUZZ_ASSERT(buf[n] == '\0');
	mountinfo_has_token(buf, ' ', "cpu");
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {
		"populated", "frozen", "nr_descendants", "nr_dying_descendants",
	};
	char buf[256];
	int calls = 0, n;

	fuzz_put(fd[0], data, size);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		/* Any long is a value (the kernel writes no negative ones). */
		cgfs_key(dfd, "cgroup.events", keys[i]);
		cgfs_wait_event(dfd, keys[i], 1, 0);
	}
	n = cgfs_each_pid(dfd, count_pid, &calls);
	FUZZ_ASSERT(n == calls);
	read_sized(1 + (size ? data[0] : 0));
	FUZZ_ASSERT(readfile_at(dfd, "cgroup.subtree_control", buf, sizeof buf) >= 0);
	mountinfo_has_token(buf, ' ', "cpu");
	if (have_stat) {
		char state;

		proc_start(1, &state);
	}
	return 0;
}
