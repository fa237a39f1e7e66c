/* SPDX-License-Identifier: ISC */
/* sigign: is a signal ignored?  Asked when one arrives, not for every
 * signal at start (a /proc/self/status read, about 11 us, or about 60
 * sigaction calls, each launch, for signals that almost never come). */
#include "sigign.h"

#include <stddef.h>

bool sigign_is(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}
