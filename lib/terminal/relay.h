/* SPDX-License-Identifier: ISC */
/* relay: bytes between the caller's terminal and the pty master, as
 * sources of the supervise loop.  Nothing here ever waits: every
 * descriptor is non-blocking, and a terminal that reads slowly or not at
 * all holds the command's output back (the master is not read while the
 * last bytes wait), never leash. */
#ifndef LEASH_RELAY_H
#define LEASH_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "terminal/pty.h"

struct relay {
	struct pty *pty;
	bool term_open;         /* still reading the caller's terminal */
	bool paused;            /* leash is in the background: not reading */
	bool master_eof;        /* EIO: nobody holds the slave any more */
	bool hung_up;           /* the caller's terminal is gone */
	size_t in_off, in_len;  /* typed bytes not yet in the master */
	size_t out_off, out_len; /* output the terminal has not taken yet */
};

void relay_init(struct relay *r, struct pty *p);

/* What to poll: the terminal for typing (while nothing typed is
 * pending), the master (POLLIN while no output is pending; POLLOUT while
 * typed bytes wait) and the terminal for writing (while output waits).
 * -1 fd: skip. */
struct pollfd relay_term_poll(const struct relay *r);
struct pollfd relay_master_poll(const struct relay *r);
struct pollfd relay_out_poll(const struct relay *r);

/* The terminal is readable: move what was typed towards the master. */
void relay_from_term(struct relay *r);
/* Continued (SIGCONT): read the terminal again if we are foreground. */
void relay_resume(struct relay *r);
/* The master is ready: its output to the caller, pending input to it. */
void relay_from_master(struct relay *r, short revents);
/* The terminal takes output again: what waits goes on. */
void relay_to_term(struct relay *r);

/* After the command exited: the master's output until EIO (no holder of
 * the slave left), QUIET_MS without a byte (a leftover still holds it)
 * or MAX_MS in all, whichever comes first; what the terminal has not
 * taken by then is dropped.  The last line the command wrote is not
 * lost to a busy machine, and no leftover or stalled terminal holds
 * leash longer than MAX_MS. */
void relay_drain(struct relay *r, int quiet_ms, int max_ms);

#endif
