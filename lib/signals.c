/* SPDX-License-Identifier: ISC */
/* signals: names <-> numbers, as kill -l and GNU's operand2sig. */
#include "signals.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { int num; const char *name; } sig_table[] = {
	{ 0, "EXIT" },
	{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
	{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
	{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
	{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
	{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
	{ SIGSTKFLT, "STKFLT" }, { SIGCHLD, "CHLD" }, { SIGCONT, "CONT" },
	{ SIGSTOP, "STOP" }, { SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" },
	{ SIGTTOU, "TTOU" }, { SIGURG, "URG" }, { SIGXCPU, "XCPU" },
	{ SIGXFSZ, "XFSZ" }, { SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
	{ SIGWINCH, "WINCH" }, { SIGIO, "POLL" }, { SIGPWR, "PWR" },
	{ SIGSYS, "SYS" },
	/* Aliases accepted on input; the first name above is printed. */
	{ SIGIO, "IO" }, { SIGABRT, "IOT" }, { SIGCHLD, "CLD" },
};

#define NSIG_TABLE (sizeof sig_table / sizeof sig_table[0])

/* Real-time signals as glibc numbers them (RTMIN = 34), so names match
 * GNU tools whatever libc leash is built with (musl's SIGRTMIN is 35). */
#define RT_MIN 34
#define RT_MAX 64

/* A non-negative decimal; -1 on anything else. */
static int parse_decimal(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > 1000)
		return -1;
	return (int)v;
}

/* RTMIN, RTMIN+n, RTMAX, RTMAX-n, as bash's kill -l names them. */
static int parse_rt(const char *s)
{
	int base, sign, n = 0;

	if (!strncasecmp(s, "RTMIN", 5))
		base = RT_MIN, sign = 1;
	else if (!strncasecmp(s, "RTMAX", 5))
		base = RT_MAX, sign = -1;
	else
		return -1;
	s += 5;
	if (*s) {
		if (*s != (sign > 0 ? '+' : '-') || (n = parse_decimal(s + 1)) < 0)
			return -1;
	}
	int sig = base + sign * n;
	return sig >= RT_MIN && sig <= RT_MAX ? sig : -1;
}

int signal_parse(const char *s)
{
	int n = parse_decimal(s);

	if (n >= 0) {
		/* A number that looks like a signal-death status is one, as in
		 * GNU's operand2sig: 137 means KILL, 143 TERM. */
		if ((n & 0x7f) != 0 && (n & 0x7f) != 0x7f)
			n &= 0x7f;
		return n <= RT_MAX ? n : -1;
	}
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < NSIG_TABLE; i++)
		if (!strcasecmp(s, sig_table[i].name))
			return sig_table[i].num;
	return parse_rt(s);
}

const char *signal_name(int sig, char *buf, size_t size)
{
	for (size_t i = 0; i < NSIG_TABLE; i++)
		if (sig_table[i].num == sig) {
			snprintf(buf, size, "%s", sig == 0 ? "0" : sig_table[i].name);
			return buf;
		}
	if (sig == RT_MIN)
		snprintf(buf, size, "RTMIN");
	else if (sig == RT_MAX)
		snprintf(buf, size, "RTMAX");
	else if (sig > RT_MIN && sig < RT_MAX && sig - RT_MIN <= RT_MAX - sig)
		snprintf(buf, size, "RTMIN+%d", sig - RT_MIN);
	else if (sig > RT_MIN && sig < RT_MAX)
		snprintf(buf, size, "RTMAX-%d", RT_MAX - sig);
	else
		snprintf(buf, size, "%d", sig);
	return buf;
}
