/* SPDX-License-Identifier: ISC */
/* sigdie: end this process by a signal, as the command ended. */
#include "signal/sigdie.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "signal/sigraw.h"

void sigdie(int sig)
{
	sigset_t one;

	prctl(PR_SET_DUMPABLE, 0);
	/* The kernel's calls: libc's refuse 32-34 (sigraw.h). */
	sigraw_default(sig);
	sigemptyset(&one);
	sigraw_add(&one, sig);
	sigraw_mask(SIG_UNBLOCK, &one, NULL);
	/* kill, not raise: in a child clone3 made, musl's cached thread id
	 * is still the parent's (clone3.h). */
	kill(getpid(), sig);
}
