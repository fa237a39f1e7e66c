/* SPDX-License-Identifier: ISC */
/* mountinfo-check: run lib/cgroup/mountinfo.c's discovery on a crafted
 * mountinfo file and print what it found:
 *   mountinfo-check [--android] FILE   ->  v1cpu=PATH / v2=PATH lines
 * statfs() is faked for paths under /fake/: /fake/v1... is cgroup v1,
 * /fake/v2... cgroup2, anything else under /fake/ tmpfs; with --android
 * also Android's own mount points (cgroups.json: /dev/cpuctl, /acct, ...
 * v1; /sys/fs/cgroup and /dev/cg2_bpf cgroup2); other paths are real.  The library file is compiled in, since helpers are built
 * from one source file each. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/statfs.h>

static int fake_statfs(const char *path, struct statfs *sf);
/* Only calls are redirected: `struct statfs` stays the real type. */
#define statfs(p, b) fake_statfs(p, b)
#include "../lib/cgroup/mountinfo.c"
#include "../lib/sys/readfile.c"
#undef statfs

static int android;

/* Android's mount points, as its init makes them: 1 v1, 2 cgroup2. */
static int android_kind(const char *path)
{
	static const char *const v1[] = { "/dev/cpuctl", "/acct", "/dev/cpuset",
		"/dev/memcg", "/dev/blkio", "/dev/stune", "/dev/freezer" };

	if (!android)
		return 0;
	if (!strcmp(path, "/sys/fs/cgroup") || !strcmp(path, "/dev/cg2_bpf"))
		return 2;
	for (size_t i = 0; i < sizeof v1 / sizeof *v1; i++)
		if (!strcmp(path, v1[i]))
			return 1;
	return 0;
}

static int fake_statfs(const char *path, struct statfs *sf)
{
	int kind = android_kind(path);

	if (kind) {
		memset(sf, 0, sizeof *sf);
		sf->f_type = kind == 1 ? MOUNTINFO_CGROUP1_MAGIC :
			     MOUNTINFO_CGROUP2_MAGIC;
		return 0;
	}
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

	if (argc == 3 && !strcmp(argv[1], "--android")) {
		android = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mountinfo-check [--android] FILE\n");
		return 2;
	}
	if (mountinfo_cgroups(argv[1], &m) < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("v1cpu=%s\nv2=%s\n", m.v1cpu, m.v2);
	return 0;
}
