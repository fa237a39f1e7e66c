/* SPDX-License-Identifier: ISC */
/* parse: the usage error every personality's parse hands back. */
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag/diag.h"

void parse_say(struct parse_error *e, const char *fmt, ...)
{
	size_t i = e->diag[0] ? 1 : 0;
	va_list ap;
	int n;

	if (e->diag[i])
		return;         /* two lines at most: the first ones stay */
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(e->diag[i] = malloc((size_t)n + 1)))
		return;
	va_start(ap, fmt);
	vsnprintf(e->diag[i], (size_t)n + 1, fmt, ap);
	va_end(ap);
}

bool parse_error_said(const struct parse_error *e)
{
	return (e->getopt && *e->getopt) || (e->diag[0] && *e->diag[0]) ||
	       e->try_help;
}

void parse_error_print(const struct parse_error *e, const char *try_prog)
{
	if (e->getopt)
		fputs(e->getopt, stderr);
	for (size_t i = 0; i < 2; i++)
		if (e->diag[i])
			diag_warn("%s", e->diag[i]);
	if (e->try_help)
		fprintf(stderr, "Try '%s --help' for more information.\n",
			try_prog);
}

void parse_error_free(struct parse_error *e)
{
	free(e->getopt);
	free(e->diag[0]);
	free(e->diag[1]);
	e->getopt = e->diag[0] = e->diag[1] = NULL;
}
