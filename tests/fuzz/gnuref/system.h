/* SPDX-License-Identifier: ISC */
/* system.h for coreutils' src/operand2sig.c alone: the little of
 * coreutils' own system.h it uses.  Its message is not the reference's
 * business (leash prints its own), so error() prints nothing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define _(msgid) (msgid)
#define error(status, errnum, ...) ((void)0)
#define xstrdup(s) gnuref_xstrdup(s)

char *gnuref_xstrdup(const char *s);
