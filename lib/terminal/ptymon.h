/* SPDX-License-Identifier: ISC */
/* ptymon: with a pty, the command runs under a monitor that stays the
 * session leader (as sudo's does), so that ^Z stops any command. */
#ifndef LEASH_PTYMON_H
#define LEASH_PTYMON_H

#include <sys/types.h>

/* Child, after pty_attach (TTY: the pty's slave): fork.  This process
 * becomes the monitor and never returns: it closes CMD_ONLY (a
 * descriptor only the command keeps), relays the command's stops and
 * the signals it gets to the command's group, and ends as the command
 * ends.  In the command, which leads a group of its own in the pty's
 * foreground: 0, *MONITOR its parent.  -1 with errno. */
int ptymon_start(int tty, int cmd_only, pid_t *monitor);

#endif
