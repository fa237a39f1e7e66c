/* SPDX-License-Identifier: ISC */
/* glob: a shell pattern against a path, as fnmatch(3) with FNM_PATHNAME
 * matches it, in bytes (leash watch --from; musl's fnmatch brought its
 * wide-character tables into the static binary).
 *
 * The language.  Bytes, not characters: no locale, no multibyte
 * sequence (a cgroup path is bytes), a range compares byte values.
 *   *       any run of bytes, none of them /
 *   ?       one byte, not /
 *   [set]   one byte of SET, never /; [!set] or [^set]: one byte not in
 *           it, nor /.  A ] first in SET is one of it, a-z a range (none
 *           when z < a), a - first or last itself, \x the byte x
 *   \x      the byte x itself (\* \? \[ \\; \/ is a /)
 *   /       a / only: nothing above matches one, so a path and its
 *           pattern have as many /
 *   x       any other byte, itself
 * Refused (glob_check): a lone \ at the end, a [ without its ], a /
 * inside [ ], and [: [. [= inside [ ] (character classes, collating
 * symbols, equivalence classes: locale matters a cgroup path has no
 * use for; [0-9] and [a-z] are its ranges). */
#ifndef LEASH_GLOB_H
#define LEASH_GLOB_H

#include <stdbool.h>

/* NULL when PATTERN is in the language; else why not, as a phrase for
 * a message ("a [ without its ]"). */
const char *glob_check(const char *pattern);

/* Does all of PATH match PATTERN?  A pattern glob_check refuses gets an
 * answer too, but not a promised one (an unclosed [ is a [, a lone \ at
 * the end a \); either way nothing past either NUL is read. */
bool glob_match(const char *pattern, const char *path);

#endif
