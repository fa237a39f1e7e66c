/* SPDX-License-Identifier: ISC */
/* sigign: is a signal ignored?  Asked when one arrives, not for every
 * signal at start (a /proc/self/status read, about 11 us, or about 60
 * sigaction calls, each launch, for signals that almost never come).
 * Through the kernel's call: libc's sigaction refuses the signals it
 * keeps for itself (sigraw.h). */
#include "sigign.h"

#include "sigraw.h"

bool sigign_is(int sig)
{
	return sigraw_ignored(sig);
}
