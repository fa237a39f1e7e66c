/* SPDX-License-Identifier: ISC */
/* cgplan-check: lib/cgplan.c's cg_set, the one writer of the cgroup
 * plan's five paths side by side in one area, against a model of five
 * separate buffers: every path keeps its full room (CGROUP_PATH_MAX - 1
 * bytes, all five at once), a path set from another path of the plan
 * reads what that one held even when it moves, the paths stay apart and
 * in order, and a launch's usual paths lie in the area's first KiB.
 * Prints "ok" and exits 0, or names the first broken property and exits
 * 1.  The library files are compiled in, since helpers are built from
 * one source file each. */
#include "../lib/cgplan.c"
#include "../lib/cgfs.c"
#include "../lib/clock.c"

#include <stdlib.h>

/* diag.c would bring the program's whole voice; cg_fail only quotes. */
const char *diag_quote(const char *s)
{
	return s;
}

static struct cgroup_plan cg;   /* 25 KiB: not on the stack */
static char model[CGROUP_PATHS][CGROUP_PATH_MAX];
static char text[CGROUP_PATH_MAX + 64];
static int failed;

static void check(bool ok, const char *what, int step)
{
	if (!ok && !failed++)
		printf("broken: %s (step %d)\n", what, step);
}

/* Every path as the model says, each right after the one before. */
static void check_all(int step)
{
	for (int i = 0; i < CGROUP_PATHS; i++) {
		check(strcmp(cg.path[i], model[i]) == 0,
		      "a path reads what was set", step);
		check(cg.path[i + 1] >= cg.path[i] + strlen(cg.path[i]) + 1,
		      "the paths lie apart, in order", step);
	}
	check(cg.path[0] == cg.paths && cg.paths_end <= cg.paths +
	      sizeof cg.paths, "the paths stay inside their area", step);
}

static unsigned long long seed = 0x2545f4914f6cdd1dULL;

static unsigned pick(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

/* A string of LEN bytes (no NUL inside) in text[]. */
static const char *filler(size_t len, char c)
{
	memset(text, c, len);
	text[len] = '\0';
	return text;
}

/* Set path ID to A[/B] in both the plan and the model. */
static void set(int step, enum cgroup_path id, const char *a, const char *b)
{
	char want[2 * CGROUP_PATH_MAX + 2];
	size_t n;
	int rc;

	snprintf(want, sizeof want, "%s%s%s", a, b ? "/" : "", b ? b : "");
	n = strlen(want);
	errno = 0;
	rc = cg_set(&cg, id, a, b);
	if (n < CGROUP_PATH_MAX) {
		check(rc == 0, "a path of up to CGROUP_PATH_MAX - 1 bytes fits",
		      step);
		memcpy(model[id], want, n + 1);
	} else {
		check(rc == -1 && errno == ENAMETOOLONG && strstr(cg.msg,
		      "too long"), "a longer path fails with a message", step);
	}
	check_all(step);
}

/* Random sets: lengths from empty to past the limit, sources from the
 * other paths (before and after ID: these move) or from outside. */
static void random_sets(void)
{
	static const char *const names[] = { NULL, "uid_65534", "leash",
		"run_12345_678901234567" };

	for (int step = 0; step < 20000 && !failed; step++) {
		/* Now and then from scratch: rooms grow again, paths move. */
		if (step % 64 == 0) {
			cg_paths_clear(&cg);
			memset(model, 0, sizeof model);
		}
		enum cgroup_path id = (enum cgroup_path)pick(CGROUP_PATHS);
		enum cgroup_path other = (enum cgroup_path)
			((id + 1 + pick(CGROUP_PATHS - 1)) % CGROUP_PATHS);
		const char *b = names[pick(4)];
		char a[CGROUP_PATH_MAX + 64];

		switch (pick(4)) {
		case 0:         /* another path of the plan */
			set(step, id, cg.path[other], b);
			continue;
		case 1:         /* another path, joined to a third one */
			if (other != (id + 1) % CGROUP_PATHS && b) {
				set(step, id, cg.path[other],
				    cg.path[(id + 1) % CGROUP_PATHS]);
				continue;
			}
			break;
		case 2:         /* near the limit */
			strcpy(a, filler(CGROUP_PATH_MAX - 12 + pick(24),
					 (char)('a' + pick(26))));
			set(step, id, a, b);
			continue;
		}
		strcpy(a, filler(pick(300), (char)('A' + pick(26))));
		set(step, id, a, pick(8) ? b : NULL);
	}
}

int main(void)
{
	cg_paths_clear(&cg);
	memset(model, 0, sizeof model);
	check_all(-1);
	/* A launch's sets, as cg_fast_find and cg_make_leaf make them. */
	set(-2, CGROUP_LEAF_TOP, "/sys/fs/cgroup/unified", "leash");
	set(-3, CGROUP_LEAF_UID, cg.leaf_top, "uid_65534");
	set(-4, CGROUP_CPU_TOP, cg.leaf_top, NULL);
	set(-5, CGROUP_CPU_UID, cg.leaf_uid, NULL);
	set(-6, CGROUP_LEAF, cg.leaf_uid, "run_1_2");
	check(cg.paths_end <= cg.paths + 1024,
	      "a launch's usual paths lie in the area's first KiB", -6);
	/* All five at their longest at once, then one byte more. */
	for (int i = 0; i < CGROUP_PATHS; i++)
		set(-7 - i, (enum cgroup_path)i,
		    filler(CGROUP_PATH_MAX - 1, (char)('0' + i)), NULL);
	set(-12, CGROUP_LEAF_UID, filler(CGROUP_PATH_MAX, 'x'), NULL);
	set(-13, CGROUP_LEAF_TOP, "", NULL);
	set(-14, CGROUP_LEAF_TOP, cg.leaf, NULL);    /* the last moves */
	random_sets();
	cg_paths_clear(&cg);
	memset(model, 0, sizeof model);
	check_all(-15);
	if (failed)
		return 1;
	puts("ok");
	return 0;
}
