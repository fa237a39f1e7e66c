/* SPDX-License-Identifier: ISC */
/* parse-leash: the native personality's argv as a plan and options;
 * names, capabilities, the environment and the cgroup are the run's. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "cgroup/cgroup.h"
#include "time/time.h"
#include "sys/sys.h"
#include "parse.h"
#include "signal/signal.h"

enum {
	OPT_PRESERVE = 256, OPT_FOREGROUND, OPT_PTY, OPT_NO_PTY, OPT_KEEP_CAPS, OPT_NNP, OPT_CGROUP,
	OPT_WEIGHT, OPT_CGROUP_ROOT, OPT_KILL_LEFTOVERS, OPT_NO_NSS, OPT_REPORT,
	OPT_REPORT_FD, OPT_WARN, OPT_IDLE, OPT_STALL,
	OPT_LIMIT,      /* + enum cgroup_limit: a row of CGROUP_LIMITS each */
};

static const struct opt_long leash_longs[] = {
	{ "timeout", OPT_REQUIRED, 't' },
	{ "signal", OPT_REQUIRED, 's' },
	{ "kill-after", OPT_REQUIRED, 'k' },
	{ "warn", OPT_REQUIRED, OPT_WARN },
	{ "idle", OPT_REQUIRED, OPT_IDLE },
	{ "stall", OPT_REQUIRED, OPT_STALL },
	{ "preserve-status", OPT_NONE, OPT_PRESERVE },
	{ "foreground", OPT_NONE, OPT_FOREGROUND },
	{ "verbose", OPT_NONE, 'v' },
	{ "pty", OPT_NONE, OPT_PTY },
	{ "no-pty", OPT_NONE, OPT_NO_PTY },
	{ "user", OPT_REQUIRED, 'u' },
	{ "group", OPT_REQUIRED, 'g' },
	{ "groups", OPT_REQUIRED, 'G' },
	{ "keep-caps", OPT_REQUIRED, OPT_KEEP_CAPS },
	{ "no-new-privs", OPT_NONE, OPT_NNP },
	{ "no-nss", OPT_NONE, OPT_NO_NSS },
	{ "login", OPT_NONE, 'l' },
	{ "preserve-env", OPT_NONE, 'p' },
	{ "whitelist-environment", OPT_REQUIRED, 'w' },
	{ "chdir", OPT_REQUIRED, 'C' },
	{ "cgroup", OPT_REQUIRED, OPT_CGROUP },
	{ "cpu-weight", OPT_REQUIRED, OPT_WEIGHT },
	{ "cgroup-root", OPT_REQUIRED, OPT_CGROUP_ROOT },
	{ "kill-leftovers", OPT_NONE, OPT_KILL_LEFTOVERS },
#define LIMIT_OPTION(id, option, ...) \
	{ &option[2], OPT_REQUIRED, OPT_LIMIT + CGROUP_LIMIT_##id },
	CGROUP_LIMITS(LIMIT_OPTION)
#undef LIMIT_OPTION
	{ "report", OPT_REQUIRED, OPT_REPORT },
	{ "report-fd", OPT_REQUIRED, OPT_REPORT_FD },
	{ "help", OPT_NONE, 'h' },
	{ "version", OPT_NONE, 'V' },
	{ NULL, 0, 0 },
};

/* Bad option syntax: "Try 'leash --help'" follows, status 125. */
static int leash_usage_error(struct parse_error *e)
{
	e->try_help = true;
	e->status = 125;
	return PARSE_ERROR;
}

static int parse_cgroup_mode(const char *s, struct cgroup_plan *cg,
			     struct parse_error *e)
{
	if (!strcmp(s, "auto"))
		cg->mode = CGROUP_AUTO;
	else if (!strcmp(s, "require"))
		cg->mode = CGROUP_REQUIRE;
	else if (!strcmp(s, "off"))
		cg->mode = CGROUP_OFF;
	else if (!strcmp(s, "track"))
		cg->mode = CGROUP_TRACK;
	else {
		parse_say(e, "invalid cgroup mode %s: use auto, require, track or off",
			  diag_quote(s));
		return leash_usage_error(e);
	}
	cg->asked = true;
	return PARSE_RUN;
}

static int parse_weight(const char *s, struct cgroup_plan *cg,
			struct parse_error *e)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *s == '+' || v < 1 ||
	    v > 10000) {
		parse_say(e, "invalid cpu weight %s: use 1..10000", diag_quote(s));
		return leash_usage_error(e);
	}
	cg->weight = (unsigned)v;
	cg->asked = true;
	return PARSE_RUN;
}

/* --memory-max, --pids-max, --cpu-max (limit.h's rows): one line and
 * 125 when malformed (the value is the user's: quoted). */
static int parse_limit(int c, const char *arg, struct cgroup_plan *cg,
		       struct parse_error *e)
{
	const struct limit_row *l = &limit_rows[c - OPT_LIMIT];
	char *out = cg->limits[c - OPT_LIMIT];
	const char *why = l->spell(arg, out);

	if (why) {
		out[0] = '\0';
		parse_say(e, "invalid %s %s: %s", l->option, diag_quote(arg), why);
		e->status = 125;
		return PARSE_ERROR;
	}
	cg->asked = true;
	return PARSE_RUN;
}

static int parse_time(const char *s, struct timespec *d, struct parse_error *e)
{
	if (duration_parse(s, d) < 0) {
		parse_say(e, "invalid time interval %s", diag_quote(s));
		return leash_usage_error(e);
	}
	return PARSE_RUN;
}

/* --idle, --stall and --warn's DURATION: more than zero (zero is -t's
 * "none", which here would mean at once).  One line and 125. */
static int parse_progress_time(const char *opt, const char *s,
			       struct timespec *d, struct parse_error *e)
{
	if (duration_parse(s, d) < 0 || duration_is_zero(d)) {
		parse_say(e, "invalid %s duration %s: use a time above 0 "
			  "(number with optional suffix s, m, h or d)", opt,
			  diag_quote(s));
		e->status = 125;
		return PARSE_ERROR;
	}
	return PARSE_RUN;
}

/* --warn=SIG@DURATION, up to PLAN_MAX_WARN of them; whether the deadline
 * leaves room for it is the run's to say (it may be inherited). */
static int parse_warn(const char *arg, struct plan *p, struct parse_error *e)
{
	const char *at = strchr(arg, '@');
	char name[32];
	struct plan_warn *w = &p->warn[p->nwarn];

	e->status = 125;
	if (p->nwarn == PLAN_MAX_WARN) {
		parse_say(e, "too many --warn: at most %d", PLAN_MAX_WARN);
		return PARSE_ERROR;
	}
	if (!at || (size_t)(at - arg) >= sizeof name) {
		parse_say(e, "invalid --warn %s: use SIGNAL@DURATION, e.g. "
			  "USR1@30s", diag_quote(arg));
		return PARSE_ERROR;
	}
	memcpy(name, arg, (size_t)(at - arg));
	name[at - arg] = '\0';
	if ((w->sig = signal_parse(name)) <= 0) {
		parse_say(e, "invalid --warn %s: %s is not a signal",
			  diag_quote(arg), diag_quote(name));
		return PARSE_ERROR;
	}
	if (parse_progress_time("--warn", at + 1, &w->before, e) != PARSE_RUN)
		return PARSE_ERROR;
	w->arg = arg;
	p->nwarn++;
	return PARSE_RUN;
}

/* --report=FILE or --report-fd=N, kept in order for the run to open. */
static int parse_report(bool fd, const char *arg, struct leash_opts *o,
			struct parse_error *e)
{
	struct leash_report *r;
	char *end;
	long n = 0;

	if (fd) {
		errno = 0;
		n = strtol(arg, &end, 10);
		/* A descriptor leash never has is said as it is opened. */
		if (errno || end == arg || *end || n < 0 || n > 1 << 30) {
			parse_say(e, "invalid report descriptor %s", diag_quote(arg));
			e->status = 125;
			return PARSE_ERROR;
		}
	}
	if (o->nreports == 0) {
		r = &o->one_report;
	} else if (o->reports == &o->one_report) {
		if ((r = malloc(2 * sizeof *r)))
			r[0] = o->one_report;
	} else {
		r = realloc(o->reports, (o->nreports + 1) * sizeof *r);
	}
	if (!r) {
		parse_say(e, "out of memory");
		e->status = 125;
		return PARSE_ERROR;
	}
	o->reports = r;
	r[o->nreports++] = (struct leash_report){ fd, arg, (int)n };
	return PARSE_RUN;
}

static int leash_option(int c, const char *arg, struct plan *p,
			struct leash_opts *o, struct parse_error *e)
{
	switch (c) {
	case 't': o->timed = true; return parse_time(arg, &p->duration, e);
	case 'k': return parse_time(arg, &p->kill_after, e);
	case 's':
		if ((p->term_signal = signal_parse(arg)) < 0) {
			parse_say(e, "%s: invalid signal", diag_quote(arg));
			return leash_usage_error(e);
		}
		break;
	case OPT_WARN: return parse_warn(arg, p, e);
	case OPT_IDLE: return parse_progress_time("--idle", arg, &p->idle, e);
	case OPT_STALL: return parse_progress_time("--stall", arg, &p->stall, e);
	case OPT_PRESERVE: p->preserve_status = true; break;
	case OPT_FOREGROUND: p->foreground = true; break;
	case OPT_PTY: p->pty_mode = PTY_ALWAYS; break;
	case OPT_NO_PTY: p->pty_mode = PTY_NEVER; break;
	case 'v': p->verbose = p->cg.verbose = true; p->cg.note = diag_warn; break;
	case 'u': o->user = arg; break;
	case 'g': o->group = arg; break;
	case 'G': o->groups = arg; break;
	case OPT_KEEP_CAPS: p->id.keep_caps = arg; break;
	case OPT_NNP: p->id.no_new_privs = true; break;
	case OPT_NO_NSS: p->id.no_nss = true; break;
	case 'l': o->login = true; break;
	case 'p': o->preserve_env = true; break;
	case 'w': o->whitelist = arg; break;
	case 'C': p->chdir = arg; break;
	case OPT_CGROUP: return parse_cgroup_mode(arg, &p->cg, e);
	case OPT_WEIGHT: return parse_weight(arg, &p->cg, e);
	case OPT_CGROUP_ROOT:
		p->cg.root = arg;
		p->cg.asked = o->root_asked = p->cg_root_asked = true;
		break;
	case OPT_KILL_LEFTOVERS: p->cg.kill_leftovers = true; p->cg.asked = true; break;
	case OPT_REPORT: return parse_report(false, arg, o, e);
	case OPT_REPORT_FD: return parse_report(true, arg, o, e);
	case 'h': return PARSE_HELP;
	case 'V': return PARSE_VERSION;
	default:
		if (c >= OPT_LIMIT && c < OPT_LIMIT + CGROUP_NLIMITS)
			return parse_limit(c, arg, &p->cg, e);
		return leash_usage_error(e);
	}
	return PARSE_RUN;
}

int leash_parse(int argc, char **argv, const char *cgroup_root,
		struct plan *p, struct leash_opts *o, struct parse_error *e)
{
	struct opt_state st;
	int c, r = PARSE_RUN;

	p->term_signal = SIGTERM;
	p->cg.mode = CGROUP_AUTO;
	if (cgroup_root && *cgroup_root)
		p->cg.root = cgroup_root;
	opt_init(&st, argc, argv, "+t:s:k:vu:g:G:lpw:C:hV", leash_longs, "leash");
	while (r == PARSE_RUN && (c = opt_next(&st)) != -1) {
		if (c == '?') {
			e->getopt = st.msg;
			st.msg = NULL;
		}
		if (c == '?' && st.opt == 'c')  /* su's habit */
			parse_say(e, "-c is su's option: use %s or %s",
				  diag_quote("leash su -c ..."),
				  diag_quote("leash -u USER -- sh -c ..."));
		r = leash_option(c, st.arg, p, o, e);
	}
	o->rest = &argv[st.ind];
	opt_fini(&st);
	return r;
}

void leash_opts_free(struct leash_opts *o)
{
	if (o->reports != &o->one_report)
		free(o->reports);
	o->reports = NULL;
	o->nreports = 0;
}
