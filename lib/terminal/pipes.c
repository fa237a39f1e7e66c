/* SPDX-License-Identifier: ISC */
/* pipes: the command's stdout and stderr through leash (--idle without a
 * pty), without a thread; the drop policy is relay.h's. */
#define _GNU_SOURCE
#include "terminal/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sys.h"
#include "time/time.h"

#ifndef SYS_kcmp
#define SYS_kcmp 312
#endif
#define KCMP_FILE 0

/* In .bss: untouched unless --idle relays. */
static BSS_PAGE char bufs[2][RELAY_OUT];

/* Are fds 1 and 2 one open file description (2>&1)?  Then one pipe
 * keeps their order.  No kcmp (CONFIG_KCMP off): two pipes. */
static bool same_description(void)
{
	pid_t self = getpid();

	return syscall(SYS_kcmp, self, self, KCMP_FILE, 1, 2) == 0;
}

/* Where FD's bytes go: a description of its own, non-blocking, so no
 * write waits and the caller's flags stay (a pipe, FIFO or terminal); a
 * socket cannot be reopened, send() takes MSG_DONTWAIT; a regular file
 * or another device (/dev/null) is written as it is: it does not wait
 * on a reader (and a file's offset is shared).  A pipe that cannot be
 * reopened (another user's) is used only if it is non-blocking already:
 * else a stalled reader could hold leash past the deadline.  -1 with
 * errno then. */
static int sink_open(struct pipe_stream *s)
{
	char path[32];
	struct stat st;
	int err;

	s->sink = s->fd;
	s->sink_own = s->sock = false;
	if (fstat(s->fd, &st) < 0 || S_ISREG(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && !isatty(s->fd)))
		return 0;
	if (S_ISSOCK(st.st_mode)) {
		s->sock = true;
		return 0;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", s->fd);
	s->sink = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	s->sink_own = s->sink >= 0;
	if (s->sink_own)
		return 0;
	err = errno;
	s->sink = s->fd;
	return fcntl(s->fd, F_GETFL) & O_NONBLOCK ? 0 : (errno = err, -1);
}

int pipes_open(struct pipes *p, unsigned skip)
{
	bool one = same_description();
	int fds[2];

	p->n = 0;
	p->last_out = (struct timespec){ 0, 0 };
	for (int fd = 1; fd <= 2; fd++) {
		struct pipe_stream *s = &p->s[p->n];

		if (fcntl(fd, F_GETFD) < 0 || (skip & (1u << fd)) ||
		    (fd == 2 && one && p->n))
			continue;       /* closed: stays so; the pty's; 2>&1 */
		if (pipe2(fds, O_CLOEXEC) < 0) {
			int err = errno;
			pipes_close(p);
			return errno = err, -1;
		}
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		*s = (struct pipe_stream){ .rd = fds[0], .wr = fds[1], .fd = fd,
					   .to = 1u << fd, .buf = bufs[p->n] };
		p->n++;
		if (sink_open(s) < 0) {
			int err = errno;
			pipes_close(p);
			return errno = err, -1;
		}
	}
	/* 2>&1: the child's 2 is 1's pipe too. */
	if (one && p->n == 1 && p->s[0].fd == 1)
		p->s[0].to |= 1u << 2;
	return 0;
}

int pipes_attach(const struct pipes *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct pipe_stream *s = &p->s[i];

		for (int fd = 1; fd <= 2; fd++)
			if ((s->to & (1u << fd)) && dup2(s->wr, fd) < 0)
				return -1;
	}
	return 0;
}

static bool pending(const struct pipe_stream *s)
{
	return s->off < s->len;
}

struct pollfd pipes_in_poll(const struct pipes *p, unsigned i)
{
	const struct pipe_stream *s = &p->s[i];

	return (struct pollfd){ pending(s) ? -1 : s->rd, POLLIN, 0 };
}

struct pollfd pipes_out_poll(const struct pipes *p, unsigned i)
{
	const struct pipe_stream *s = &p->s[i];

	return (struct pollfd){ pending(s) ? s->sink : -1, POLLOUT, 0 };
}

static ssize_t sink_write(const struct pipe_stream *s)
{
	if (s->sock)
		return send(s->sink, s->buf + s->off, s->len - s->off,
			    MSG_DONTWAIT | MSG_NOSIGNAL);
	return write(s->sink, s->buf + s->off, s->len - s->off);
}

/* As much as the sink takes now; a sink that is gone (EPIPE, EIO...)
 * takes nothing more: the rest is dropped. */
void pipes_to_sink(struct pipes *p, unsigned i)
{
	struct pipe_stream *s = &p->s[i];

	while (pending(s)) {
		ssize_t k = sink_write(s);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;         /* POLLOUT on the sink next */
		if (k <= 0)
			break;
		s->off += (size_t)k;
	}
	s->off = s->len = 0;
}

/* One read, when nothing waits: 1 data, 0 nothing now, -1 EOF. */
static int pull(struct pipes *p, struct pipe_stream *s)
{
	ssize_t n;

	if (pending(s) || s->rd < 0)
		return 0;
	n = read(s->rd, s->buf, RELAY_OUT);
	if (n > 0) {
		clock_now(LEASH_CLOCK, &p->last_out);
		s->off = 0;
		s->len = (size_t)n;
		pipes_to_sink(p, (unsigned)(s - p->s));
		return 1;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	close(s->rd);
	s->rd = -1;
	return -1;
}

/* A few reads a wake-up: a flood cannot starve the deadline. */
void pipes_from_command(struct pipes *p, unsigned i)
{
	for (int k = 0; k < 8 && pull(p, &p->s[i]) > 0; k++)
		;
}

static bool open_or_pending(const struct pipes *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->s[i].rd >= 0 || pending(&p->s[i]))
			return true;
	return false;
}

/* Until EOF, QUIET_MS without a byte or MAX_MS in all (relay.h). */
static void pipes_flush(struct pipes *p, int quiet_ms, int max_ms)
{
	struct timespec t0;

	clock_now(LEASH_CLOCK, &t0);
	while (open_or_pending(p)) {
		struct pollfd f[4];
		long left = max_ms - clock_ms_since(LEASH_CLOCK, &t0);
		int n;

		if (left <= 0)
			break;
		for (unsigned i = 0; i < 2; i++) {
			f[2 * i] = i < p->n ? pipes_in_poll(p, i) : (struct pollfd){ -1, 0, 0 };
			f[2 * i + 1] = i < p->n ? pipes_out_poll(p, i) : (struct pollfd){ -1, 0, 0 };
		}
		n = poll(f, 4, left < quiet_ms ? (int)left : quiet_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (unsigned i = 0; i < p->n; i++) {
			if (f[2 * i + 1].revents)
				pipes_to_sink(p, i);
			if (f[2 * i].revents)
				while (pull(p, &p->s[i]) > 0)
					;
		}
	}
}

void pipes_finish(struct pipes *p, const struct timespec *deadline,
		  bool killed)
{
	long max = killed ? RELAY_DRAIN_KILLED_MS : RELAY_DRAIN_MAX_MS;

	for (unsigned i = 0; i < p->n; i++) {
		close(p->s[i].wr);      /* EOF once the command's tree is done */
		p->s[i].wr = -1;
	}
	if (!killed && deadline) {
		long ms = clock_ms_until(LEASH_CLOCK, deadline);

		max = ms < 0 ? 0 : ms < max ? ms : max;
	}
	pipes_flush(p, RELAY_DRAIN_QUIET_MS, (int)max);
	for (unsigned i = 0; i < p->n; i++)
		p->s[i].off = p->s[i].len = 0;
}

int pipes_err_sink(const struct pipes *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if ((p->s[i].to & (1u << 2)) && p->s[i].sink_own)
			return p->s[i].sink;
	return -1;
}

void pipes_close(struct pipes *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		struct pipe_stream *s = &p->s[i];

		if (s->rd >= 0)
			close(s->rd);
		if (s->wr >= 0)
			close(s->wr);
		if (s->sink_own)
			close(s->sink);
		s->rd = s->wr = -1;
		s->sink_own = false;
	}
	p->n = 0;
}
