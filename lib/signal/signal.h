/* SPDX-License-Identifier: ISC */
/* signal: leash's dealings with signals, below any policy of its own.
 *
 * Promises: every signal 1..64 is reachable, the libc's own included
 * (sigraw: the kernel's calls, not libc's filtered ones); a signal is
 * named as kill -l and GNU's operand2sig name it (signals); a seccomp
 * trap (SIGSYS) is an ENOSYS, never a death (sigsys); a thread starts
 * with its caller's whole mask (sigthread); leash can end by the
 * command's signal with no core (sigdie); an ignored signal is read
 * when one arrives, not for every signal at start (sigign).
 * Never: it installs no handler but sigsys's, and decides no forwarding
 * (supervise/ does). */
#ifndef LEASH_SIGNAL_H
#define LEASH_SIGNAL_H

#include "signal/sigdie.h"
#include "signal/sigign.h"
#include "signal/signals.h"
#include "signal/sigraw.h"
#include "signal/sigsys.h"
#include "signal/sigthread.h"

#endif
