/* SPDX-License-Identifier: ISC */
/* parse-su: both dialects of su's argv as options (su.c says which
 * applies when); every name is looked up by the run, not here. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "sys/sys.h"
#include "parse.h"

enum { SU_FAIL = 1, OPT_SESSION = 256 };

static const struct opt_long su_longs[] = {
	{ "command", OPT_REQUIRED, 'c' },
	{ "session-command", OPT_REQUIRED, OPT_SESSION },
	{ "fast", OPT_NONE, 'f' },
	{ "login", OPT_NONE, 'l' },
	{ "preserve-environment", OPT_NONE, 'p' },
	{ "pty", OPT_NONE, 'P' },
	{ "no-pty", OPT_NONE, 'T' },
	{ "shell", OPT_REQUIRED, 's' },
	{ "group", OPT_REQUIRED, 'g' },
	{ "supp-group", OPT_REQUIRED, 'G' },
	{ "user", OPT_REQUIRED, 'u' },  /* runuser's; su only says "Try" */
	{ "whitelist-environment", OPT_REQUIRED, 'w' },
	{ "help", OPT_NONE, 'h' },
	{ "version", OPT_NONE, 'V' },
	{ NULL, 0, 0 },
};

/* su's own error: one line, no "Try", status 1. */
static int su_fail(struct parse_error *e)
{
	e->status = SU_FAIL;
	return PARSE_ERROR;
}

/* The AOSP rule from the top of su.c. */
static bool su_is_aosp(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-')
		return false;
	return strchr(argv[1], ',') || (argc > 2 && argv[2][0] != '-');
}

static int add_group(struct su_opts *o, const char *spec, bool primary,
		     struct parse_error *e)
{
	struct su_group *g;

	if (o->ngroups >= IDENT_NGROUPS_MAX) {
		parse_say(e, "specifying more than %d supplemental groups "
			  "is not possible", IDENT_NGROUPS_MAX - 1);
		return su_fail(e);
	}
	if (!(g = realloc(o->groups, (o->ngroups + 1) * sizeof *g))) {
		parse_say(e, "out of memory");
		return su_fail(e);
	}
	g[o->ngroups++] = (struct su_group){ spec, primary };
	o->groups = g;
	return PARSE_RUN;
}

/* -w adds up; keep one comma list. */
static int add_whitelist(struct su_opts *o, const char *list,
			 struct parse_error *e)
{
	size_t old = o->wl_buf ? strlen(o->wl_buf) : 0;
	char *b = realloc(o->wl_buf, old + strlen(list) + 2);

	if (!b) {
		parse_say(e, "out of memory");
		return su_fail(e);
	}
	if (old)
		b[old++] = ',';
	strcpy(b + old, list);
	o->wl_buf = b;
	o->whitelist = b;
	return PARSE_RUN;
}

/* util-linux refuses -m or -p together with -w, naming the pair. */
static int su_exclusive(int c, int *seen_m, int *seen_p, struct parse_error *e)
{
	if (c != 'm' && c != 'p' && c != 'w')
		return PARSE_RUN;
	if (*seen_m && *seen_m != c && (c == 'm' || c == 'w')) {
		parse_say(e, "mutually exclusive arguments: "
			  "-m --whitelist-environment");
		return su_fail(e);
	}
	if (*seen_p && *seen_p != c && (c == 'p' || c == 'w')) {
		parse_say(e, "mutually exclusive arguments: "
			  "--preserve-environment --whitelist-environment");
		return su_fail(e);
	}
	if ((c == 'm' || c == 'w') && !*seen_m)
		*seen_m = c;
	if ((c == 'p' || c == 'w') && !*seen_p)
		*seen_p = c;
	return PARSE_RUN;
}

static int su_option(struct su_opts *o, int c, struct opt_state *st,
		     struct parse_error *e)
{
	const char *arg = st->arg;

	switch (c) {
	case 'c': o->command = arg; break;
	case OPT_SESSION: o->command = arg; o->same_session = true; break;
	case 'f': o->fast = true; break;
	case 'g': return add_group(o, arg, true, e);
	case 'G': return add_group(o, arg, false, e);
	case 'l': o->login = true; break;
	case 'm': case 'p': o->preserve = true; break;
	case 'w': return add_whitelist(o, arg, e);
	case 'P': o->pty = PTY_ALWAYS; break;
	case 'T': o->pty = PTY_NEVER; break;
	case 's': o->shell = arg; break;
	case 'h': return PARSE_HELP;
	case 'V': return PARSE_VERSION;
	default:        /* '?', and -u which is runuser's */
		e->getopt = st->msg;
		st->msg = NULL;
		e->try_help = true;
		return su_fail(e);
	}
	return PARSE_RUN;
}

static int su_parse_ul(struct su_opts *o, int argc, char **argv,
		       struct parse_error *e)
{
	struct opt_state st;
	int c, r = PARSE_RUN, seen_m = 0, seen_p = 0;

	opt_init(&st, argc, argv, "c:fg:G:lmpPs:Tu:hVw:", su_longs, argv[0]);
	while (r == PARSE_RUN && (c = opt_next(&st)) != -1) {
		r = su_exclusive(c, &seen_m, &seen_p, e);
		if (r == PARSE_RUN)
			r = su_option(o, c, &st, e);
	}
	opt_fini(&st);
	if (r != PARSE_RUN)
		return r;
	if (st.ind < argc && !strcmp(argv[st.ind], "-")) {
		o->login = true;
		st.ind++;
	}
	if (o->login && o->preserve) {
		o->preserve_ignored = true;
		o->preserve = false;
	}
	o->user = st.ind < argc ? argv[st.ind++] : "root";
	o->args = &argv[st.ind];
	return PARSE_RUN;
}

/* AOSP WHO: user[,group[,supp...]], split at every comma (an empty
 * item is kept: the run refuses it as no one). */
static int su_split_who(struct su_opts *o, const char *who,
			struct parse_error *e)
{
	size_t n = 0, i = 0;
	char *item, *next;

	if (!(o->who_buf = strdup(who))) {
		parse_say(e, "out of memory");
		return su_fail(e);
	}
	for (const char *s = who; *s; s++)
		n += *s == ',';
	if (n > IDENT_NGROUPS_MAX + 1 || !(o->who = malloc((n + 1) * sizeof *o->who))) {
		parse_say(e, "too many groups in %s", diag_quote(who));
		return su_fail(e);
	}
	for (item = o->who_buf; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		o->who[i++] = item;
	}
	o->nwho = i;
	return PARSE_RUN;
}

int su_parse(int argc, char **argv, struct plan *p, struct su_opts *o,
	     struct parse_error *e)
{
	p->term_signal = SIGTERM;
	p->cg.mode = CGROUP_OFF;
	p->signal_as_status = true;
	o->aosp = su_is_aosp(argc, argv);
	if (!o->aosp)
		return su_parse_ul(o, argc, argv, e);
	o->user = argv[1];
	o->args = &argv[2];
	return su_split_who(o, o->user, e);
}

void su_opts_free(struct su_opts *o)
{
	free(o->groups);
	free(o->gids);
	free(o->wl_buf);
	free(o->who);
	free(o->who_buf);
	o->groups = NULL, o->gids = NULL, o->who = NULL;
	o->wl_buf = o->who_buf = NULL;
}
