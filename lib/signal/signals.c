/* SPDX-License-Identifier: ISC */
/* signals: names <-> numbers, as kill -l and GNU's operand2sig. */
#include "signal/signals.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
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

/* The highest number GNU accepts: glibc's NSIG - 1. */
#define SIG_BOUND 64

/* strtol's reading of S, with *OK set if it took all of S (strtol allows
 * blanks and a sign: gnulib's str2sig lets them through after RTMIN). */
static long whole_long(const char *s, int *ok)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	*ok = !*end;
	return v;
}

/* An operand that starts with a digit, as operand2sig reads it: a
 * signal number or a shell status (ksh adds 256: from 0xFF up keep 8
 * bits, below keep 7, so 137 is KILL, 1295 is TERM, 256 is 0). */
static int parse_number(const char *s)
{
	int ok;
	long v = whole_long(s, &ok);

	if (!ok || errno || v > INT_MAX)
		return -1;
	return (int)v & (v >= 0xff ? 0xff : 0x7f);
}

/* RTMIN, RTMINn, RTMIN+n, RTMAX, RTMAXn, RTMAX-n: what follows the five
 * letters is read by strtol, as gnulib's str2sig does ("RTMIN-0" too). */
static int parse_rt(const char *s)
{
	int ok;
	long n;

	if (strncasecmp(s, "RTMIN", 5) && strncasecmp(s, "RTMAX", 5))
		return -1;
	n = whole_long(s + 5, &ok);
	if (!ok)
		return -1;
	if (toupper((unsigned char)s[4]) == 'N')
		return n >= 0 && n <= RT_MAX - RT_MIN ? RT_MIN + (int)n : -1;
	return n <= 0 && n >= RT_MIN - RT_MAX ? RT_MAX + (int)n : -1;
}

/* One name as gnulib's str2sig takes it: a table name, an RT name, or
 * a plain number (only reached after "SIG": "SIG15", "sig015"). */
static int parse_name(const char *s)
{
	int ok;
	long v;

	if (isdigit((unsigned char)*s)) {
		v = whole_long(s, &ok);
		return ok && v <= SIG_BOUND ? (int)v : -1;
	}
	for (size_t i = 0; i < NSIG_TABLE; i++)
		if (!strcasecmp(s, sig_table[i].name))
			return sig_table[i].num;
	return parse_rt(s);
}

int signal_parse(const char *s)
{
	int n;

	if (isdigit((unsigned char)*s))
		n = parse_number(s);
	else if ((n = parse_name(s)) < 0 && !strncasecmp(s, "SIG", 3))
		n = parse_name(s + 3);
	return n >= 0 && n <= SIG_BOUND ? n : -1;
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
