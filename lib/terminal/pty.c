/* SPDX-License-Identifier: ISC */
/* pty: open, attach, raw mode and restore of the caller's terminal. */
#define _GNU_SOURCE
#include "terminal/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef TIOCGDEV
#define TIOCGDEV _IOR('T', 0x32, unsigned int)
#endif
#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

/* The first standard descriptor that is a terminal, or -1. */
static int first_terminal(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd))
			return fd;
	return -1;
}

bool pty_any_terminal(void)
{
	return first_terminal() >= 0;
}

/* The terminal behind FD, as the kernel encodes its number: by
 * TIOCGDEV, since the device of the file is (5,0) for every /dev/tty
 * whatever terminal it stands for; st_rdev where TIOCGDEV is missing
 * (before 3.8), so a /dev/tty there matches no other fd.  -1 when FD
 * is no terminal. */
static long tty_number(int fd)
{
	unsigned dev;
	struct stat st;

	if (ioctl(fd, TIOCGDEV, &dev) == 0)
		return (long)dev;
	if (!isatty(fd) || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return -1;
	return (long)((minor(st.st_rdev) & 0xff) | (major(st.st_rdev) << 8) |
		      ((minor(st.st_rdev) & ~0xffu) << 12));
}

/* Which std fds are the same terminal as TERM. */
static unsigned same_terminal(int term)
{
	long t = tty_number(term);
	unsigned mask = 0;

	for (int fd = 0; t >= 0 && fd <= 2; fd++)
		if (tty_number(fd) == t)
			mask |= 1u << fd;
	return mask;
}

/* The slave, by TIOCGPTPEER (4.13+: no path lookup race) or by name. */
static int open_slave(int master)
{
	char name[64];
	int fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0 || (errno != EINVAL && errno != ENOTTY))
		return fd;
	if (ptsname_r(master, name, sizeof name) != 0)
		return -1;
	return open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

/* The caller's modes and size, and the slave handed to the target user
 * (else mesg, write and programs that check their tty's owner fail). */
static int pty_setup(struct pty *p, uid_t uid, const char **step)
{
	struct winsize ws;
	struct termios t;

	*step = "tcgetattr";
	if (tcgetattr(p->term, &p->saved) < 0)
		return -1;
	/* Output only (nothing typed is relayed, the caller's terminal is
	 * never raw): that terminal processes the output, once. */
	t = p->saved;
	if (!(p->std_mask & 1))
		t.c_oflag &= ~(tcflag_t)OPOST;
	*step = "tcsetattr";
	if (tcsetattr(p->slave, TCSANOW, &t) < 0)
		return -1;
	if (ioctl(p->term, TIOCGWINSZ, &ws) == 0)
		ioctl(p->master, TIOCSWINSZ, &ws);
	*step = "fchown";
	if (fchown(p->slave, uid, (gid_t)-1) < 0)
		return -1;
	*step = "fchmod";
	return fchmod(p->slave, 0620);
}

/* FD's terminal opened once more, non-blocking: a description of our
 * own, so O_NONBLOCK does not reach the caller's shell, which shares
 * FD's.  Through /proc, as the terminal may have no name we can see. */
static int reopen_nonblock(int fd, int flags)
{
	char path[32];

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	return open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

int pty_open(struct pty *p, uid_t uid, const char **step)
{
	int err;

	p->raw = false;
	p->slave = p->master = p->rd = p->wr = -1;
	*step = "find the terminal";
	if ((p->term = first_terminal()) < 0) {
		errno = ENOTTY;
		return -1;
	}
	p->std_mask = same_terminal(p->term);
	p->out = p->std_mask & 2 ? 1 : p->std_mask & 4 ? 2 : p->term;
	*step = "open the terminal again";
	if (p->std_mask & 1)
		p->rd = reopen_nonblock(0, O_RDONLY);
	p->wr = reopen_nonblock(p->out, O_WRONLY);
	if ((p->std_mask & 1 && p->rd < 0) || p->wr < 0)
		goto fail;
	*step = "posix_openpt";
	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->master < 0)
		return -1;
	*step = "grantpt";
	if (grantpt(p->master) < 0)
		goto fail;
	*step = "unlockpt";
	if (unlockpt(p->master) < 0)
		goto fail;
	*step = "open the slave";
	if ((p->slave = open_slave(p->master)) < 0)
		goto fail;
	if (pty_setup(p, uid, step) == 0)
		return 0;
fail:
	err = errno;
	pty_close(p);
	return errno = err, -1;
}

/* Each std fd that is a terminal other than the one numbered KEEP
 * (-1: any terminal) becomes /dev/null. */
static int null_terminals_but(long keep)
{
	int null = -1, err;

	for (int fd = 0; fd <= 2; fd++) {
		if (!isatty(fd) || (keep >= 0 && tty_number(fd) == keep))
			continue;
		if (null < 0 &&
		    (null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
			return -1;
		if (dup2(null, fd) < 0) {
			err = errno;
			close(null);
			return errno = err, -1;
		}
	}
	if (null >= 0)
		close(null);
	return 0;
}

int pty_attach(const struct pty *p)
{
	long slave = tty_number(p->slave);

	if (slave < 0)
		return errno = ENOTTY, -1;
	if (setsid() < 0 || ioctl(p->slave, TIOCSCTTY, 0) < 0)
		return -1;
	for (int fd = 0; fd <= 2; fd++)
		if (p->std_mask & (1u << fd) && dup2(p->slave, fd) < 0)
			return -1;
	/* Checked again after the fact, failing closed: a terminal the
	 * parent did not take for the caller's (another one, or one it
	 * could not tell) is no descriptor of the target's. */
	return null_terminals_but(slave);
}

int pty_null_terminals(void)
{
	return null_terminals_but(-1);
}

void pty_after_fork(struct pty *p)
{
	close(p->slave);
	p->slave = -1;
	fcntl(p->master, F_SETFL, fcntl(p->master, F_GETFL) | O_NONBLOCK);
}

static bool in_foreground(const struct pty *p)
{
	return tcgetpgrp(p->term) == getpgrp();
}

void pty_raw(struct pty *p)
{
	struct termios t;

	if (p->raw || !(p->std_mask & 1) || !in_foreground(p))
		return;
	/* Re-read: the modes may have changed while we were stopped. */
	tcgetattr(p->term, &p->saved);
	t = p->saved;
	tcflag_t oflag = t.c_oflag;
	cfmakeraw(&t);
	/* The pty already turned "\n" into "\r\n" for what goes to our
	 * stdout.  When stdout is not that terminal, others (a pager in the
	 * pipeline) write to it too: keep its output flags for them, or
	 * their lines would stair-step. */
	if (!(p->std_mask & 2))
		t.c_oflag = oflag;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	/* TCSANOW: typeahead is kept (unlike TCSAFLUSH), and nothing waits
	 * for output a stalled terminal may never take (TCSADRAIN). */
	if (tcsetattr(p->term, TCSANOW, &t) == 0)
		p->raw = true;
}

void pty_restore(struct pty *p)
{
	if (!p->raw)
		return;
	/* Only from the foreground; TTOU is ignored, so a background
	 * tcsetattr would fail with EIO rather than stop us. */
	if (in_foreground(p))
		tcsetattr(p->term, TCSANOW, &p->saved);
	p->raw = false;
}

void pty_sync_size(const struct pty *p)
{
	struct winsize ws;

	if (p->master >= 0 && ioctl(p->term, TIOCGWINSZ, &ws) == 0)
		ioctl(p->master, TIOCSWINSZ, &ws);
}

void pty_hangup(struct pty *p)
{
	if (p->master >= 0)
		close(p->master);
	p->master = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void pty_close(struct pty *p)
{
	pty_restore(p);
	close_fd(&p->slave);
	close_fd(&p->rd);
	close_fd(&p->wr);
	pty_hangup(p);
}
