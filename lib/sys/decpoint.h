/* SPDX-License-Identifier: ISC */
/* decpoint: the decimal point of the caller's LC_NUMERIC locale. */
#ifndef LEASH_DECPOINT_H
#define LEASH_DECPOINT_H

#include <stddef.h>

/* Longest decimal point kept, with its NUL (glibc's are 1-3 bytes). */
#define DECPOINT_MAX 8

/* The decimal point glibc's setlocale(LC_ALL, "") would give LC_NUMERIC:
 * the locale is named by LC_ALL, LC_NUMERIC or LANG and read from
 * glibc's compiled files ($LOCPATH directories, else the locale archive,
 * then the locale directory).  Writes it to BUF and returns its length;
 * 0 when the locale is C, unknown or unreadable, or its point is ".". */
size_t decpoint_lookup(char buf[DECPOINT_MAX]);

#endif
