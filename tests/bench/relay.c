/* SPDX-License-Identifier: ISC */
/* relay: the pty relay of an interactive -u session.  `cat` of a 64 MiB
 * file (16 MiB quick) as nobody, typed at a terminal of the harness's
 * own, through leash's pty and through util-linux `su --pty`, rounds
 * interleaved; the throughput ratio, and leash's Rss while it relays. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { R_LEASH, R_SU, R_N };

/* Start ARGV on a new terminal (session leader, ctty, fds 0-2). */
static pid_t on_terminal(const char *const *argv, int *master)
{
	int slave;
	pid_t pid;

	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0 || grantpt(*master) < 0 || unlockpt(*master) < 0)
		return -1;
	slave = open(ptsname(*master), O_RDWR | O_NOCTTY);
	if (slave < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		for (int fd = 0; fd <= 2; fd++)
			dup2(slave, fd);
		if (slave > 2)
			close(slave);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(slave);
	return pid;
}

/* Leash's Rss (KiB) from its smaps_rollup, or NaN. */
static double rss_of(pid_t pid)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NAN;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return NAN;
	buf[n] = '\0';
	const char *p = strstr(buf, "\nRss:");
	return p ? strtod(p + 5, NULL) : NAN;
}

/* One run: seconds until the terminal is quiet and the command gone;
 * *RSS sampled half-way (by bytes) when RSS is not NULL. */
static double run_once(const char *const *argv, size_t bytes, double *rss)
{
	static char buf[65536];
	int master, st;
	size_t got = 0;
	int64_t t0 = now_ns();
	pid_t pid = on_terminal(argv, &master);

	if (pid < 0)
		return NAN;
	for (;;) {
		ssize_t n = read(master, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;          /* EIO: nobody holds the terminal */
		if (rss && got < bytes / 2 && got + (size_t)n >= bytes / 2)
			*rss = rss_of(pid);
		got += (size_t)n;
	}
	close(master);
	waitpid(pid, &st, 0);
	double secs = (double)(now_ns() - t0) / 1e9;
	/* cat's output, with \n as \r\n: at least BYTES arrived. */
	return got >= bytes ? secs : NAN;
}

static int make_file(const char *path, size_t bytes)
{
	static char line[64];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	memset(line, 'x', sizeof line - 1);
	line[sizeof line - 1] = '\n';
	for (size_t n = 0; n < bytes; n += sizeof line)
		if (write(fd, line, sizeof line) != (ssize_t)sizeof line)
			return close(fd), -1;
	return close(fd);
}

void sec_relay(const struct setup *s)
{
	char file[128], cmd[200];
	size_t bytes = (s->quick ? 16u : 64u) << 20;
	int rounds = s->quick ? 3 : 7;
	double t[R_N][16], rss = NAN, med[R_N];

	printf("\nrelay: cat of a %zu MiB file as nobody through a pty, "
	       "typed at a terminal (%d rounds)\n", bytes >> 20, rounds);
	json_obj("relay");
	if (getuid() != 0 || !s->leash || !s->su) {
		printf("  skipped: needs root, leash and su\n");
		json_str("skipped", "needs root, leash and su");
		json_end();
		return;
	}
	snprintf(file, sizeof file, "%s/relay.dat", s->dir);
	snprintf(cmd, sizeof cmd, "cat %s", file);
	if (make_file(file, bytes) < 0) {
		printf("  skipped: cannot write %s\n", file);
		json_end();
		return;
	}
	const char *const lv[] = { s->leash, "-u", "nobody", "--pty",
				   "--cgroup=off", "--", "cat", file, NULL };
	const char *const sv[] = { s->su, "--pty", "nobody", "-s", "/bin/sh",
				   "-c", cmd, NULL };
	for (int k = 0; k < rounds && !bench_stop; k++) {
		t[R_LEASH][k] = run_once(lv, bytes, k == rounds / 2 ? &rss : NULL);
		t[R_SU][k] = run_once(sv, bytes, NULL);
	}
	for (int i = 0; i < R_N; i++) {
		struct stats st;
		stats_of(t[i], rounds, &st);
		med[i] = st.med;
	}
	printf("  %-36s %8.3f s  %7.1f MiB/s\n", "leash -u nobody --pty cat",
	       med[R_LEASH], (double)(bytes >> 20) / med[R_LEASH]);
	printf("  %-36s %8.3f s  %7.1f MiB/s\n", "su --pty nobody -c cat",
	       med[R_SU], (double)(bytes >> 20) / med[R_SU]);
	printf("  leash / su time: %.2f; leash Rss while relaying: %.0f KiB\n",
	       med[R_LEASH] / med[R_SU], rss);
	json_num("leash_s", med[R_LEASH]);
	json_num("su_pty_s", med[R_SU]);
	json_num("leash_vs_su", med[R_LEASH] / med[R_SU]);
	json_num("leash_rss_kib", rss);
	json_end();
	fig.relay_vs_su = med[R_LEASH] / med[R_SU];
	fig.relay_rss_kib = rss;
	unlink(file);
}
