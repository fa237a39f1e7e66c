/* SPDX-License-Identifier: ISC */
/* sigign: the signals the caller left ignored.  SIG_IGN survives exec,
 * and GNU timeout neither handles nor forwards such signals (nohup). */
#ifndef LEASH_SIGIGN_H
#define LEASH_SIGIGN_H

#include <signal.h>

/* Fill SET with every signal whose disposition is SIG_IGN.  Never fails:
 * without /proc it asks sigaction() signal by signal. */
void sigign_read(sigset_t *set);

#endif
