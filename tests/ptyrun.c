/* SPDX-License-Identifier: ISC */
/* ptyrun: run a program on a pseudo-terminal of its own and drive it as a
 * person at a keyboard would, from a small script.  A test tool: simple,
 * static, no dependencies.
 *
 *   ptyrun [-g ROWSxCOLS] [-t SECS] [-o FILE] [-f SCRIPT] [-m MARK] [-v]
 *          -- CMD [ARG]...
 *
 * CMD starts as the leader of a new session whose controlling terminal is
 * the pty (setsid + TIOCSCTTY), with fds 0-2 on it, every signal at its
 * default and none blocked: what a terminal emulator gives a login shell.
 * ptyrun then runs the script, one command a line (from SCRIPT, default
 * stdin; blank lines and lines starting with # are skipped):
 *
 *   line TEXT       type TEXT (verbatim) and Enter (\r)
 *   send TEXT       type TEXT with escapes \r \n \t \e \\ \xHH
 *   key K...        type keys: ^C ^D ^Z ^\ ... (control), enter, tab, esc
 *   expect TEXT     wait until TEXT (with send's escapes) appears on the
 *                   screen after the end of the previous match (the
 *                   cursor); move the cursor past it.  Fails after the
 *                   timeout.
 *   refute SECS TEXT  wait SECS; fail if TEXT (escapes as expect) appears
 *                   in what the screen shows meanwhile (output arriving
 *                   during the wait only)
 *   timeout SECS    the time limit of the expects that follow (default -t)
 *   resize R C      set the window size (TIOCSWINSZ on the master: the
 *                   foreground group gets SIGWINCH)
 *   clock           start the stopwatch (it also starts with the program)
 *   at SECS         wait until SECS after the stopwatch started
 *   sleep SECS      wait SECS
 *   stall SECS      wait SECS without reading the screen: a terminal
 *                   that stopped reading (its output queue fills up)
 *   rate BYTES      from now on read the screen at BYTES a second at
 *                   most, as a slow terminal would (0: at once again)
 *   time NAME       print NAME=SECONDS since the stopwatch started
 *   wait            wait (up to the timeout) for CMD to exit
 *   mode raw|cooked wait (up to the timeout) until the terminal's line
 *                   discipline is raw (ICANON off) or cooked (on): a
 *                   program took the terminal, or gave it back
 *   hangup          close the master: the terminal is gone, so the
 *                   kernel sends SIGHUP to CMD's session
 *
 * Every wait keeps reading the screen, so the program never blocks on
 * output.  At the end of the script ptyrun waits for CMD as `wait` does,
 * reads the screen until every holder of the terminal is gone (or it is
 * quiet for 0.5 s), and prints status=exit:N or status=signal:N on
 * stdout.  -o FILE copies the screen, byte for byte, to FILE as it
 * arrives; -g sets the first window size (default 24x80); -m MARK is
 * ignored (it tags the command line so a test can find us); -v traces
 * each script line on stderr with the time.
 *
 * Exit status: 0 the script ran to the end and CMD exited; 1 an expect or
 * refute failed or CMD did not exit in time (the reason and the screen
 * since the cursor go to stderr, then CMD is hung up and killed); 2 bad
 * usage or a failed set-up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int master = -1;		/* -1 once hung up or closed */
static pid_t child;
static int child_status = -1;	/* wait status once reaped */
static int capture = -1;
static char *screen;		/* everything the program wrote */
static size_t screen_len, screen_cap, cursor;
static double t0, limit = 10;
static int lineno, verbose;
static double rate, rate_t0, rate_read;	/* the `rate` command's budget */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void finish_child(void);

/* One voice for every failure: the script line, the reason, and (for a
 * failed script) what the screen shows since the cursor. */
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptyrun: ");
	if (lineno)
		fprintf(stderr, "line %d: ", lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (code == 1) {
		fprintf(stderr, "ptyrun: screen since the cursor:\n");
		for (size_t i = cursor; i < screen_len; i++) {
			unsigned char c = (unsigned char)screen[i];
			if (c == '\n' || (c >= ' ' && c < 0x7f))
				fputc(c, stderr);
			else if (c != '\r')
				fprintf(stderr, "\\x%02x", c);
		}
		fprintf(stderr, "\nptyrun: (end of screen)\n");
	}
	if (child > 0)
		finish_child();
	exit(code);
}

static void screen_add(const char *b, size_t n)
{
	if (screen_len + n > screen_cap) {
		size_t cap = screen_cap ? screen_cap : 65536;
		while (cap < screen_len + n)
			cap *= 2;
		char *p = realloc(screen, cap);
		if (!p)
			die(2, "out of memory");
		screen = p, screen_cap = cap;
	}
	memcpy(screen + screen_len, b, n);
	screen_len += n;
	for (size_t off = 0; capture >= 0 && off < n;) {
		ssize_t w = write(capture, b + off, n - off);
		if (w < 0 && errno != EINTR)
			die(2, "cannot write the capture file: %s", strerror(errno));
		off += w > 0 ? (size_t)w : 0;
	}
}

/* Where the N bytes of WANT occur at or after FROM, or -1. */
static long screen_find(const char *want, size_t n, size_t from)
{
	const char *p;

	if (from > screen_len)
		return -1;
	p = memmem(screen + from, screen_len - from, want, n);
	return p ? (long)(p - screen) : -1;
}

/* Reap CMD if it has exited; true once it has. */
static int child_reaped(void)
{
	int st;

	if (child_status >= 0)
		return 1;
	if (waitpid(child, &st, WNOHANG) == child)
		child_status = st;
	return child_status >= 0;
}

/* Read the screen until UNTIL (a now() value) or, with WANT (N bytes),
 * until WANT shows at or after FROM; returns its offset, or -1.  With
 * CHILD_TOO the wait also ends when CMD exits (checked every 20 ms). */
static long pump(double until, const char *want, size_t n, size_t from,
		 int child_too)
{
	for (;;) {
		long at = want ? screen_find(want, n, from) : -1;
		if (at >= 0)
			return at;
		if (child_too && child_reaped())
			return -1;
		double left = until - now();
		if (left <= 0)
			return -1;
		int ms = (int)(left * 1000) + 1;
		if (child_too && ms > 20)
			ms = 20;
		if (master < 0) {	/* hung up: nothing more will show */
			if (want && !child_too)
				return -1;
			poll(NULL, 0, ms);
			continue;
		}
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		int r = poll(&pfd, 1, ms);
		if (r < 0 && errno != EINTR)
			die(2, "poll: %s", strerror(errno));
		if (r <= 0)
			continue;
		char b[4096];
		size_t want_n = sizeof b;
		if (rate > 0) {
			double budget = rate * (now() - rate_t0) - rate_read;
			if (budget < 1) {
				poll(NULL, 0, 10);
				continue;
			}
			if (budget < (double)want_n)
				want_n = (size_t)budget;
		}
		ssize_t got = read(master, b, want_n);
		if (got > 0) {
			rate_read += (double)got;
			screen_add(b, (size_t)got);
		}
		else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
			/* EIO: no process holds the terminal any more. */
			close(master);
			master = -1;
		}
	}
}

static void type_bytes(const char *b, size_t n)
{
	if (master < 0)
		die(1, "cannot type: the terminal was hung up");
	for (size_t off = 0; off < n;) {
		ssize_t w = write(master, b + off, n - off);
		if (w < 0 && errno != EINTR)
			die(1, "cannot type: %s", strerror(errno));
		off += w > 0 ? (size_t)w : 0;
	}
}

/* TEXT with C-like escapes, so control bytes can be written out; the
 * result is not NUL-terminated (it may hold a NUL). */
static size_t unescape(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (; *s; s++) {
		if (n == cap)
			die(2, "text too long");
		if (*s != '\\' || !s[1]) {
			out[n++] = *s;
			continue;
		}
		switch (*++s) {
		case 'r': out[n++] = '\r'; break;
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'e': out[n++] = 0x1b; break;
		case 'x': {
			char hex[3] = { s[1], s[1] ? s[2] : 0, 0 }, *end;
			out[n++] = (char)strtol(hex, &end, 16);
			if (end == hex)
				die(2, "\\x needs hex digits");
			s += end - hex;
			break;
		}
		default: out[n++] = *s; break;	/* \\ and anything else */
		}
	}
	return n;
}

/* `key` names: ^X for a control key, or enter, tab, esc. */
static void type_keys(char *list)
{
	for (char *k = strtok(list, " "); k; k = strtok(NULL, " ")) {
		char c;
		if (k[0] == '^' && k[1] && !k[2])
			c = k[1] == '?' ? 0x7f : (char)(k[1] & 0x1f);
		else if (!strcmp(k, "enter"))
			c = '\r';
		else if (!strcmp(k, "tab"))
			c = '\t';
		else if (!strcmp(k, "esc"))
			c = 0x1b;
		else
			die(2, "unknown key '%s'", k);
		type_bytes(&c, 1);
	}
}

static double number(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0 || (*end && *end != ' '))
		die(2, "'%s' is not a number of seconds", s);
	return v;
}

static void set_size(const char *spec, char sep)
{
	char *end;
	struct winsize ws = { 0 };
	long r = strtol(spec, &end, 10), c;

	if (end == spec || *end != sep)
		die(2, "bad size '%s'", spec);
	c = strtol(end + 1, &end, 10);
	if (r <= 0 || c <= 0 || r > 9999 || c > 9999 || *end)
		die(2, "bad size '%s'", spec);
	ws.ws_row = (unsigned short)r;
	ws.ws_col = (unsigned short)c;
	if (master < 0 || ioctl(master, TIOCSWINSZ, &ws) < 0)
		die(1, "cannot resize: %s", master < 0 ? "hung up" : strerror(errno));
}

/* Wait for CMD to exit, then read the screen until nobody holds the
 * terminal or it has been quiet for 0.5 s (a leftover may keep it). */
static int wait_child(double secs)
{
	pump(now() + secs, NULL, 0, 0, 1);
	if (!child_reaped())
		return 0;
	while (master >= 0) {
		size_t before = screen_len;
		pump(now() + 0.5, NULL, 0, 0, 0);
		if (screen_len == before)
			break;
	}
	return 1;
}

/* After a failure: hang the terminal up (CMD's session gets SIGHUP), give
 * CMD two seconds, then kill it. */
static void finish_child(void)
{
	pid_t pid = child;

	child = 0;
	if (master >= 0) {
		close(master);
		master = -1;
	}
	for (int i = 0; i < 100 && child_status < 0; i++) {
		if (waitpid(pid, &child_status, WNOHANG) == pid)
			break;
		child_status = -1;
		poll(NULL, 0, 20);
	}
	if (child_status < 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* mode raw|cooked: the master's termios is the terminal's; looked at
 * every 10 ms while the screen is read. */
static void wait_mode(const char *arg)
{
	int raw = !strcmp(arg, "raw");
	double until = now() + limit;
	struct termios t;

	if (!raw && strcmp(arg, "cooked"))
		die(2, "mode needs raw or cooked");
	for (;;) {
		if (master < 0 || tcgetattr(master, &t) < 0)
			die(1, "mode %s: no terminal to look at", arg);
		if ((t.c_lflag & ICANON) ? !raw : raw)
			return;
		if (now() >= until)
			die(1, "mode %s: not reached in %g s", arg, limit);
		pump(now() + 0.01, NULL, 0, 0, 0);
	}
}

static void run_command(char *cmd)
{
	char *arg = strchr(cmd, ' '), text[4096];

	if (arg)
		*arg++ = 0;
	else
		arg = cmd + strlen(cmd);
	if (verbose)
		fprintf(stderr, "ptyrun: %.3f %s %s\n", now() - t0, cmd, arg);
	if (!strcmp(cmd, "line")) {
		type_bytes(arg, strlen(arg));
		type_bytes("\r", 1);
	} else if (!strcmp(cmd, "send")) {
		type_bytes(text, unescape(arg, text, sizeof text));
	} else if (!strcmp(cmd, "key")) {
		type_keys(arg);
	} else if (!strcmp(cmd, "expect")) {
		size_t n = unescape(arg, text, sizeof text);
		long at = pump(now() + limit, text, n, cursor, 0);
		if (at < 0)
			die(1, "expect '%s': not seen in %g s", arg, limit);
		cursor = (size_t)at + n;
	} else if (!strcmp(cmd, "refute")) {
		double secs = number(arg);
		char *want = strchr(arg, ' ');
		if (!want || !*++want)
			die(2, "refute needs SECS and TEXT");
		size_t n = unescape(want, text, sizeof text);
		if (pump(now() + secs, text, n, screen_len, 0) >= 0)
			die(1, "refute '%s': seen within %g s", want, secs);
	} else if (!strcmp(cmd, "timeout")) {
		limit = number(arg);
	} else if (!strcmp(cmd, "resize")) {
		char *sp = strchr(arg, ' ');
		if (sp)
			*sp = 'x';
		set_size(arg, 'x');
	} else if (!strcmp(cmd, "clock")) {
		t0 = now();
	} else if (!strcmp(cmd, "at")) {
		pump(t0 + number(arg), NULL, 0, 0, 0);
	} else if (!strcmp(cmd, "sleep")) {
		pump(now() + number(arg), NULL, 0, 0, 0);
	} else if (!strcmp(cmd, "stall")) {
		poll(NULL, 0, (int)(number(arg) * 1000));
	} else if (!strcmp(cmd, "rate")) {
		rate = number(arg);
		rate_t0 = now();
		rate_read = 0;
	} else if (!strcmp(cmd, "time")) {
		printf("%s=%.3f\n", *arg ? arg : "time", now() - t0);
		fflush(stdout);
	} else if (!strcmp(cmd, "hangup")) {
		if (master >= 0)
			close(master);
		master = -1;
	} else if (!strcmp(cmd, "mode")) {
		wait_mode(arg);
	} else if (!strcmp(cmd, "wait")) {
		if (!wait_child(limit))
			die(1, "wait: the program did not exit in %g s", limit);
	} else {
		die(2, "unknown command '%s'", cmd);
	}
}

/* The child: a session of its own on the pty, clean signals, then CMD. */
static void start_child(char **argv, int slave)
{
	sigset_t none;

	setsid();
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		_exit(126);
	for (int fd = 0; fd < 3; fd++)
		if (dup2(slave, fd) < 0)
			_exit(126);
	if (slave > 2)
		close(slave);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "ptyrun: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void open_pty(const char *size, char **argv)
{
	int slave;

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		die(2, "cannot open a pty: %s", strerror(errno));
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0)
		die(2, "cannot open %s: %s", ptsname(master), strerror(errno));
	set_size(size, 'x');
	child = fork();
	if (child < 0)
		die(2, "fork: %s", strerror(errno));
	if (child == 0)
		start_child(argv, slave);
	/* Only the program holds the slave now: EIO once it and its
	 * descendants are gone. */
	close(slave);
}

int main(int argc, char **argv)
{
	const char *size = "24x80", *script = NULL, *out = NULL;
	FILE *in = stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int opt;

	while ((opt = getopt(argc, argv, "+g:t:o:f:m:v")) != -1) {
		switch (opt) {
		case 'g': size = optarg; break;
		case 't': limit = number(optarg); break;
		case 'o': out = optarg; break;
		case 'f': script = optarg; break;
		case 'm': break;
		case 'v': verbose = 1; break;
		default: return 2;
		}
	}
	if (optind >= argc)
		die(2, "usage: ptyrun [-g ROWSxCOLS] [-t SECS] [-o FILE] "
		    "[-f SCRIPT] [-m MARK] [-v] -- CMD [ARG]...");
	if (script && !(in = fopen(script, "re")))
		die(2, "cannot open %s: %s", script, strerror(errno));
	if (out && (capture = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		die(2, "cannot open %s: %s", out, strerror(errno));
	/* A failed write to a hung-up pty must be an error, not a death. */
	signal(SIGPIPE, SIG_IGN);
	t0 = now();
	open_pty(size, argv + optind);
	while ((n = getline(&line, &cap, in)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		char *p = line + strspn(line, " \t");
		if (*p && *p != '#')
			run_command(p);
	}
	lineno = 0;
	if (!wait_child(limit))
		die(1, "the program did not exit in %g s after the script", limit);
	child = 0;
	if (WIFSIGNALED(child_status))
		printf("status=signal:%d\n", WTERMSIG(child_status));
	else
		printf("status=exit:%d\n", WEXITSTATUS(child_status));
	return 0;
}
