/* SPDX-License-Identifier: ISC */
/* sigdie: end this process by a signal, as the command ended. */
#ifndef LEASH_SIGDIE_H
#define LEASH_SIGDIE_H

/* Die of SIG with no core dump of our own, as GNU timeout re-raises a
 * command's death: no longer dumpable, SIG at its default action,
 * unblocked, sent to this process.  Returns only when SIG's default
 * action does not end a process. */
void sigdie(int sig);

#endif
