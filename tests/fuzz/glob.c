/* SPDX-License-Identifier: ISC */
/* fuzz glob: glob_match, leash watch --from's matcher (lib/sys/glob.c),
 * against glibc's fnmatch(PATTERN, PATH, FNM_PATHNAME), the function it
 * stands in for.  The input is PATTERN, a NUL, PATH (to the next NUL).
 *
 * Compared: every pattern glob_check accepts, over any path.  Not
 * compared, refused at --from's parse (glob.h), each where glibc and
 * POSIX part or glibc is not even consistent with itself:
 *   an unclosed [    POSIX: a plain [; glibc: a plain [ in /a[b, but
 *                    /[s- matches nothing (its range cut by the NUL)
 *   a lone \ at the end  undefined in POSIX; glibc: matches nothing
 *   a / inside [ ]   POSIX: the [ is a plain [; glibc: a set (which
 *                    never matches a /), [a/] matching a
 *   [: [. [= in [ ]  locale classes, not supported
 * glob_match still runs on them, for what ASan and UBSan see. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sys/glob.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* With POSIXLY_CORRECT set glibc reads [^a] as ^ or a; glob.h's
	 * ^ negates, as glibc's does without it.  (No setlocale: the C
	 * locale, where glibc compares bytes, as glob.h does.) */
	unsetenv("POSIXLY_CORRECT");
	return 0;
}

/* PATTERN as glibc is to see it: each \/ outside [ ] (the only place a
 * pattern glob_check accepts has one) as /.  Both mean a /, but glibc's
 * * looks for what follows it only before the path's next /, so that
 * "*\/b" does not match "a/b" there while the same with a plain / does.
 * POSIX has a \/ match a / as a / does; glob.h does. */
static char *for_glibc(const char *pattern)
{
	char *out = fuzz_cstr((const uint8_t *)pattern, strlen(pattern)), *o = out;

	for (const char *p = pattern; *p; p++) {
		if (*p == '\\' && p[1] == '/')
			p++;
		else if (*p == '\\' && p[1])
			*o++ = *p++;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* S with a \ before each byte: a pattern that matches S alone. */
static char *escaped(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(2 * n + 1);

	if (!out)
		abort();
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = '\\';
		out[2 * i + 1] = s[i];
	}
	out[2 * n] = '\0';
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *pattern = fuzz_cstr(data, size);
	size_t n = strlen(pattern);
	const char *path = n < size ? pattern + n + 1 : "";
	const char *why = glob_check(pattern);
	bool match = glob_match(pattern, path);
	char *lit = escaped(path);

	FUZZ_ASSERT(!why || *why);
	if (!why) {
		char *ref = for_glibc(pattern);

		FUZZ_ASSERT(match == !fnmatch(ref, path, FNM_PATHNAME) ||
			    fuzz_skip("glibc-fnmatch"));
		free(ref);
	}
	/* Every byte escaped (\/ too): PATH matches itself, and only. */
	FUZZ_ASSERT(!glob_check(lit));
	FUZZ_ASSERT(glob_match(lit, path));
	FUZZ_ASSERT(glob_match(lit, pattern) == !strcmp(path, pattern));
	free(lit);
	free(pattern);
	return 0;
}
