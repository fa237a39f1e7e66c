/* SPDX-License-Identifier: ISC */
/* fuzz mountinfo: the input as /proc/self/mountinfo (a file in a
 * private tmpfs), through mountinfo_cgroups, and each of its lines
 * through mountinfo_split and mountinfo_has_token. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cgroup/mountinfo.h"

/* mountinfo.c reads 8 KiB at a time; a longer line is not a cgroup's
 * and must be dropped whole (its tail is no line of its own). */
#define LINE_MAX_BYTES 8191

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fd = fuzz_file("mountinfo");
	snprintf(path, sizeof path, "%s/mountinfo", fuzz_tmpdir());
	return 0;
}

/* Is POINT the mount point of a whole line of the input with FSTYPE? */
struct wanted {
	const char *point;
	const char *fstype;
	bool found;
};

static void check_line(const char *line, size_t len, struct wanted *w,
		       size_t nw)
{
	char *copy = fuzz_cstr((const uint8_t *)line, len);
	struct mountinfo_entry e;

	if (mountinfo_split(copy, &e) == 0) {
		FUZZ_ASSERT(e.root && e.point && e.fstype && e.superopts);
		FUZZ_ASSERT(!strchr(e.fstype, ' ') && !strchr(e.superopts, ' '));
		mountinfo_has_token(e.superopts, ',', "cpu");
		for (size_t i = 0; len <= LINE_MAX_BYTES && i < nw; i++)
			if (w[i].point[0] && !strcmp(e.fstype, w[i].fstype) &&
			    !strcmp(e.point, w[i].point))
				w[i].found = true;
	} else {
		FUZZ_ASSERT(errno == EINVAL);
	}
	free(copy);
}

/* The kernel writes space, tab, newline and backslash of a path as
 * \ooo: a path so written splits back to itself. */
static void check_escapes(const uint8_t *data, size_t size)
{
	char line[4 * 256 * 2 + 64], enc[4 * 256 + 1], *o = enc, *x;
	struct mountinfo_entry e;

	size = size > 255 ? 255 : size;
	x = malloc(size + 2);
	x[0] = '/';     /* paths are absolute: never a lone " - " */
	memcpy(x + 1, data, size);
	x[size + 1] = '\0';
	for (const char *p = x; *p; p++)
		if (strchr(" \t\n\\", *p))
			o += sprintf(o, "\\%03o", (unsigned char)*p);
		else
			*o++ = *p;
	*o = '\0';
	snprintf(line, sizeof line, "1 2 0:1 %s %s rw - cgroup2 none rw", enc, enc);
	FUZZ_ASSERT(mountinfo_split(line, &e) == 0);
	FUZZ_ASSERT(!strcmp(e.root, x) && !strcmp(e.point, x));
	free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mountinfo_cgroups m;
	const char *p = (const char *)data, *end = p + size;

	check_escapes(data, size);
	fuzz_put(fd, data, size);
	memset(&m, 'x', sizeof m);
	FUZZ_ASSERT(mountinfo_cgroups(path, &m) == 0);
	FUZZ_ASSERT(memchr(m.v1cpu, '\0', sizeof m.v1cpu));
	FUZZ_ASSERT(memchr(m.v2, '\0', sizeof m.v2));
	FUZZ_ASSERT(m.v2[0] || !m.v2cpu);

	struct wanted w[] = {
		{ m.v1cpu, "cgroup", false }, { m.v2, "cgroup2", false },
	};
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* A NUL ends the line for the lib (strchr); split sees as much. */
		const char *nul = memchr(p, '\0', len);

		check_line(p, nul ? (size_t)(nul - p) : len, w, 2);
		p += len + 1;
	}
	/* A hierarchy found comes from one whole line of the input (item 9:
	 * the tail of a long line was taken for one; skip: long-lines). */
	for (size_t i = 0; i < 2 && !fuzz_skip("long-lines"); i++)
		FUZZ_ASSERT(!w[i].point[0] || w[i].found);
	return 0;
}
