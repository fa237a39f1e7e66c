/* SPDX-License-Identifier: ISC */
/* relay: caller's terminal <-> pty master, without a thread. */
#include "relay.h"

#include <errno.h>
#include <unistd.h>

/* In .bss: untouched until a session uses them, and no stack pages. */
static char in_buf[4096];
static char out_buf[16384];

void relay_init(struct relay *r, struct pty *p)
{
	r->pty = p;
	r->term_open = true;
	r->paused = false;
	r->master_eof = false;
	r->in_off = r->in_len = 0;
}

struct pollfd relay_term_poll(const struct relay *r)
{
	bool want = r->term_open && !r->paused && r->in_len == r->in_off &&
		    r->pty->master >= 0;

	return (struct pollfd){ want ? r->pty->term : -1, POLLIN, 0 };
}

struct pollfd relay_master_poll(const struct relay *r)
{
	short ev = POLLIN;

	if (r->in_len > r->in_off)
		ev |= POLLOUT;
	return (struct pollfd){ r->master_eof ? -1 : r->pty->master, ev, 0 };
}

/* Blocking writes to the caller: its terminal has IXON off in raw mode,
 * so ^S cannot wedge us; a slow reader only slows the command. */
static void write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		b += k;
		n -= (size_t)k;
	}
}

static void push_typed(struct relay *r)
{
	while (r->in_off < r->in_len) {
		ssize_t k = write(r->pty->master, in_buf + r->in_off,
				  r->in_len - r->in_off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;         /* POLLOUT on the master next */
		if (k <= 0) {
			r->in_off = r->in_len = 0;
			return;
		}
		r->in_off += (size_t)k;
	}
	r->in_off = r->in_len = 0;
}

void relay_from_term(struct relay *r)
{
	ssize_t n = read(r->pty->term, in_buf, sizeof in_buf);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	/* Put in the background (`bg`): a read is EIO then, with TTIN
	 * ignored; wait to be continued in the foreground. */
	if (n < 0 && errno == EIO && tcgetpgrp(r->pty->term) != getpgrp()) {
		r->paused = true;
		return;
	}
	if (n <= 0) {
		/* The caller's terminal hung up (EIO, or 0 in raw mode): the
		 * session inside gets its hangup when the master closes. */
		r->term_open = false;
		pty_hangup(r->pty);
		r->master_eof = true;
		return;
	}
	r->in_off = 0;
	r->in_len = (size_t)n;
	push_typed(r);
}

void relay_resume(struct relay *r)
{
	r->paused = false;
}

/* One read of the master: 1 data moved, 0 nothing now, -1 EIO/EOF. */
static int pull_output(struct relay *r)
{
	ssize_t n = read(r->pty->master, out_buf, sizeof out_buf);

	if (n > 0) {
		write_all(r->pty->out, out_buf, (size_t)n);
		return 1;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	r->master_eof = true;
	return -1;
}

void relay_from_master(struct relay *r, short revents)
{
	if (revents & POLLOUT)
		push_typed(r);
	/* POLLHUP comes with the last data: read until EIO says so.  A
	 * few reads a wake-up, so a flood of output cannot starve the
	 * deadline and the signals. */
	if (revents & (POLLIN | POLLHUP | POLLERR))
		for (int i = 0; i < 8 && pull_output(r) > 0; i++)
			;
}

void relay_drain(struct relay *r, int quiet_ms)
{
	while (!r->master_eof && r->pty->master >= 0) {
		struct pollfd p = { r->pty->master, POLLIN, 0 };
		int n = poll(&p, 1, quiet_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		/* Until EIO, not EAGAIN: an old kernel may say EAGAIN while
		 * the last bytes are still on their way through the ldisc. */
		while (pull_output(r) > 0)
			;
	}
}
