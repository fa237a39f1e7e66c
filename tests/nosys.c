/* SPDX-License-Identifier: ISC */
/* nosys: run a command under a seccomp filter that makes chosen system
 * calls fail, as an old kernel (ENOSYS) or a container runtime's profile
 * (EPERM) would, so that every fallback of leash can be forced here.
 *
 *   nosys [-e ERRNO] NAME[,NAME...] -- CMD [ARG]...
 *     NAME   timerfd_create pidfd_open clone3 signalfd4 close_range keyctl
 *            subreaper (prctl PR_SET_CHILD_SUBREAPER only)
 *     -e     the errno to fail with: ENOSYS (default), EPERM or E2BIG
 * A test tool: needs root or no_new_privs, which it sets. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static const struct { const char *name; long nr; } calls[] = {
	{ "timerfd_create", SYS_timerfd_create },
	{ "pidfd_open", SYS_pidfd_open },
	{ "clone3", SYS_clone3 },
	{ "signalfd4", SYS_signalfd4 },
	{ "close_range", SYS_close_range },
	{ "keyctl", SYS_keyctl },
	{ "subreaper", SYS_prctl },
};

#define MAXF 64

static struct sock_filter prog[MAXF];
static unsigned short len;

static void emit(struct sock_filter f)
{
	if (len == MAXF) {
		fputs("nosys: too many calls\n", stderr);
		exit(2);
	}
	prog[len++] = f;
}

/* Fail NR with ERR; for prctl only its PR_SET_CHILD_SUBREAPER form. */
static void deny(long nr, int err, int subreaper)
{
	emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr)));
	emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		(unsigned)nr, 0, subreaper ? 3 : 1));
	if (subreaper) {
		emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			offsetof(struct seccomp_data, args[0])));
		emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			PR_SET_CHILD_SUBREAPER, 0, 1));
	}
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ERRNO | (unsigned)err));
}

static long lookup(const char *name)
{
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (!strcmp(name, calls[i].name))
			return (long)i;
	fprintf(stderr, "nosys: unknown call '%s'\n", name);
	exit(2);
}

int main(int argc, char **argv)
{
	int err = ENOSYS, i = 1;

	if (i + 1 < argc && !strcmp(argv[i], "-e")) {
		err = !strcmp(argv[i + 1], "EPERM") ? EPERM :
		      !strcmp(argv[i + 1], "E2BIG") ? E2BIG : ENOSYS;
		i += 2;
	}
	if (i + 2 >= argc || strcmp(argv[i + 1], "--")) {
		fputs("usage: nosys [-e ERRNO] NAME[,NAME...] -- CMD [ARG]...\n", stderr);
		return 2;
	}
	for (char *s = argv[i], *t; (t = strsep(&s, ","));) {
		long k = lookup(t);
		deny(calls[k].nr, err, !strcmp(t, "subreaper"));
	}
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	struct sock_fprog fp = { len, prog };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) < 0) {
		perror("nosys: seccomp");
		return 2;
	}
	execvp(argv[i + 2], argv + i + 2);
	fprintf(stderr, "nosys: %s: %s\n", argv[i + 2], strerror(errno));
	return 127;
}
