/* SPDX-License-Identifier: ISC */
/* quote: an operand shown in a message as GNU's quote() shows it. */
#ifndef LEASH_QUOTE_H
#define LEASH_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

/* Write S into BUF (SIZE bytes, NUL-terminated) between quotes, as
 * gnulib's quote() does: 'S' (or ‘S’ when UTF8), with C's backslash
 * escapes (\n \t \\ ...) for control characters, \ooo for each other
 * byte that is not a printable character (in UTF8: not valid UTF-8, or
 * not printable by iswprint), and a backslash before the closing quote
 * inside S.  A result too long for BUF is cut at a character and still
 * closed.  Returns BUF. */
char *quote_to(char *buf, size_t size, const char *s, bool utf8);

#endif
