/* SPDX-License-Identifier: ISC */
/* nosys: run a command under a seccomp filter that makes chosen system
 * calls fail, as an old kernel (ENOSYS) or a container runtime's profile
 * (EPERM) would, so that every fallback of leash can be forced here.
 *
 *   nosys [-e ERRNO] NAME[,NAME...] -- CMD [ARG]...
 *     NAME   timerfd_create pidfd_open clone3 signalfd4 close_range keyctl
 *            subreaper (prctl PR_SET_CHILD_SUBREAPER only)
 *     -e     the errno to fail with: ENOSYS (default) or EPERM
 * Called by another name (a copy named leash or timeout), it denies the
 * calls in $LEASH_NOSYS and execs real/NAME beside itself, with argv as
 * given: a drop-in for a whole test run, same pid, same argv[0] name.
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
#ifdef SYS_signalfd
	/* musl falls back to the old call on ENOSYS: deny both. */
	{ "signalfd4", SYS_signalfd },
#endif
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

/* Deny every call NAME stands for. */
static void deny_name(const char *name, int err)
{
	int found = 0;

	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (!strcmp(name, calls[i].name)) {
			deny(calls[i].nr, err, !strcmp(name, "subreaper"));
			found = 1;
		}
	if (!found) {
		fprintf(stderr, "nosys: unknown call '%s'\n", name);
		exit(2);
	}
}

static void install(void)
{
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	struct sock_fprog fp = { len, prog };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) < 0) {
		perror("nosys: seccomp");
		exit(2);
	}
}

/* As a drop-in: real/NAME beside us, under $LEASH_NOSYS. */
static int drop_in(char **argv)
{
	static char path[4096];
	char *list = getenv("LEASH_NOSYS");
	const char *self = strrchr(argv[0], '/');
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 64);

	if (!list || n <= 0) {
		fputs("nosys: no LEASH_NOSYS, or no /proc/self/exe\n", stderr);
		return 2;
	}
	path[n] = '\0';
	*strrchr(path, '/') = '\0';
	snprintf(path + strlen(path), 64, "/real/%s", self ? self + 1 : argv[0]);
	list = strdup(list);
	for (char *s = list, *t; (t = strsep(&s, ","));)
		deny_name(t, ENOSYS);
	install();
	execv(path, argv);
	fprintf(stderr, "nosys: %s: %s\n", path, strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	int err = ENOSYS, i = 1;
	const char *base = strrchr(argv[0], '/');

	if (strcmp(base ? base + 1 : argv[0], "nosys"))
		return drop_in(argv);

	if (i + 1 < argc && !strcmp(argv[i], "-e")) {
		err = !strcmp(argv[i + 1], "EPERM") ? EPERM : ENOSYS;
		i += 2;
	}
	if (i + 2 >= argc || strcmp(argv[i + 1], "--")) {
		fputs("usage: nosys [-e ERRNO] NAME[,NAME...] -- CMD [ARG]...\n", stderr);
		return 2;
	}
	for (char *s = argv[i], *t; (t = strsep(&s, ","));)
		deny_name(t, err);
	install();
	execvp(argv[i + 2], argv + i + 2);
	fprintf(stderr, "nosys: %s: %s\n", argv[i + 2], strerror(errno));
	return 127;
}
