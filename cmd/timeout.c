/* SPDX-License-Identifier: ISC */
/* timeout: GNU coreutils timeout (9.11), option for option. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "diag/diag.h"
#include "parse.h"
#include "sys/sys.h"

static void timeout_usage(const char *prog)
{
	printf("Usage: %s [OPTION]... DURATION COMMAND [ARG]...\n", prog);
	static const char help[] =
	      "Start COMMAND, and kill it if still running after DURATION.\n"
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
	      "This is the timeout personality of leash; see leash(1).\n";

	fputs(help, stdout);
}

int timeout_main(int argc, char **argv)
{
	/* Static: the plan holds path buffers that a stack copy would touch
	 * page by page, which shows in leash's RSS while it waits. */
	static BSS_PAGE struct plan p;  /* zeroed: in .bss, not .data */

	struct parse_error e = { 0 };

	diag_prog = "timeout";
	switch (timeout_parse(argc, argv, &p, &e)) {
	case PARSE_HELP:
		timeout_usage(argv[0]);
		exit_after_output(EXIT_CANCELED);
	case PARSE_VERSION:
		printf("timeout (leash) %s\n", LEASH_VERSION);
		exit_after_output(EXIT_CANCELED);
	case PARSE_ERROR:
		parse_error_print(&e, argv[0]);
		exit(e.status);
	}
	return run_to_status(&p);
}
