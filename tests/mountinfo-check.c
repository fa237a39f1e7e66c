/* SPDX-License-Identifier: ISC */
/* mountinfo-check: run lib/mountinfo.c's discovery on a crafted
 * mountinfo file and print what it found:
 *   mountinfo-check FILE   ->  v1cpu=PATH / v2=PATH lines
 * statfs() is faked for paths under /fake/: /fake/v1... is cgroup v1,
 * /fake/v2... cgroup2, anything else under /fake/ tmpfs; other paths
 * are real.  The library file is compiled in, since helpers are built
 * from one source file each. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/statfs.h>

static int fake_statfs(const char *path, struct statfs *sf);
/* Only calls are redirected: `struct statfs` stays the real type. */
#define statfs(p, b) fake_statfs(p, b)
#include "../lib/mountinfo.c"
#undef statfs

static int fake_statfs(const char *path, struct statfs *sf)
{
	if (strncmp(path, "/fake/", 6) != 0)
		return statfs(path, sf);
	memset(sf, 0, sizeof *sf);
	if (strncmp(path, "/fake/v1", 8) == 0)
		sf->f_type = MOUNTINFO_CGROUP1_MAGIC;
	else if (strncmp(path, "/fake/v2", 8) == 0)
		sf->f_type = MOUNTINFO_CGROUP2_MAGIC;
	else
		sf->f_type = 0x01021994;        /* tmpfs */
	return 0;
}

int main(int argc, char **argv)
{
	struct mountinfo_cgroups m;

	if (argc != 2) {
		fprintf(stderr, "usage: mountinfo-check FILE\n");
		return 2;
	}
	if (mountinfo_cgroups(argv[1], &m) < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("v1cpu=%s\nv2=%s\n", m.v1cpu, m.v2);
	return 0;
}
