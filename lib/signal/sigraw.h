/* SPDX-License-Identifier: ISC */
/* sigraw: signal sets, masks and dispositions for every signal 1..64,
 * those the libc keeps for itself included (musl: 32, 33, 34; glibc: 32,
 * 33), whose sigaddset, sigaction and signal refuse them and whose
 * sigprocmask hides them from the old mask.  leash blocks, reads and
 * resets them as any other: GNU timeout on glibc takes 34 for RTMIN, and
 * a signal leash sends its own group must not end leash. */
#ifndef LEASH_SIGRAW_H
#define LEASH_SIGRAW_H

#include <signal.h>
#include <stdbool.h>

/* glibc's SIGRTMIN, the first real-time signal GNU timeout handles and
 * names (musl's SIGRTMIN is 35). */
#define SIGRAW_RTMIN 34

/* A disposition as the kernel keeps it (i686, x86_64, armhf and
 * aarch64: musl's k_sigaction).  Only SIG_DFL and SIG_IGN are set here:
 * a handler would want the libc's restorer. */
struct sigraw_action {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned mask[2];
};

/* Add SIG (1..64) to SET; any other number is left out. */
void sigraw_add(sigset_t *set, int sig);

/* Is SIG (1..64) in SET? */
bool sigraw_has(const sigset_t *set, int sig);

/* SET holds every signal 1..64. */
void sigraw_fill(sigset_t *set);

/* The kernel's rt_sigprocmask: SET as given, the whole old mask in OLD
 * (either may be NULL).  -1 with errno. */
int sigraw_mask(int how, const sigset_t *set, sigset_t *old);

/* The kernel's rt_sigaction: SIG's disposition to ACT (NULL: kept),
 * the old one in OLD (may be NULL).  -1 with errno. */
int sigraw_action(int sig, const struct sigraw_action *act,
		  struct sigraw_action *old);

/* SIG's disposition back to the default.  -1 with errno. */
int sigraw_default(int sig);

/* Is SIG's disposition SIG_IGN? */
bool sigraw_ignored(int sig);

#endif
