/* SPDX-License-Identifier: ISC */
/* sigign: the ignored dispositions, from /proc/self/status when it can be
 * read: one read instead of one sigaction() per signal (about 60). */
#include "sigign.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* 16 hex digits then a newline, or -1. */
static int parse_mask(const char *p, unsigned long long *mask)
{
	*mask = 0;
	for (int i = 0; i < 16; i++, p++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (v < 0)
			return -1;
		*mask = *mask << 4 | (unsigned)v;
	}
	return *p == '\n' ? 0 : -1;
}

/* The hex mask after "SigIgn:" in /proc/self/status: bit N-1 is signal
 * N.  Read in small pieces: a page-sized buffer would cost a stack page
 * fault, more than the read itself. */
static int sigign_proc(unsigned long long *mask)
{
	static const char key[] = "\nSigIgn:\t";
	char buf[256 + sizeof key + 16];
	size_t keep = 0;
	ssize_t n;
	/* openat: musl's open() adds an fcntl(FD_CLOEXEC) for old kernels. */
	int fd = openat(AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* Keep the tail of each piece: the key and mask may straddle two. */
	while ((n = read(fd, buf + keep, sizeof buf - 1 - keep)) > 0) {
		size_t len = keep + (size_t)n;
		buf[len] = '\0';
		/* strchr, not strstr: musl's strstr wants 2 KiB of stack. */
		for (const char *p = buf; (p = strchr(p, '\n')); p++)
			if (!strncmp(p, key, sizeof key - 1) &&
			    parse_mask(p + sizeof key - 1, mask) == 0)
				return close(fd), 0;
		keep = len < sizeof key + 16 ? len : sizeof key + 16;
		memmove(buf, buf + len - keep, keep);
	}
	close(fd);
	return -1;
}

void sigign_read(sigset_t *set)
{
	unsigned long long mask;
	struct sigaction sa;

	sigemptyset(set);
	if (sigign_proc(&mask) == 0) {
		for (int sig = 1; sig <= 64; sig++)
			if (mask >> (sig - 1) & 1)
				sigaddset(set, sig);
		return;
	}
	for (int sig = 1; sig < _NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(set, sig);
}
