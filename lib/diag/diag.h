/* SPDX-License-Identifier: ISC */
/* diag: leash's one voice for messages, and the record of the kernel
 * interfaces a run had to do without (fallback.h).
 *
 * Promises: every line leash prints has one grammar ("leash: ...",
 * "timeout: ..."), is one write, and names a trapped system call where
 * ENOSYS came from a seccomp trap; a line to a pty session's terminal
 * never waits for that terminal.  Never: a lib/ function calls the die
 * helpers: only cmd/ and the child before exec do; lib/ returns -1 with
 * errno and leaves the words to its caller. */
#ifndef LEASH_DIAG_H
#define LEASH_DIAG_H

#include <stddef.h>
#include <stdnoreturn.h>

/* The prefix of every message ("leash", "timeout", "su"). */
extern const char *diag_prog;

void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_warn_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
noreturn void diag_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
noreturn void diag_die_errno(int status, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* From now on messages go to a copy of FD instead of standard error:
 * with a pty, a non-blocking description of the caller's terminal, so
 * that a terminal that stopped reading never holds leash; a line it does
 * not take within TRIES waits of WAIT_MS is lost (the relay's policy,
 * terminal/relay.h, says how long).  -1 with errno. */
int diag_use_fd(int fd, int wait_ms, int tries);

/* S as it is (no prefix, no newline): su's lines from util-linux. */
void diag_put(const char *s);

/* The last message printed, without the prefix ("" when none): what a
 * report says leash failed with. */
const char *diag_last(void);

/* Set by cmd/: called by the die helpers with their status just before
 * they exit (the native personality writes its report there). */
extern void (*diag_exit_hook)(int status);

/* Quote S as GNU's quote() does: 'S' in the C locale, ‘S’ in a UTF-8 one,
 * control characters and bytes that are no printable character escaped
 * ('a\nb', 'caf\303\251' in C), see quote.h.  Returns one of two
 * rotating static buffers (so two quotes fit one line): cmd/'s, which
 * is one thread. */
const char *diag_quote(const char *s);

/* diag_quote into BUF (SIZE bytes), the locale read again each time.
 * lib/ quotes with DIAG_QUOTE: into a buffer of the caller's block (a
 * compound literal, alive to the end of that block), so that libleash's
 * runs, on any threads at once, share no buffer and no cache. */
#define DIAG_QUOTE_MAX 1024
const char *diag_quote_to(char *buf, size_t size, const char *s);
#define DIAG_QUOTE(s) \
	diag_quote_to((char[DIAG_QUOTE_MAX]){ 0 }, DIAG_QUOTE_MAX, (s))

/* The area's other public headers: with this one, its face. */
#include "diag/fallback.h"

#endif
