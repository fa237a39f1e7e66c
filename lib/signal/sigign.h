/* SPDX-License-Identifier: ISC */
/* sigign: the signals the caller left ignored.  SIG_IGN survives exec,
 * and GNU timeout neither handles nor forwards such signals (nohup). */
#ifndef LEASH_SIGIGN_H
#define LEASH_SIGIGN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* Is SIG's disposition SIG_IGN?  leash changes the disposition of no
 * signal it forwards, so this is what the caller left; but SIGSYS, which
 * it catches: lib/signal/sigsys.c drops one the caller ignored itself. */
bool sigign_is(int sig);

/* Does process PID, alive, ignore SIG (its SigIgn in /proc/PID/status)?
 * False when that cannot be read or PID is a zombie. */
bool sigign_by(pid_t pid, int sig);

#endif
