/* SPDX-License-Identifier: ISC */
/* gnuref: GNU timeout 9.11's own readings of its operands, from
 * Debian's coreutils source (build-aux/gnuref.sh builds them with the
 * fuzz toolchain, on glibc): the reference leash's parsers are checked
 * against.  Not part of leash. */
#ifndef LEASH_GNUREF_H
#define LEASH_GNUREF_H

#include <time.h>

/* timeout's parse_duration on S, then gnulib's dtotimespec, as timeout
 * arms its timer: 0 with *TS, or -1 where timeout says "invalid time
 * interval" (and exits 125). */
int gnuref_duration(const char *s, struct timespec *ts);

/* coreutils' operand2sig: the signal number, or -1 ("invalid signal"). */
int gnuref_signal(const char *s);

/* gnulib's sig2str (the name without "SIG", e.g. "RTMIN+2"): 0 with BUF
 * (at least GNUREF_SIG2STR_MAX bytes), or -1 when SIG has no name. */
#define GNUREF_SIG2STR_MAX 32
int gnuref_signame(int sig, char *buf);

#endif
