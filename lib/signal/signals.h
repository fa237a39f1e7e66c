/* SPDX-License-Identifier: ISC */
/* signals: names <-> numbers as kill -l and GNU's operand2sig do. */
#ifndef LEASH_SIGNALS_H
#define LEASH_SIGNALS_H

#include <stddef.h>

/* As GNU 9.11's operand2sig: "TERM", "SIGTERM", "term", "15", "SIG15",
 * "143" and "1295" (shell statuses), "RTMIN+2", "RTMIN2", "RTMAX-0", "0",
 * "EXIT".  Returns the number (0..64), or -1 for an invalid operand. */
int signal_parse(const char *s);

/* Name without "SIG" ("TERM", "RTMIN+2"), or the decimal number when the
 * signal has no name.  Writes into BUF of SIZE bytes and returns BUF. */
const char *signal_name(int sig, char *buf, size_t size);

#endif
