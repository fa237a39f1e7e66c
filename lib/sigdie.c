/* SPDX-License-Identifier: ISC */
/* sigdie: end this process by a signal, as the command ended. */
#include "sigdie.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

void sigdie(int sig)
{
	sigset_t one;

	prctl(PR_SET_DUMPABLE, 0);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	/* kill, not raise: in a child clone3 made, musl's cached thread id
	 * is still the parent's (clone3.h). */
	kill(getpid(), sig);
}
