/* SPDX-License-Identifier: ISC */
/* sigign: is a signal ignored?  Asked when one arrives, not for every
 * signal at start (a /proc/self/status read, about 11 us, or about 60
 * sigaction calls, each launch, for signals that almost never come).
 * Through the kernel's call: libc's sigaction refuses the signals it
 * keeps for itself (sigraw.h). */
#include "signal/sigign.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/sys.h"
#include "signal/sigraw.h"

bool sigign_is(int sig)
{
	return sigraw_ignored(sig);
}

/* The hex mask after "KEY:\t" in a /proc/PID/status text, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	return at ? at + strlen(key) : NULL;
}

bool sigign_by(pid_t pid, int sig)
{
	char buf[2048];
	const char *state, *ign;

	if (proc_read(pid, "status", buf, sizeof buf) <= 0)
		return false;
	state = status_field(buf, "\nState:\t");
	ign = status_field(buf, "\nSigIgn:\t");
	if (!state || !ign || *state == 'Z' || *state == 'X' || sig < 1 || sig > 64)
		return false;
	return strtoull(ign, NULL, 16) >> (sig - 1) & 1;
}
