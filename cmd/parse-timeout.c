/* SPDX-License-Identifier: ISC */
/* parse-timeout: GNU timeout's argv as a plan, nothing run. */
#include <signal.h>
#include <stdlib.h>

#include "diag/diag.h"
#include "time/time.h"
#include "sys/sys.h"
#include "parse.h"
#include "signal/signal.h"

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

/* A usage error: GNU's "Try" line follows every one, status 125. */
static int usage_error(struct parse_error *e, struct opt_state *st)
{
	e->getopt = st->msg;
	st->msg = NULL;
	e->try_help = true;
	e->status = 125;
	return PARSE_ERROR;
}

static int bad_duration(struct parse_error *e, struct opt_state *st,
			const char *s)
{
	parse_say(e, "invalid time interval %s", diag_quote(s));
	return usage_error(e, st);
}

int timeout_parse(int argc, char **argv, struct plan *p,
		  struct parse_error *e)
{
	struct opt_state st;
	int c, r = PARSE_RUN;

	p->term_signal = SIGTERM;
	p->cg.mode = CGROUP_OFF;
	opt_init(&st, argc, argv, "+fk:ps:v", timeout_longs, argv[0]);
	while (r == PARSE_RUN && (c = opt_next(&st)) != -1) {
		switch (c) {
		case 'f': p->foreground = true; break;
		case 'k':
			if (duration_parse(st.arg, &p->kill_after) < 0)
				r = bad_duration(e, &st, st.arg);
			break;
		case 'p': p->preserve_status = true; break;
		case 's':
			if ((p->term_signal = signal_parse(st.arg)) < 0) {
				parse_say(e, "%s: invalid signal", diag_quote(st.arg));
				r = usage_error(e, &st);
			}
			break;
		case 'v': p->verbose = true; break;
		case OPT_HELP: r = PARSE_HELP; break;
		case OPT_VERSION: r = PARSE_VERSION; break;
		default: r = usage_error(e, &st);
		}
	}
	if (r == PARSE_RUN && argc - st.ind < 2)
		r = usage_error(e, &st);
	else if (r == PARSE_RUN && duration_parse(argv[st.ind], &p->duration) < 0)
		r = bad_duration(e, &st, argv[st.ind]);
	if (r == PARSE_RUN) {
		p->argv = &argv[st.ind + 1];
		p->file = p->argv[0];
		p->lead_group = !p->foreground;
		/* GNU 9.11: the command gets the -s signal when timeout
		 * dies, so it can clean up. */
		p->pdeath_signal = p->term_signal;
	}
	opt_fini(&st);
	return r;
}
