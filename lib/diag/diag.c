/* SPDX-License-Identifier: ISC */
/* diag: one voice for every message leash prints. */
#include "diag/diag.h"

#include "sys/sys.h"
#include "signal/signal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *diag_prog = "leash";
void (*diag_exit_hook)(int status);
static BSS_PAGE char last[1024];
static int out_fd = STDERR_FILENO;

/* How long a line waits for a non-blocking OUT_FD that takes nothing. */
static int wait_ms, tries_max;

int diag_use_fd(int fd, int wait, int tries)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (copy < 0)
		return -1;
	if (out_fd != STDERR_FILENO)
		close(out_fd);
	out_fd = copy;
	wait_ms = wait;
	tries_max = tries;
	return 0;
}

/* S whole on a blocking OUT_FD, as before; on a non-blocking one what
 * the terminal takes within a few short waits, the rest lost.  A failed
 * write of a diagnostic changes nothing (GNU 9.10). */
static void diag_write(const char *s, size_t n)
{
	int tries = 0;

	while (n > 0) {
		ssize_t k = write(out_fd, s, n);

		if (k > 0) {
			s += k;
			n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN && tries++ < tries_max) {
			struct pollfd p = { out_fd, POLLOUT, 0 };

			if (poll(&p, 1, wait_ms) > 0)
				continue;
		}
		return;
	}
}

void diag_put(const char *s)
{
	int saved = errno;

	diag_write(s, strlen(s));
	errno = saved;
}

const char *diag_last(void)
{
	return last;
}

/* ENOSYS where a seccomp filter traps calls is most likely its doing:
 * the last trapped call is named instead (lib/signal/sigsys.h). */
static const char *err_text(int err)
{
	static char refusal[64];

	if (err == ENOSYS && sigsys_refusal(refusal, sizeof refusal))
		return refusal;
	return strerror(err);
}

/* One write per message, so lines from leash and its child never mix. */
static void diag_vprint(int err, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "%s: ", diag_prog);
	int room = (int)sizeof buf - n;

	n += vsnprintf(buf + n, room > 0 ? (size_t)room : 0, fmt, ap);
	if (err && n < (int)sizeof buf)
		n += snprintf(buf + n, sizeof buf - n, ": %s", err_text(err));
	if (n > (int)sizeof buf - 2)
		n = (int)sizeof buf - 2;
	/* Kept without the prefix for a report; "prog: " is shorter. */
	size_t pre = strlen(diag_prog) + 2;
	if ((size_t)n >= pre) {
		memcpy(last, buf + pre, (size_t)n - pre);
		last[(size_t)n - pre] = '\0';
	}
	buf[n++] = '\n';
	diag_write(buf, (size_t)n);
}

void diag_warn(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	diag_vprint(0, fmt, ap);
	va_end(ap);
	errno = saved;
}

void diag_warn_errno(int err, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	diag_vprint(err, fmt, ap);
	va_end(ap);
	errno = saved;
}

void diag_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vprint(0, fmt, ap);
	va_end(ap);
	if (diag_exit_hook)
		diag_exit_hook(status);
	_exit(status);
}

void diag_die_errno(int status, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vprint(err, fmt, ap);
	va_end(ap);
	if (diag_exit_hook)
		diag_exit_hook(status);
	_exit(status);
}

/* GNU's quote() picks curly quotes when the locale's charset is UTF-8;
 * leash reads the same variables setlocale() would. */
static int env_is_utf8(void)
{
	const char *names[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *v = getenv(names[i]);
		if (v && *v)
			return strstr(v, "UTF-8") || strstr(v, "utf-8") ||
			       strstr(v, "utf8") || strstr(v, "UTF8");
	}
	return 0;
}

static int locale_is_utf8(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = env_is_utf8();
	return cached;
}

const char *diag_quote(const char *s)
{
	static BSS_PAGE char bufs[2][DIAG_QUOTE_MAX];
	static int which;

	return quote_to(bufs[which ^= 1], sizeof bufs[0], s, locale_is_utf8());
}

const char *diag_quote_to(char *buf, size_t size, const char *s)
{
	return quote_to(buf, size, s, env_is_utf8());
}
