/* SPDX-License-Identifier: ISC */
/* terminal: the caller's terminal and the command's pty (DESIGN.md,
 * Terminal).
 *
 * Promises: a session under another uid never gets the caller's
 * terminal: it gets a pty of its own (pty), led by a monitor that stays
 * its session leader so ^Z stops any command (ptymon), with bytes
 * relayed both ways without ever waiting (relay: its drop policy is in
 * relay.h, the only place it is decided, for the pty and for --idle's
 * pipes, which carry the output where no pty does); the caller's
 * terminal is raw only while the job is in its foreground and restored
 * on every exit.
 * Never: a blocking write to the caller's terminal or the pty, a thread. */
#ifndef LEASH_TERMINAL_H
#define LEASH_TERMINAL_H

#include "terminal/pty.h"
#include "terminal/ptymon.h"
#include "terminal/relay.h"

#endif
