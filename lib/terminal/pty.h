/* SPDX-License-Identifier: ISC */
/* pty: a pseudo-terminal of its own for a session under another uid
 * that has a terminal, so that nothing the command does reaches the caller's
 * terminal (TIOCSTI, a stolen foreground), while job control, /dev/tty
 * and the window size work inside.  leash relays the bytes (relay.h). */
#ifndef LEASH_PTY_H
#define LEASH_PTY_H

#include <stdbool.h>
#include <sys/types.h>
#include <termios.h>

enum pty_mode {
	PTY_AUTO,       /* when a std fd is a terminal (pty_any_terminal) */
	PTY_NEVER,      /* --no-pty, su -T: the caller's terminal is shared */
	PTY_ALWAYS,     /* --pty, su -P: whenever stdin is our terminal */
};

struct pty {
	int master;             /* -1: none */
	int slave;              /* open until the fork, in the child dup'd */
	int term;               /* the caller's terminal (the first std fd
				 * that is one): its modes and size */
	int out;                /* where the master's bytes go (1, 2 or 0) */
	int rd, wr;             /* that terminal opened again, non-blocking:
				 * the relay's own descriptions, so no read or
				 * write waits and the caller's flags stay */
	unsigned std_mask;      /* bit N: fd N is the caller's terminal; no
				 * bit 0: output only, nothing typed relayed */
	bool raw;               /* the caller's terminal is in raw mode */
	struct termios saved;   /* its modes before raw mode */
};

/* Is any of fds 0-2 a terminal? */
bool pty_any_terminal(void);

/* Open a pty for UID (GID the slave's group when the tty group is not
 * known), with the caller's modes and window size.  -1 with errno and
 * *STEP naming the call that failed; nothing is left open then. */
int pty_open(struct pty *p, uid_t uid, const char **step);

/* Child, before the identity switch: a new session whose controlling
 * terminal is the slave, which replaces the std fds that were the
 * caller's terminal (told by the terminal behind the fd, so a /dev/tty
 * counts); then any std fd still a terminal other than the slave
 * becomes /dev/null.  Async-signal-safe; -1 with errno. */
int pty_attach(const struct pty *p);

/* Child, when no pty could be had for another uid: each std fd that is
 * a terminal becomes /dev/null, so the target holds no descriptor of
 * the caller's terminal (it could read what the caller types next).
 * Async-signal-safe; -1 with errno. */
int pty_null_terminals(void);

/* Parent, after the fork: drop the slave (so the master reads EIO once
 * the last holder is gone) and make the master non-blocking. */
void pty_after_fork(struct pty *p);

/* The caller's terminal in raw mode (output flags kept when stdout is
 * not that terminal), only while leash is in its foreground; and back.
 * Both idempotent. */
void pty_raw(struct pty *p);
void pty_restore(struct pty *p);

/* The caller's window size onto the pty (the kernel then sends SIGWINCH
 * to the pty's foreground group). */
void pty_sync_size(const struct pty *p);

/* Close the master: the session inside gets its hangup. */
void pty_hangup(struct pty *p);
/* Everything closed and the caller's modes restored: on every path. */
void pty_close(struct pty *p);

#endif
