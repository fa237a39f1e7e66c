/* SPDX-License-Identifier: ISC */
/* glob: fnmatch(3) with FNM_PATHNAME, in bytes (the language is in
 * glob.h).  A path and its pattern are cut at their slashes into parts,
 * matched part against part: no byte of a path's part is a /, so * and ?
 * need no rule of their own for one. */
#include "sys/glob.h"

#include <string.h>

/* The ] closing the bracket expression whose [ is at P, or NULL.  A ]
 * first in the set (after ! or ^) is a member; \x is x. */
static const char *g_close(const char *p)
{
	p++;
	p += *p == '!' || *p == '^';
	p += *p == ']';
	for (; *p && *p != ']'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p : NULL;
}

/* The byte at *P (\x is x), *P past it. */
static unsigned char g_byte(const char **p)
{
	if (**p == '\\' && (*p)[1])
		++*p;
	return (unsigned char)*(*p)++;
}

/* Is C in the set from P (past the [) to END (its ])? */
static bool g_in_set(const char *p, const char *end, unsigned char c)
{
	bool neg = *p == '!' || *p == '^', in = false;

	p += neg;
	do {	/* do: a ] first is a member, not the end */
		unsigned char lo = g_byte(&p), hi = lo;

		if (*p == '-' && p + 1 < end) {	/* a - before ] is itself */
			p++;
			hi = g_byte(&p);
		}
		in |= lo <= c && c <= hi;
	} while (p < end);
	return in != neg;
}

/* The item after the one at P: past a bracket expression, \x, a byte. */
static const char *g_next(const char *p)
{
	const char *end;

	if (*p == '[' && (end = g_close(p)))
		return end + 1;
	return p + 1 + (*p == '\\' && p[1]);
}

/* Does byte C match the item at *P (not *, not /)?  *P goes past it. */
static bool g_item(const char **p, unsigned char c)
{
	const char *q = *p, *end;

	*p = g_next(q);
	if (*q == '?')
		return true;
	if (*q == '[' && (end = g_close(q)))
		return g_in_set(q + 1, end, c);
	return g_byte(&q) == c;
}

/* The end of the pattern's part from P: its next / or \/, or its NUL. */
static const char *g_part_end(const char *p)
{
	while (*p && *p != '/' && !(*p == '\\' && p[1] == '/'))
		p = g_next(p);
	return p;
}

/* Does a path's part [S, SE) match a pattern's part [P, PE)?  A * takes
 * nothing at first, one byte more each time what follows fails.  Only
 * the last * seen grows: whatever an earlier one would take, the later
 * one can take as well (no / is there to stop it). */
static bool g_part(const char *p, const char *pe, const char *s, const char *se)
{
	const char *star = NULL, *star_s = NULL, *q;

	for (;;) {
		if (p < pe && *p == '*') {
			star = ++p;
			star_s = s;
			continue;
		}
		q = p;
		if (p < pe && s < se && g_item(&q, (unsigned char)*s)) {
			p = q;
			s++;
		} else if (p == pe && s == se) {
			return true;
		} else if (!star || star_s == se) {
			return false;
		} else {
			p = star;
			s = ++star_s;
		}
	}
}

bool glob_match(const char *pattern, const char *path)
{
	for (;;) {
		const char *pe = g_part_end(pattern);
		const char *se = path + strcspn(path, "/");

		if (!g_part(pattern, pe, path, se))
			return false;
		if (!*pe || !*se)
			return !*pe && !*se;
		pattern = g_next(pe);
		path = se + 1;
	}
}

/* Why the set from Q (past the [) to END (its ]) is refused, or NULL. */
static const char *g_check_set(const char *q, const char *end)
{
	for (; q < end; q++) {
		bool escaped = *q == '\\';

		q += escaped;
		if (*q == '/')
			return "a / inside [ ] (only a / matches a /)";
		if (!escaped && *q == '[' && strchr(":.=", q[1]))
			return "[:class:], [.x.] and [=x=] are not supported "
			       "(ranges such as [0-9] are)";
	}
	return NULL;
}

const char *glob_check(const char *pattern)
{
	const char *p, *end, *why;

	for (p = pattern; *p; p = g_next(p)) {
		if (*p == '\\' && !p[1])
			return "a lone \\ at its end (\\\\ matches a \\)";
		if (*p != '[')
			continue;
		if (!(end = g_close(p)))
			return "a [ without its ] (\\[ matches a [)";
		if ((why = g_check_set(p + 1, end)))
			return why;
	}
	return NULL;
}
