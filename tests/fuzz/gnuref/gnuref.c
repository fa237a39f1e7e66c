/* SPDX-License-Identifier: ISC */
/* gnuref: the entry points to GNU timeout's parsers.  parse_duration is
 * static in timeout.c: build-aux/gnuref.sh copies it (and the
 * apply_time_suffix it calls) out of the unpacked source into
 * gnu-duration.inc, included here, where its usage() leaves by longjmp
 * instead of exiting. */
#include <config.h>

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "cl-strtod.h"
#include "dtimespec-bound.h"
#include "gnuref.h"
#include "quote.h"
#include "sig2str.h"
#include "system.h"
#include "timespec.h"

/* Where an invalid operand goes instead of exit(125). */
static jmp_buf refused;

#define EXIT_CANCELED 125
#define usage(status) longjmp(refused, 1)

#include "gnu-duration.inc"

int operand2sig(char const *operand);

char *gnuref_xstrdup(const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		abort();
	return copy;
}

int gnuref_duration(const char *s, struct timespec *ts)
{
	if (setjmp(refused))
		return -1;
	*ts = dtotimespec(parse_duration(s));
	return 0;
}

int gnuref_signal(const char *s)
{
	return operand2sig(s);
}

int gnuref_signame(int sig, char *buf)
{
	return sig2str(sig, buf);
}
