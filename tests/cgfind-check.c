/* SPDX-License-Identifier: ISC */
/* cgfind-check: the cgroup search's fast path (lib/cgroup/cgfind.c's
 * cg_fast_find: the uid groups where they usually are, no mountinfo)
 * against its full path (cg_find_tops from /proc/self/mountinfo, then
 * cg_plan_uids), in the mount namespace it runs in:
 *   cgfind-check [--track] UID
 * prints "fast: none" when the fast path hands over to the full one, or
 * "fast: " and what it found, then "full: " and what the full path
 * plans (version, cpu_top, cpu_uid, leaf_top, leaf_uid), and exits 1
 * when the fast path found something the full path does not plan the
 * same way.  tests/cgroup-fast.bats runs it in many layouts.  The
 * library files are compiled in, since helpers are built from one
 * source file each. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cgroup/cgfind.c"
#include "../lib/cgroup/cgplan.c"
#include "../lib/cgroup/cgmsg.c"
#include "../lib/cgroup/cgfs.c"
#include "../lib/cgroup/mountinfo.c"
#include "../lib/sys/readfile.c"
#include "../lib/sys/quote.c"

/* lib/diag/diag.c's quoting, without leash's diagnostics. */
const char *diag_quote_to(char *buf, size_t size, const char *s)
{
	(void)buf;
	(void)size;
	return s;
}

static void describe(const struct cgroup_plan *cg, char *out, size_t size)
{
	snprintf(out, size, "version=%d cpu_top=%s cpu_uid=%s leaf_top=%s "
		 "leaf_uid=%s", cg->version, cg->cpu_top, cg->cpu_uid,
		 cg->leaf_top, cg->leaf_uid);
}

int main(int argc, char **argv)
{
	static struct cgroup_plan fast, full;
	static char a[5 * CGROUP_PATH_MAX + 128], b[sizeof a];
	enum cgroup_mode mode = CGROUP_AUTO;
	char name[32];
	uid_t uid;

	if (argc == 3 && !strcmp(argv[1], "--track")) {
		mode = CGROUP_TRACK;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: cgfind-check [--track] UID\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);

	fast.mode = full.mode = mode;
	cg_reset(&fast);
	cg_reset(&full);
	if (cg_fast_find(&fast, name) != 0) {
		puts("fast: none");
		return 0;
	}
	describe(&fast, a, sizeof a);
	printf("fast: %s\n", a);
	if (cg_find_tops(&full) < 0 || cg_plan_uids(&full, uid) < 0) {
		printf("full: failed: %s\n", full.msg);
		return 1;
	}
	describe(&full, b, sizeof b);
	printf("full: %s\n", b);
	return strcmp(a, b) != 0;
}
