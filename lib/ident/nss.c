/* SPDX-License-Identifier: ISC */
/* nss: asking glibc's NSS, through getent(1) in a child, for the names
 * the files lack.  Bounded in time and size; the answers are parsed by
 * passwd.c as the files are. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* pipe2, memfd_create */
#endif
#include "ident/nss.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "time/time.h"
#include "diag/diag.h"

bool nss_available(void)
{
	return access(NSS_GETENT, X_OK) == 0;
}

/* Does close_range work here?  Asked once, in the parent, where a
 * refusal can still be said (-v, the report's fallbacks); the child
 * inherits the answer.  An empty range costs the kernel nothing. */
static bool close_range_works(void)
{
#ifdef SYS_close_range
	static int works = -1;

	if (works < 0) {
		works = syscall(SYS_close_range, ~0U, ~0U, 0U) == 0;
		if (!works)
			fallback_take(FALLBACK_CLOSE_RANGE, errno, "getent's "
				      "descriptors are closed one by one");
	}
	return works;
#else
	return false;
#endif
}

/* Close every descriptor from 3 up: getent gets only its three. */
static void close_from_3(void)
{
	DIR *d;
	struct dirent *e;

#ifdef SYS_close_range
	if (close_range_works() && syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
#endif
	if (!(d = opendir("/proc/self/fd")))
		return;
	while ((e = readdir(d)))
		if (atoi(e->d_name) > 2 && atoi(e->d_name) != dirfd(d))
			close(atoi(e->d_name));
	closedir(d);
}

/* The child: nothing of leash's state reaches getent, which execs
 * with PATH alone in its environment. */
static _Noreturn void child_exec(int out, pid_t parent, const char *db,
				 const char *key)
{
	static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	char *argv[] = { "getent", (char *)db, "--", (char *)key, NULL };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigset_t none;

	/* A chroot without /dev: an empty anonymous file reads as EOF too. */
	if (null < 0)
		null = memfd_create("leash-null", MFD_CLOEXEC);

	/* Its own group, so the deadline kills whatever it started too. */
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	/* Above 2 first: with a closed stdin, null or OUT may be fd 0. */
	out = fcntl(out, F_DUPFD_CLOEXEC, 3);
	null = null < 0 ? -1 : fcntl(null, F_DUPFD_CLOEXEC, 3);
	if (out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(127);
	close_from_3();
	if (chdir("/") < 0)
		_exit(127);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(NSS_GETENT, argv, envp);
	_exit(127);
}

static long ms_left(const struct timespec *deadline)
{
	long ms = clock_ms_until(CLOCK_MONOTONIC, deadline);

	return ms > 0 ? ms : 0;
}

struct answer {
	char *buf;
	size_t len, cap;
};

/* Has PID exited?  Asked without reaping it (WNOWAIT): its pid, and so
 * its process group, stay ours until the reap. */
static bool has_exited(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == pid;
}

/* Read FD, getent's output, until its end or getent's exit, whichever
 * comes first: something it started may hold the pipe open after it
 * (what is in the pipe then is all getent wrote).  Its exit is looked
 * for whenever the pipe is quiet a while, from 1 ms to 64 ms.  0, or -1
 * with ETIMEDOUT, EBADMSG (too long) or a read or allocation error. */
static int answer_read(struct answer *a, int fd, pid_t pid,
		       const struct timespec *deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long quiet_ms = 1;
	bool exited = false;

	for (;;) {
		if (a->cap - a->len < 2) {
			size_t cap = a->cap ? 2 * a->cap : 4096;
			char *b = realloc(a->buf, cap);

			if (!b)
				return -1;
			a->buf = b;
			a->cap = cap;
		}
		long left = ms_left(deadline);
		int r = poll(&p, 1, exited ? 0 : (int)(left < quiet_ms ? left : quiet_ms));
		if (r == 0 && exited)
			return 0;
		if (r == 0 && left == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (r == 0) {
			exited = has_exited(pid);
			quiet_ms = quiet_ms < 64 ? 2 * quiet_ms : 64;
			continue;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		ssize_t n = r < 0 ? 0 : read(fd, a->buf + a->len, a->cap - a->len - 1);
		if (n == 0 && r > 0)
			return 0;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -1;
		a->len += n > 0 ? (size_t)n : 0;
		if (a->len > NSS_ANSWER_MAX) {
			errno = EBADMSG;
			return -1;
		}
	}
}

/* Wait for PID's exit until DEADLINE, without reaping it.  getent exits
 * as it closes its output, so the first or second look mostly finds it
 * gone.  0, or -1 with ETIMEDOUT. */
static int exit_by(pid_t pid, const struct timespec *deadline)
{
	struct timespec pause = { 0, 200000 };

	while (!has_exited(pid)) {
		if (ms_left(deadline) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		nanosleep(&pause, NULL);
		if (pause.tv_nsec < 10000000)
			pause.tv_nsec *= 2;
	}
	return 0;
}

/* SIGKILL cannot be caught: the wait after it is short. */
static void kill_reap(pid_t pid)
{
	int status;

	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

static int exit_errno(int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* getent: 2 is "key not found"; 1 and 3 are its usage errors. */
	return WIFEXITED(status) && WEXITSTATUS(status) == 2 ? ENOENT : EPROTO;
}

/* Fork getent, read its answer, reap it: 0 or an errno value. */
static int query_run(struct answer *a, const char *db, const char *key)
{
	struct timespec deadline;
	int fd[2], status, err;
	pid_t parent = getpid(), pid;

	clock_now(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += NSS_TIMEOUT_MS / 1000;
	deadline.tv_nsec += NSS_TIMEOUT_MS % 1000 * 1000000L;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return errno;
	close_range_works();
	if ((pid = fork()) < 0) {
		err = errno;
		close(fd[0]);
		close(fd[1]);
		return err;
	}
	if (pid == 0)
		child_exec(fd[1], parent, db, key);
	close(fd[1]);
	if (answer_read(a, fd[0], pid, &deadline) < 0 ||
	    exit_by(pid, &deadline) < 0) {
		err = errno;
		kill_reap(pid);
	} else {
		/* What getent left in its group (what may hold the pipe)
		 * ends with it: unreaped, its pid still names the group. */
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		err = exit_errno(status);
	}
	close(fd[0]);
	return err;
}

int nss_query(const char *db, const char *key, char **out)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	struct answer a = { 0 };
	int err;

	if (!nss_available()) {
		errno = ENOENT;
		return -1;
	}
	/* A caller's ignored SIGCHLD would reap getent behind our back. */
	sigemptyset(&dfl.sa_mask);
	if (sigaction(SIGCHLD, &dfl, &old) < 0)
		return -1;
	err = query_run(&a, db, key);
	sigaction(SIGCHLD, &old, NULL);
	if (err) {
		free(a.buf);
		errno = err;
		return -1;
	}
	a.buf[a.len] = '\0';
	*out = a.buf;
	return 0;
}

/* getent looks a key up by number when strtoul reads all of it
 * (" 5" is uid 5): such a key is no name. */
static bool numeric_key(const char *key)
{
	char *end;

	errno = 0;
	strtoul(key, &end, 10);
	return *key && !*end && errno != EINVAL;
}

int nss_passwd(const char *name, struct pwent *pw)
{
	char *text;
	int rc;

	memset(pw, 0, sizeof *pw);
	if (numeric_key(name)) {
		errno = ENOENT;
		return -1;
	}
	if (nss_query("passwd", name, &text) < 0)
		return -1;
	rc = passwd_from_text(text, pw);
	free(text);
	return rc;
}

int nss_group(const char *name, gid_t *gid)
{
	char *text;
	int rc;

	if (numeric_key(name)) {
		errno = ENOENT;
		return -1;
	}
	if (nss_query("group", name, &text) < 0)
		return -1;
	rc = group_from_text(text, gid);
	free(text);
	return rc;
}

/* One id of getent's initgroups line: decimal, 0..4294967294, then a
 * blank or the end of the line. */
static int parse_gid(const char **p, gid_t *gid)
{
	const char *s = *p;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (unsigned)(*s - '0')) >= UINT32_MAX)
			return -1;
	if (*s != ' ' && *s != '\n' && *s != '\0')
		return -1;
	*p = s;
	*gid = (gid_t)v;
	return 0;
}

/* "USER  GID GID...\n": the key as given, padded, then the ids. */
static int parse_groups(const char *text, const char *user, gid_t **g,
			size_t *n, size_t *cap)
{
	size_t len = strlen(user);
	const char *p = text + len;

	if (strncmp(text, user, len) != 0 || (*p != ' ' && *p != '\n' && *p))
		return -1;
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\0')
			return p[*p == '\n'] == '\0' ? 0 : -1;  /* one line only */
		if (*n == *cap) {
			gid_t *b = realloc(*g, (*cap *= 2) * sizeof *b);

			if (!b)
				return -2;
			*g = b;
		}
		if (parse_gid(&p, &(*g)[(*n)++]) < 0)
			return -1;
	}
}

int nss_initgroups(const char *user, gid_t primary, size_t max,
		   gid_t **groups, size_t *ngroups)
{
	size_t n = 1, cap = 16;
	gid_t *g = malloc(cap * sizeof *g);
	char *text = NULL;
	int rc = -1;

	if (!g || nss_query("initgroups", user, &text) < 0)
		goto out;
	g[0] = primary;
	switch (parse_groups(text, user, &g, &n, &cap)) {
	case -1: errno = EBADMSG; goto out;
	case -2: goto out;
	}
	n = group_sort_unique(g, n);
	if (n > max) {
		errno = E2BIG;
		goto out;
	}
	*groups = g;
	*ngroups = n;
	g = NULL;
	rc = 0;
out:
	free(g);
	free(text);
	return rc;
}

const char *nss_strerror(int err)
{
	switch (err) {
	case ETIMEDOUT: return "NSS lookup timed out";
	case EBADMSG: return "NSS lookup gave a malformed answer";
	case EPROTO: return "NSS lookup failed (getent)";
	default: return strerror(err);
	}
}
