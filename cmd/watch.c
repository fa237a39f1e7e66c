/* SPDX-License-Identifier: ISC */
/* watch: the `leash watch` personality: parse, refuse or subscribe,
 * watch until TERM or INT, then the summary line and the report. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag/diag.h"
#include "ident/ident.h"
#include "report/report.h"
#include "sys/sys.h"
#include "watch/watch.h"

enum { OPT_UIDS = 256, OPT_BY, OPT_FROM, OPT_AUDIT, OPT_WEIGHT,
       OPT_ROOT, OPT_REPORT };

static const struct opt_long watch_longs[] = {
	{ "uids", OPT_REQUIRED, OPT_UIDS },
	{ "by", OPT_REQUIRED, OPT_BY },
	{ "from", OPT_REQUIRED, OPT_FROM },
	{ "audit", OPT_REQUIRED, OPT_AUDIT },
	{ "cpu-weight", OPT_REQUIRED, OPT_WEIGHT },
	{ "cgroup-root", OPT_REQUIRED, OPT_ROOT },
	{ "verbose", OPT_NONE, 'v' },
	{ "report", OPT_REQUIRED, OPT_REPORT },
	{ "help", OPT_NONE, 'h' },
	{ NULL, 0, 0 },
};

static void watch_usage(void)
{
	fputs("Usage: leash watch [OPTION]...\n"
	      "Move every process whose uid changes into that uid's cpu group, the group\n"
	      "leash -u uses, whoever started it (su, cron, sshd, setuid programs...).\n"
	      "Run as root, in the foreground, until TERM or INT (then exit 0).\n"
	      "\n"
	      "      --uids=RANGES         only these uids, e.g. 1000-59999,65534 (default:\n"
	      "                            UID_MIN of /etc/login.defs, else 1000, and up);\n"
	      "                            root's processes only when 0 is in RANGES\n"
	      "      --by=ruid|euid        group by the real uid (default) or the effective\n"
	      "      --from=PATTERN        also take processes from the groups PATTERN\n"
	      "                            matches, a path as /proc/PID/cgroup shows it,\n"
	      "                            e.g. /system.slice/cron-*.service; of bytes:\n"
	      "                            * ? [a-z] [!a-z] [^a-z] \\x as fnmatch's, no\n"
	      "                            [:class:]; only / matches /\n"
	      "      --audit=SECONDS       rescan /proc this often (default 30; 0: never)\n"
	      "      --cpu-weight=N        cpu weight, 1..10000, of each uid group it makes\n"
	      "                            or joins\n"
	      "      --cgroup-root=DIR     parent of the uid groups (default <mount>/leash)\n"
	      "  -v, --verbose             one line per move\n"
	      "      --report=FILE         when it ends, the summary as one JSON object\n"
	      "  -h, --help                display this help and exit\n"
	      "\n"
	      "On TERM or INT it prints one summary line: events, moves, rescans, and the\n"
	      "processes caught by the fork rule.\n"
	      "\n"
	      "Exit status:\n"
	      "  0    ended by TERM or INT\n"
	      "  125  it cannot run here (not root, a container, no proc connector,\n"
	      "       Android's cpuctl, systemd's tree, no cpu cgroup), bad usage,\n"
	      "       or a failure\n", stdout);
}

/* UID_MIN of login.defs: system uids are never watched by default. */
static unsigned watch_uid_min(void)
{
	unsigned long v = logindefs_number("UID_MIN", 1000);

	return v <= ~0U ? (unsigned)v : 1000;
}

static noreturn void watch_try(void)
{
	fputs("Try 'leash watch --help' for more information.\n", stderr);
	exit(EXIT_CANCELED);
}

static noreturn void watch_bad(const char *fmt, const char *arg)
{
	diag_warn(fmt, diag_quote(arg));
	watch_try();
}

static unsigned watch_number(const char *s, unsigned max, const char *fmt)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s < '0' || *s > '9' || v > max)
		watch_bad(fmt, s);
	return (unsigned)v;
}

static void watch_option(int c, const char *arg, struct watch_opts *o,
			 const char **report)
{
	const char *why;

	switch (c) {
	case OPT_UIDS:
		if (watch_parse_uids(o, arg) < 0)
			watch_bad("invalid uid ranges %s: use N or N-M, "
				  "comma-separated", arg);
		break;
	case OPT_BY:
		if (strcmp(arg, "ruid") && strcmp(arg, "euid"))
			watch_bad("invalid --by %s: use ruid or euid", arg);
		o->by_euid = !strcmp(arg, "euid");
		break;
	case OPT_FROM:
		if (o->nfrom == WATCH_MAX_FROM || arg[0] != '/')
			watch_bad("invalid --from %s: a path from / (at most "
				  "16 of them)", arg);
		if ((why = glob_check(arg))) {
			diag_warn("invalid --from %s: %s", diag_quote(arg), why);
			watch_try();
		}
		o->from[o->nfrom++] = arg;
		break;
	case OPT_AUDIT:
		o->audit_s = watch_number(arg, 86400, "invalid audit period "
					  "%s: use 0..86400 seconds");
		break;
	case OPT_WEIGHT:
		o->cg.weight = watch_number(arg, 10000, "invalid cpu weight "
					    "%s: use 1..10000");
		if (!o->cg.weight)
			watch_bad("invalid cpu weight %s: use 1..10000", arg);
		break;
	case OPT_ROOT:
		o->cg.root = arg;
		break;
	case OPT_REPORT:
		*report = arg;
		break;
	}
}

static void watch_parse(int argc, char **argv, struct watch_opts *o,
			const char **report)
{
	struct opt_state st;
	int c;

	opt_init(&st, argc, argv, "+vh", watch_longs, "leash watch");
	while ((c = opt_next(&st)) != -1) {
		if (c == '?') {
			fputs(st.msg ? st.msg : "leash watch: invalid option\n", stderr);
			fputs("Try 'leash watch --help' for more information.\n", stderr);
			exit(EXIT_CANCELED);
		} else if (c == 'h') {
			watch_usage();
			exit_after_output(EXIT_CANCELED);
		} else if (c == 'v') {
			o->verbose = o->cg.verbose = true;
		} else {
			watch_option(c, st.arg, o, report);
		}
	}
	if (st.ind < argc)
		watch_bad("extra operand %s", argv[st.ind]);
	opt_fini(&st);
}

static void watch_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void watch_note(const char *fmt, ...)
{
	char buf[4096 + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_warn("%s", buf);
}

static unsigned long long watch_moves(const struct watch_stats *s)
{
	return s->moves[WATCH_UID] + s->moves[WATCH_FORK] + s->moves[WATCH_SCAN];
}

static void watch_summary(const struct watch_stats *s)
{
	diag_warn("%llu events, %llu moves (uid %llu, fork %llu, scan %llu), "
		  "%llu caught by the fork rule, %llu rescans (lost events %llu, "
		  "stops %llu, audits %llu), %llu errors",
		  (unsigned long long)s->events, watch_moves(s),
		  (unsigned long long)s->moves[WATCH_UID],
		  (unsigned long long)s->moves[WATCH_FORK],
		  (unsigned long long)s->moves[WATCH_SCAN],
		  (unsigned long long)s->fork_caught,
		  (unsigned long long)s->rescans, (unsigned long long)s->enobufs,
		  (unsigned long long)s->stops, (unsigned long long)s->audits,
		  (unsigned long long)s->errors);
}

#define U(x) ((unsigned long long)(x))
static int watch_json(char *buf, size_t size, const struct watch_stats *s)
{
	return snprintf(buf, size, "{\"personality\":\"watch\",\"events\":%llu,"
		"\"forks\":%llu,\"execs\":%llu,\"uid_events\":%llu,"
		"\"moves\":{\"total\":%llu,\"uid\":%llu,\"fork\":%llu,\"scan\":%llu},"
		"\"fork_rule\":%llu,\"in_place\":%llu,\"denied\":%llu,"
		"\"gone_recorded\":%llu,\"pid_reused\":%llu,\"errors\":%llu,"
		"\"lost_events\":%llu,\"stops\":%llu,\"audits\":%llu,"
		"\"rescans\":%llu,\"write_us\":{\"p50\":%llu,\"p99\":%llu},"
		"\"uid_change_to_moved_us\":{\"p50\":%llu,\"p99\":%llu},"
		"\"exit_status\":0}\n",
		U(s->events), U(s->forks), U(s->execs), U(s->uid_events),
		watch_moves(s), U(s->moves[WATCH_UID]), U(s->moves[WATCH_FORK]),
		U(s->moves[WATCH_SCAN]), U(s->fork_caught), U(s->in_place),
		U(s->denied), U(s->dead_recorded), U(s->reused), U(s->errors),
		U(s->enobufs), U(s->stops), U(s->audits), U(s->rescans),
		U(s->write_p50_us), U(s->write_p99_us), U(s->lat_p50_us),
		U(s->lat_p99_us));
}

int watch_main(int argc, char **argv)
{
	static BSS_PAGE struct watch_opts o;
	struct reportfile rf = { .fd = -1 };
	const char *report = NULL, *what;
	struct watch_stats s;
	struct watch *w;
	char json[2048];

	diag_prog = "leash watch";
	o.audit_s = 30;
	o.note = watch_note;
	o.cg.note = watch_note;
	o.cg.warn = diag_warn;
	watch_parse(argc, argv, &o, &report);
	if (!o.nuids) {
		o.uids[0].lo = watch_uid_min();
		o.uids[0].hi = 4294967294U;
		o.nuids = 1;
	}
	if (report && reportfile_open(&rf, report) < 0)
		diag_die_errno(EXIT_CANCELED, errno, "cannot write the report "
			       "to %s", diag_quote(report));
	w = watch_open(&o, &what);
	if (w && watch_run(w, &what) == 0) {
		watch_stats(w, &s);
		watch_summary(&s);
		if (report && reportfile_commit(&rf, json,
				(size_t)watch_json(json, sizeof json, &s)) < 0)
			diag_die_errno(EXIT_CANCELED, errno, "cannot write "
				       "the report to %s", diag_quote(report));
		return 0;
	}
	if (report)
		reportfile_abort(&rf);
	diag_die(EXIT_CANCELED, "%s", what);
}
