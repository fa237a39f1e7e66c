/* SPDX-License-Identifier: ISC */
/* relay: caller's terminal <-> pty master, without a thread. */
#include "terminal/relay.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "sys/sys.h"
#include "time/time.h"

/* In .bss: untouched until a session uses them, and no stack pages. */
static BSS_PAGE char in_buf[RELAY_IN];
static BSS_PAGE char out_buf[RELAY_OUT];

void relay_init(struct relay *r, struct pty *p)
{
	r->pty = p;
	r->term_open = p->rd >= 0;
	r->paused = false;
	r->master_eof = false;
	r->hung_up = false;
	r->in_off = r->in_len = 0;
	r->out_off = r->out_len = 0;
	r->last_out = (struct timespec){ 0, 0 };
}

static bool out_pending(const struct relay *r)
{
	return r->out_off < r->out_len;
}

struct pollfd relay_term_poll(const struct relay *r)
{
	bool want = r->term_open && !r->paused && r->in_len == r->in_off &&
		    r->pty->master >= 0;

	return (struct pollfd){ want ? r->pty->rd : -1, POLLIN, 0 };
}

struct pollfd relay_master_poll(const struct relay *r)
{
	short ev = out_pending(r) ? 0 : POLLIN;

	if (r->in_len > r->in_off)
		ev |= POLLOUT;
	return (struct pollfd){ r->master_eof || !ev ? -1 : r->pty->master,
				ev, 0 };
}

struct pollfd relay_out_poll(const struct relay *r)
{
	return (struct pollfd){ out_pending(r) ? r->pty->wr : -1, POLLOUT, 0 };
}

/* As much of the pending output as the terminal takes now.  A terminal
 * that is gone (EIO, EPIPE) takes nothing more: the rest is dropped. */
void relay_to_term(struct relay *r)
{
	while (out_pending(r)) {
		ssize_t k = write(r->pty->wr, out_buf + r->out_off,
				  r->out_len - r->out_off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;         /* POLLOUT on the terminal next */
		if (k <= 0)
			break;
		r->out_off += (size_t)k;
	}
	r->out_off = r->out_len = 0;
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
	ssize_t n = read(r->pty->rd, in_buf, sizeof in_buf);

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
		r->hung_up = true;
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

/* One read of the master, when no output waits: 1 data moved (all or
 * part of it now pending), 0 nothing now, -1 EIO/EOF. */
static int pull_output(struct relay *r)
{
	ssize_t n;

	if (out_pending(r))
		return 0;
	n = read(r->pty->master, out_buf, sizeof out_buf);
	if (n > 0) {
		clock_now(LEASH_CLOCK, &r->last_out);
		r->out_off = 0;
		r->out_len = (size_t)n;
		relay_to_term(r);
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

/* Output to the terminal until EIO, QUIET_MS without a byte or MAX_MS
 * in all; what is still pending stays pending. */
static void relay_flush(struct relay *r, int quiet_ms, int max_ms)
{
	struct timespec t0;

	clock_now(LEASH_CLOCK, &t0);
	while ((!r->master_eof && r->pty->master >= 0) || out_pending(r)) {
		struct pollfd p[2] = { relay_master_poll(r), relay_out_poll(r) };
		long left = max_ms - clock_ms_since(LEASH_CLOCK, &t0);
		int n;

		if (left <= 0)
			break;
		n = poll(p, 2, left < quiet_ms ? (int)left : quiet_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (p[1].revents)
			relay_to_term(r);
		/* Until EIO, not EAGAIN: an old kernel may say EAGAIN while
		 * the last bytes are still on their way through the ldisc. */
		if (p[0].revents)
			while (pull_output(r) > 0)
				;
	}
}

void relay_suspend(struct relay *r)
{
	relay_flush(r, 0, RELAY_SUSPEND_MS);
}

void relay_finish(struct relay *r, const struct timespec *deadline,
		  bool killed)
{
	long max = killed ? RELAY_DRAIN_KILLED_MS : RELAY_DRAIN_MAX_MS;

	if (!killed && deadline) {
		long ms = clock_ms_until(LEASH_CLOCK, deadline);

		max = ms < 0 ? 0 : ms < max ? ms : max;
	}
	relay_flush(r, RELAY_DRAIN_QUIET_MS, (int)max);
	r->out_off = r->out_len = 0;
}
