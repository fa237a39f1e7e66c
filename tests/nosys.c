/* SPDX-License-Identifier: ISC */
/* nosys: run a command under a seccomp filter that makes chosen system
 * calls fail, as an old kernel (ENOSYS), a container runtime's profile
 * (EPERM) or an Android app's filter (SIGSYS: SECCOMP_RET_TRAP) would,
 * so that every fallback of leash can be forced here.
 *
 *   nosys [-e ERRNO] NAME[,NAME...] -- CMD [ARG]...
 *     NAME   timerfd_create timerfd_settime pidfd_open clone3 signalfd4
 *            close_range keyctl
 *            subreaper (prctl PR_SET_CHILD_SUBREAPER only)
 *            thread (clone with CLONE_THREAD, and clone3: no pthread_create)
 *            pdeathsig (prctl PR_SET_PDEATHSIG only), pipe (pipe2 and
 *            pipe): calls leash has no fallback for
 *            capbset (prctl PR_CAPBSET_READ: libcap's constructor asks it
 *            before main), prctl (all of it), fcntl, close, write: calls
 *            made from process start on
 *     -e     the errno to fail with: ENOSYS (default), EPERM or E2BIG;
 *            or TRAP: no errno, a SIGSYS (si_code SYS_SECCOMP) instead
 * Called by another name (a copy named leash or timeout), it denies the
 * calls in $LEASH_NOSYS, as $LEASH_NOSYS_ERRNO says (-e's words), and
 * execs real/NAME beside itself, with argv as given: a drop-in for a
 * whole test run, same pid, same argv[0] name.
 * A test tool: needs root or no_new_privs, which it sets. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/nr.h"      /* the numbers some libcs lack, leash's own */

/* How args[0] narrows a denial: not at all, equal to VALUE (prctl's
 * option), or with a bit of VALUE set (clone's flags). */
enum arg0 { ANY, EQUALS, HAS_BIT };

static const struct {
	const char *name;
	long nr;
	enum arg0 how;
	unsigned value;
} calls[] = {
	{ "timerfd_create", SYS_timerfd_create, ANY, 0 },
	/* musl on 32-bit tries the 64-bit time call first, then the old
	 * one, which it names ..._settime32: deny both. */
#ifdef SYS_timerfd_settime
	{ "timerfd_settime", SYS_timerfd_settime, ANY, 0 },
#endif
#ifdef SYS_timerfd_settime32
	{ "timerfd_settime", SYS_timerfd_settime32, ANY, 0 },
#endif
#ifdef SYS_timerfd_settime64
	{ "timerfd_settime", SYS_timerfd_settime64, ANY, 0 },
#endif
	{ "pidfd_open", SYS_pidfd_open, ANY, 0 },
	{ "clone3", SYS_clone3, ANY, 0 },
	{ "signalfd4", SYS_signalfd4, ANY, 0 },
#ifdef SYS_signalfd
	/* musl falls back to the old call on ENOSYS: deny both. */
	{ "signalfd4", SYS_signalfd, ANY, 0 },
#endif
	{ "close_range", SYS_close_range, ANY, 0 },
	{ "keyctl", SYS_keyctl, ANY, 0 },
	{ "subreaper", SYS_prctl, EQUALS, PR_SET_CHILD_SUBREAPER },
	{ "pdeathsig", SYS_prctl, EQUALS, PR_SET_PDEATHSIG },
	{ "capbset", SYS_prctl, EQUALS, PR_CAPBSET_READ },
	{ "prctl", SYS_prctl, ANY, 0 },
	{ "fcntl", SYS_fcntl, ANY, 0 },
	{ "close", SYS_close, ANY, 0 },
	{ "write", SYS_write, ANY, 0 },
#ifdef SYS_writev
	/* musl's stdio writes with writev. */
	{ "write", SYS_writev, ANY, 0 },
#endif
	/* musl falls back to the old call on ENOSYS: deny both. */
	{ "pipe", SYS_pipe2, ANY, 0 },
#ifdef SYS_pipe
	{ "pipe", SYS_pipe, ANY, 0 },
#endif
	/* pthread_create's clone; fork's (no CLONE_THREAD) still works. */
	{ "thread", SYS_clone, HAS_BIT, CLONE_THREAD },
	/* glibc 2.34+ makes threads with clone3, whose flags seccomp cannot
	 * read: all of it (musl's fork never uses it). */
	{ "thread", SYS_clone3, ANY, 0 },
};

/* The low 32 bits of args[0], which BPF loads a word at a time. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG0_LOW (offsetof(struct seccomp_data, args[0]) + 4)
#else
#define ARG0_LOW offsetof(struct seccomp_data, args[0])
#endif

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

/* -e's word: an errno, or TRAP (-1). */
#define TRAP (-1)

static int action_parse(const char *s)
{
	if (!s || !strcmp(s, "ENOSYS"))
		return ENOSYS;
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "E2BIG"))
		return E2BIG;
	if (!strcmp(s, "TRAP"))
		return TRAP;
	fprintf(stderr, "nosys: unknown action '%s'\n", s);
	exit(2);
}

/* Fail NR with ERR (TRAP: SIGSYS); narrowed by args[0] as HOW and VALUE
 * say. */
static void deny(long nr, int err, enum arg0 how, unsigned value)
{
	emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr)));
	emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		(unsigned)nr, 0, how != ANY ? 3 : 1));
	if (how != ANY) {
		emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			ARG0_LOW));
		emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_K |
			(how == EQUALS ? BPF_JEQ : BPF_JSET), value, 0, 1));
	}
	emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, err == TRAP ?
		SECCOMP_RET_TRAP : SECCOMP_RET_ERRNO | (unsigned)err));
}

/* Deny every call NAME stands for. */
static void deny_name(const char *name, int err)
{
	int found = 0;

	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (!strcmp(name, calls[i].name)) {
			deny(calls[i].nr, err, calls[i].how, calls[i].value);
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
		deny_name(t, action_parse(getenv("LEASH_NOSYS_ERRNO")));
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
		err = action_parse(argv[i + 1]);
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
