/* SPDX-License-Identifier: ISC */
/* cgvandal: remove cgroups as fast as it can, to race leash's
 * create-or-join.  Until STOPFILE exists: rmdir every run_* directory in
 * LEAFDIR, then every DIR in order (all failing with EBUSY while in use),
 * then make the DIRs again in reverse order, so launches see both
 * missing and freshly made groups.  Prints how many rmdirs succeeded.
 *   cgvandal STOPFILE LEAFDIR DIR... */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long sweep_leaves(const char *dir)
{
	char path[4096];
	struct dirent *e;
	long n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "run_", 4) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		n += rmdir(path) == 0;
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	long leaves = 0, groups = 0, rounds = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: cgvandal STOPFILE LEAFDIR DIR...\n");
		return 2;
	}
	while (access(argv[1], F_OK) != 0) {
		leaves += sweep_leaves(argv[2]);
		for (int i = 3; i < argc; i++)
			groups += rmdir(argv[i]) == 0;
		/* Every other round, put them back (parents first). */
		if (rounds++ % 2)
			for (int i = argc - 1; i >= 3; i--)
				mkdir(argv[i], 0755);
	}
	printf("rounds=%ld leaves=%ld groups=%ld\n", rounds, leaves, groups);
	return 0;
}
