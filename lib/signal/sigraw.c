/* SPDX-License-Identifier: ISC */
/* sigraw: signal sets, masks and dispositions through the kernel's own
 * calls, for every signal 1..64. */
#define _GNU_SOURCE
#include "signal/sigraw.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's sigset is 64 bits, in unsigned longs (two on 32-bit
 * ABIs, low word first), as at the start of both libcs' sigset_t. */
#define KSIGSET_BYTES 8
#define LONG_BITS (8 * sizeof(unsigned long))

void sigraw_add(sigset_t *set, int sig)
{
	unsigned long *w = (unsigned long *)(void *)set;
	unsigned bit = (unsigned)sig - 1;

	if (bit < 64)
		w[bit / LONG_BITS] |= 1UL << (bit % LONG_BITS);
}

bool sigraw_has(const sigset_t *set, int sig)
{
	const unsigned long *w = (const unsigned long *)(const void *)set;
	unsigned bit = (unsigned)sig - 1;

	return bit < 64 && (w[bit / LONG_BITS] >> (bit % LONG_BITS) & 1);
}

void sigraw_fill(sigset_t *set)
{
	sigemptyset(set);
	for (int sig = 1; sig <= 64; sig++)
		sigraw_add(set, sig);
}

int sigraw_mask(int how, const sigset_t *set, sigset_t *old)
{
	return (int)syscall(SYS_rt_sigprocmask, how, set, old, KSIGSET_BYTES);
}

int sigraw_action(int sig, const struct sigraw_action *act,
		  struct sigraw_action *old)
{
	return (int)syscall(SYS_rt_sigaction, sig, act, old, KSIGSET_BYTES);
}

int sigraw_default(int sig)
{
	struct sigraw_action dfl;

	memset(&dfl, 0, sizeof dfl);
	dfl.handler = SIG_DFL;
	return sigraw_action(sig, &dfl, NULL);
}

bool sigraw_ignored(int sig)
{
	struct sigraw_action now;

	return sigraw_action(sig, NULL, &now) == 0 && now.handler == SIG_IGN;
}
