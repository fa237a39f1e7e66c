/* SPDX-License-Identifier: ISC */
/* quote.h for coreutils' operand2sig.c and parse_duration: the text of
 * a message the reference does not print. */
#define quote(s) (s)
