/* SPDX-License-Identifier: ISC */
/* relay: bytes between the caller's terminal and the pty master, as two
 * sources of the supervise loop (one per direction's input fd). */
#ifndef LEASH_RELAY_H
#define LEASH_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "pty.h"

struct relay {
	struct pty *pty;
	bool term_open;         /* still reading the caller's terminal */
	bool paused;            /* leash is in the background: not reading */
	bool master_eof;        /* EIO: nobody holds the slave any more */
	size_t in_off, in_len;  /* typed bytes not yet in the master */
};

void relay_init(struct relay *r, struct pty *p);

/* What to poll: the terminal (POLLIN, while nothing typed is pending)
 * and the master (POLLIN; POLLOUT while typed bytes wait).  -1 fd: skip. */
struct pollfd relay_term_poll(const struct relay *r);
struct pollfd relay_master_poll(const struct relay *r);

/* The terminal is readable: move what was typed towards the master. */
void relay_from_term(struct relay *r);
/* Continued (SIGCONT): read the terminal again if we are foreground. */
void relay_resume(struct relay *r);
/* The master is ready: its output to the caller, pending input to it. */
void relay_from_master(struct relay *r, short revents);

/* After the command exited: the master's output until EIO (no holder of
 * the slave left), or until QUIET_MS without a byte (a leftover still
 * holds it), so the last line the command wrote is never lost. */
void relay_drain(struct relay *r, int quiet_ms);

#endif
