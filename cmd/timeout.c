/* SPDX-License-Identifier: ISC */
/* timeout: GNU coreutils timeout (9.11), option for option. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "duration.h"
#include "opt.h"
#include "signals.h"

enum { OPT_HELP = 256, OPT_VERSION };

/* GNU's table order: it decides how ambiguous prefixes are listed. */
static const struct opt_long timeout_longs[] = {
	{ "foreground", OPT_NONE, 'f' },
	{ "kill-after", OPT_REQUIRED, 'k' },
	{ "preserve-status", OPT_NONE, 'p' },
	{ "signal", OPT_REQUIRED, 's' },
	{ "verbose", OPT_NONE, 'v' },
	{ "help", OPT_NONE, OPT_HELP },
	{ "version", OPT_NONE, OPT_VERSION },
	{ NULL, 0, 0 },
};

static void timeout_usage(const char *prog)
{
	printf("Usage: %s [OPTION]... DURATION COMMAND [ARG]...\n", prog);
	fputs("Start COMMAND, and kill it if still running after DURATION.\n"
	      "\n"
	      "Mandatory arguments to long options are mandatory for short options too.\n"
	      "  -f, --foreground\n"
	      "         when not running timeout directly from a shell prompt,\n"
	      "         allow COMMAND to read from the TTY and get TTY signals;\n"
	      "         in this mode, children of COMMAND will not be timed out\n"
	      "  -k, --kill-after=DURATION\n"
	      "         also send a KILL signal if COMMAND is still running\n"
	      "         this long after the initial signal was sent\n"
	      "  -p, --preserve-status\n"
	      "         exit with the same status as COMMAND,\n"
	      "         even when the command times out\n"
	      "  -s, --signal=SIGNAL\n"
	      "         specify the signal to be sent on timeout;\n"
	      "         SIGNAL may be a name like 'HUP' or a number;\n"
	      "         see 'kill -l' for a list of signals\n"
	      "  -v, --verbose\n"
	      "         diagnose to standard error any signal sent upon timeout\n"
	      "      --help\n"
	      "         display this help and exit\n"
	      "      --version\n"
	      "         output version information and exit\n"
	      "\n"
	      "DURATION is a floating point number with an optional suffix:\n"
	      "'s' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.\n"
	      "A duration of 0 disables the associated timeout.\n"
	      "\n"
	      "Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.\n"
	      "The TERM signal kills any process that does not block or catch that signal.\n"
	      "It may be necessary to use the KILL signal, since this signal can't be caught.\n"
	      "\n"
	      "Exit status:\n"
	      "  124  if COMMAND times out, and --preserve-status is not specified\n"
	      "  125  if the timeout command itself fails\n"
	      "  126  if COMMAND is found but cannot be invoked\n"
	      "  127  if COMMAND cannot be found\n"
	      "  137  if COMMAND (or timeout itself) is sent the KILL (9) signal (128+9)\n"
	      "  -    the exit status of COMMAND otherwise\n"
	      "\n"
	      "This is the timeout personality of leash; see leash(1).\n", stdout);
}

static _Noreturn void try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(EXIT_CANCELED);
}

static void parse_duration_or_die(const char *s, struct timespec *d,
				  const char *prog)
{
	if (duration_parse(s, d) < 0) {
		diag_warn("invalid time interval %s", diag_quote(s));
		try_help(prog);
	}
}

static void timeout_parse(int argc, char **argv, struct plan *p)
{
	struct opt_state st;
	int c;

	opt_init(&st, argc, argv, "+fk:ps:v", timeout_longs, argv[0]);
	while ((c = opt_next(&st)) != -1) {
		switch (c) {
		case 'f': p->foreground = true; break;
		case 'k': parse_duration_or_die(st.arg, &p->kill_after, argv[0]); break;
		case 'p': p->preserve_status = true; break;
		case 's':
			if ((p->term_signal = signal_parse(st.arg)) < 0) {
				diag_warn("%s: invalid signal", diag_quote(st.arg));
				try_help(argv[0]);
			}
			break;
		case 'v': p->verbose = true; break;
		case OPT_HELP: timeout_usage(argv[0]); exit_after_output(EXIT_CANCELED);
		case OPT_VERSION: printf("timeout (leash) %s\n", LEASH_VERSION); exit_after_output(EXIT_CANCELED);
		default: try_help(argv[0]);
		}
	}
	if (argc - st.ind < 2)
		try_help(argv[0]);
	parse_duration_or_die(argv[st.ind], &p->duration, argv[0]);
	p->argv = &argv[st.ind + 1];
	p->file = p->argv[0];
}

int timeout_main(int argc, char **argv)
{
	/* Static: the plan holds path buffers that a stack copy would touch
	 * page by page, which shows in leash's RSS while it waits. */
	static struct plan p;   /* zeroed: in .bss, not .data */

	diag_prog = "timeout";
	p.term_signal = SIGTERM;
	p.cg.mode = CGROUP_OFF;
	timeout_parse(argc, argv, &p);
	p.lead_group = !p.foreground;
	/* GNU 9.11: the command gets the -s signal when timeout dies, so it
	 * can clean up. */
	p.pdeath_signal = p.term_signal;
	return run_to_status(&p);
}
