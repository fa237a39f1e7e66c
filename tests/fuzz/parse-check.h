/* SPDX-License-Identifier: ISC */
/* parse-check: the error contract every personality's parse keeps, for
 * the parse-* harnesses (each adds its own voice's rules). */
#ifndef LEASH_FUZZ_PARSE_CHECK_H
#define LEASH_FUZZ_PARSE_CHECK_H

#include <stdbool.h>
#include <string.h>

#include "common.h"
#include "parse.h"

static inline bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* No error: nothing said.  An error: said, with STATUS, and glibc's line
 * (if any) whole and in PROG's voice ("PROG: ...\n").  True on an error. */
static inline bool parse_check_error(int r, const struct parse_error *e,
				     const char *prog, int status)
{
	if (r != PARSE_ERROR) {
		FUZZ_ASSERT(!e->getopt && !e->diag[0] && !e->diag[1] && !e->try_help);
		return false;
	}
	FUZZ_ASSERT(parse_error_said(e) && e->status == status);
	if (e->getopt) {
		size_t n = strlen(e->getopt), k = strlen(prog);
		FUZZ_ASSERT(n > k + 2 && !strncmp(e->getopt, prog, k) &&
			    e->getopt[k] == ':' && e->getopt[k + 1] == ' ' &&
			    e->getopt[n - 1] == '\n');
	}
	return true;
}

/* A second parse of the same argv said exactly what the first did. */
static inline void parse_check_same_error(const struct parse_error *e,
					  const struct parse_error *f)
{
	FUZZ_ASSERT(same_str(e->getopt, f->getopt) &&
		    same_str(e->diag[0], f->diag[0]) &&
		    same_str(e->diag[1], f->diag[1]) &&
		    e->try_help == f->try_help && e->status == f->status);
}

#endif
