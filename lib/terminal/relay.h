/* SPDX-License-Identifier: ISC */
/* relay: bytes between the caller's terminal and the pty master, and
 * (--idle without a pty) from the command's stdout and stderr pipes to
 * the caller's descriptors, as sources of the supervise loop.  Nothing
 * here ever waits: every descriptor is non-blocking, and a reader that
 * reads slowly or not at all holds the command's output back (the master
 * or pipe is not read while the last bytes wait), never leash.
 *
 * What is kept and what is dropped, decided here and nowhere else:
 *   - while the command runs, nothing: a slow terminal slows the
 *     command, whose output waits in the pty (up to RELAY_OUT bytes in
 *     leash, the rest in the kernel);
 *   - when the job stops (^Z) and leash gives the caller its prompt back,
 *     nothing: what the terminal took within RELAY_SUSPEND_MS is shown
 *     before the prompt, the rest after `fg`;
 *   - typed bytes the master refuses (not a full queue: an error) and
 *     output for a terminal that is gone (EIO, EPIPE) are dropped;
 *   - after the command's exit (relay_finish), what the terminal has not
 *     taken within RELAY_DRAIN_QUIET_MS of quiet or RELAY_DRAIN_MAX_MS in
 *     all (RELAY_DRAIN_KILLED_MS once a KILL was sent, never past the
 *     deadline) is dropped: no leftover or stalled terminal holds leash;
 *   - leash's own lines to that terminal (diag_use_fd) wait
 *     RELAY_LINE_TRIES times RELAY_LINE_WAIT_MS at most, then are lost. */
#ifndef LEASH_RELAY_H
#define LEASH_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "terminal/pty.h"

#define RELAY_IN 4096
#define RELAY_OUT 16384
#define RELAY_SUSPEND_MS 20
#define RELAY_DRAIN_QUIET_MS 50
#define RELAY_DRAIN_MAX_MS 250
#define RELAY_DRAIN_KILLED_MS 50    /* leash is gone within 100 ms of it */
#define RELAY_LINE_WAIT_MS 20
#define RELAY_LINE_TRIES 4

struct relay {
	struct pty *pty;
	bool term_open;         /* still reading the caller's terminal */
	bool paused;            /* leash is in the background: not reading */
	bool master_eof;        /* EIO: nobody holds the slave any more */
	bool hung_up;           /* the caller's terminal is gone */
	size_t in_off, in_len;  /* typed bytes not yet in the master */
	size_t out_off, out_len; /* output the terminal has not taken yet */
	struct timespec last_out;  /* LEASH_CLOCK: the last byte read from
				    * the master (--idle), or zero */
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

/* The job stopped and leash is about to stop too: what the terminal
 * takes within RELAY_SUSPEND_MS goes out now, the rest stays for `fg`. */
void relay_suspend(struct relay *r);
/* After the command exited: the master's output until EIO (no holder of
 * the slave left), RELAY_DRAIN_QUIET_MS without a byte (a leftover still
 * holds it) or the bound above, whichever comes first (DEADLINE: the
 * next expiry on LEASH_CLOCK, or NULL; KILLED: a KILL was sent); what
 * the terminal has not taken by then is dropped.  The last line the
 * command wrote is not lost to a busy machine. */
void relay_finish(struct relay *r, const struct timespec *deadline,
		  bool killed);

/* The pipe relay, for --idle where there is no pty: fds 1 and 2 of the
 * command are pipes (one for both when they were one description), and
 * leash copies their bytes to the caller's fds, reopened non-blocking
 * (a socket: sent with MSG_DONTWAIT; a regular file: as it is).  The
 * drop policy is the pty's, above. */
struct pipe_stream {
	int rd;                 /* leash's end, -1: none or at EOF */
	int wr;                 /* the command's end, open in leash too
				 * until its exit (pipes_finish): its
				 * hangup, just before the exit's news,
				 * would be a wake-up of its own */
	int fd;                 /* the caller's fd it stands for (1 or 2) */
	unsigned to;            /* bit N: the command's fd N is this pipe */
	int sink;               /* where its bytes go */
	bool sink_own;          /* SINK is leash's to close */
	bool sock;              /* SINK is a socket: send(MSG_DONTWAIT) */
	size_t off, len;        /* bytes the sink has not taken yet */
	char *buf;              /* RELAY_OUT bytes */
};

struct pipes {
	struct pipe_stream s[2];
	unsigned n;             /* streams in use */
	struct timespec last_out;  /* LEASH_CLOCK: the last byte read, or
				    * zero */
};

/* Before the fork: a pipe for fd 1 and for fd 2, those that are open
 * and not in SKIP (bit N: fd N, as pty.h's std_mask: the pty has it).
 * -1 with errno; nothing is left open then. */
int pipes_open(struct pipes *p, unsigned skip);
/* Child: the pipes' ends onto fds 1 and 2.  Async-signal-safe. */
int pipes_attach(const struct pipes *p);
/* Stream I's pipe (POLLIN while nothing waits) and sink (POLLOUT while
 * something does); -1 fd: skip. */
struct pollfd pipes_in_poll(const struct pipes *p, unsigned i);
struct pollfd pipes_out_poll(const struct pipes *p, unsigned i);
void pipes_from_command(struct pipes *p, unsigned i);
void pipes_to_sink(struct pipes *p, unsigned i);
/* As relay_finish, for the pipes: leash's copies of the command's ends
 * closed, then until EOF, quiet or the bound. */
void pipes_finish(struct pipes *p, const struct timespec *deadline,
		  bool killed);
/* The sink of fd 2 when leash's own lines should go there (-1: none). */
int pipes_err_sink(const struct pipes *p);
void pipes_close(struct pipes *p);

#endif
