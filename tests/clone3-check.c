/* SPDX-License-Identifier: ISC */
/* clone3-check: lib/spawn/clone3.c's fork into a cgroup, on this architecture
 * (and under qemu-user for the cross builds):
 *   clone3-check DIR   start a child in the cgroup2 directory DIR
 * Prints "clone3: ENOSYS" (or EPERM, E2BIG) and exits 3 when the kernel
 * or emulator has no clone3 (leash then forks and joins), else checks
 * that the child runs on its own copy of memory and stack, sees the
 * right parent and starts in DIR, prints "clone3: born in PATH" (the
 * child's cgroup2 path from /proc/self/cgroup) and exits 0; 1 on any
 * failure.  The library file is compiled in (one source per helper). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/spawn/clone3.c"
#include "../lib/signal/sigraw.c"

static volatile int shared = 1;

/* The child's report: what it saw, through a pipe. */
struct seen {
	int shared, local, ppid_ok;
	char cgroup[1024];
};

static void own_cgroup(char *buf, size_t len)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "re");

	buf[0] = '\0';
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + 3);
		}
	if (f)
		fclose(f);
}

/* A few frames deep, so the child returns through a real call chain. */
static __attribute__((noinline)) pid_t start(int fd, int *local)
{
	int mine = 42;
	pid_t pid = clone3_into(fd);

	*local = mine;
	return pid;
}

int main(int argc, char **argv)
{
	struct seen s = { 0 };
	int p[2], fd, local = 0, status;
	pid_t parent = getpid(), pid;

	if (argc != 2 || pipe(p) < 0) {
		fputs("usage: clone3-check CGROUP2-DIR\n", stderr);
		return 2;
	}
	fd = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	pid = start(fd, &local);
	if (pid == 0) {
		s.shared = shared;
		shared = 99;            /* must not reach the parent */
		s.local = local;
		s.ppid_ok = getppid() == parent;
		own_cgroup(s.cgroup, sizeof s.cgroup);
		_exit(write(p[1], &s, sizeof s) == sizeof s ? 0 : 1);
	}
	if (pid < 0) {
		if (errno == ENOSYS || errno == EPERM || errno == E2BIG) {
			printf("clone3: %s\n", errno == ENOSYS ? "ENOSYS" :
			       errno == EPERM ? "EPERM" : "E2BIG");
			return 3;
		}
		printf("clone3: failed: %s\n", strerror(errno));
		return 1;
	}
	if (read(p[0], &s, sizeof s) != sizeof s ||
	    waitpid(pid, &status, 0) != pid || status != 0) {
		puts("clone3: the child did not report");
		return 1;
	}
	if (s.shared != 1 || shared != 1 || s.local != 42 || !s.ppid_ok ||
	    local != 42) {
		printf("clone3: wrong state: child saw shared=%d local=%d "
		       "ppid_ok=%d; parent has shared=%d local=%d\n",
		       s.shared, s.local, s.ppid_ok, shared, local);
		return 1;
	}
	printf("clone3: born in %s\n", s.cgroup);
	return 0;
}
