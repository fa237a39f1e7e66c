/* SPDX-License-Identifier: ISC */
/* leash: run a command as another user, in a per-uid cpu cgroup, with a
 * deadline.  main() picks the personality by the name it was called by. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "account.h"
#include "time/time.h"
#include "cmd.h"
#include "diag/diag.h"
#include "ident/ident.h"
#include "cgroup/cgroup.h"
#include "parse.h"
#include "signal/signal.h"
#include "sys/sys.h"

extern char **environ;

/* Sorted by name; `leash NAME ...` reaches the same rows. */
static const struct personality {
	const char *name;
	int (*main)(int, char **);
	int fail_status;        /* the personality's own-failure exit code */
} personalities[] = {
	{ "leash", leash_main, EXIT_CANCELED },
	{ "su", su_main, 1 },
	{ "timeout", timeout_main, EXIT_CANCELED },
	/* Only as `leash watch`: a link named watch stays watch(1)'s. */
	{ "watch", watch_main, EXIT_CANCELED },
};

static const struct personality *personality_find(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	for (size_t i = 0; i < sizeof personalities / sizeof *personalities; i++)
		if (!strcmp(base, personalities[i].name) &&
		    personalities[i].main != watch_main)
			return &personalities[i];
	return &personalities[0];
}

/* Before main and before libcap's constructor (priority 300), which
 * asks the kernel for the bounding set: a trap of that prctl finds the
 * handler, and no file of leash's takes a closed fd 0-2's number.
 * Neither can fail in a way leash could say yet: a trap stays fatal, a
 * missing /dev/null leaves the fd closed. */
__attribute__((constructor(101))) static void before_everything(void)
{
	sigsys_catch();
	stdfd_open();
}

int main(int argc, char **argv)
{
	run_clock_start();
	if (argc < 1 || !argv[0])
		return EXIT_ENOENT;
	const struct personality *p = personality_find(argv[0]);
	if (p->main == leash_main && argc > 1 &&
	    (!strcmp(argv[1], "timeout") || !strcmp(argv[1], "su") ||
	     !strcmp(argv[1], "watch"))) {
		p = !strcmp(argv[1], "watch") ? &personalities[3] :
		    personality_find(argv[1]);
		argc--, argv++;
	}
	/* Setuid or file capabilities: whoever started us may not be
	 * allowed what we would do for them, and leash asks no password. */
	if (getauxval(AT_SECURE)) {
		diag_prog = p->name;
		diag_die(p->fail_status, "refusing to run setuid or with file "
			 "capabilities: leash does not authenticate");
	}
	return p->main(argc, argv);
}

static void leash_usage(void)
{
	static const char help[] =
	      "Usage: leash [OPTION]... [--] COMMAND [ARG]...\n"
	      "       leash timeout [OPTION]... DURATION COMMAND [ARG]...\n"
	      "       leash su [OPTION]... [-] [USER [ARG]...]\n"
	      "Run COMMAND as another user, in a per-uid cpu cgroup, with a deadline.\n"
	      "\n"
	      "Deadline:\n"
	      "  -t, --timeout=DURATION    send SIGNAL when COMMAND still runs after DURATION\n"
	      "                            (number with optional suffix s, m, h or d; 0: none)\n"
	      "  -s, --signal=SIGNAL       signal sent at the deadline (default TERM)\n"
	      "  -k, --kill-after=DURATION send KILL this long after the first signal\n"
	      "                            (without it, a COMMAND that ignores SIGNAL, as an\n"
	      "                            interactive shell ignores TERM, runs on: said)\n"
	      "      --warn=SIGNAL@DURATION  send SIGNAL to COMMAND's tree DURATION before the\n"
	      "                            deadline (-t, or LEASH_DEADLINE's), once; repeatable\n"
	      "      --idle=DURATION       end COMMAND as at the deadline when it has written\n"
	      "                            nothing to stdout or stderr for DURATION (its output\n"
	      "                            then goes through leash: a pipe, or a pty where\n"
	      "                            it was a terminal)\n"
	      "      --stall=DURATION      end COMMAND as at the deadline when its whole tree\n"
	      "                            has used no CPU for DURATION (a busy loop is not\n"
	      "                            stalled)\n"
	      "      --preserve-status     exit with COMMAND's status even when it timed out\n"
	      "      --foreground          keep the caller's terminal and process group;\n"
	      "                            only COMMAND itself is signalled\n"
	      "  -v, --verbose             say who COMMAND runs as, which signals are sent,\n"
	      "                            which cgroup is used, what was left running;\n"
	      "                            end with a summary line\n"
	      "      --report=FILE         when leash ends, write one JSON object saying what\n"
	      "                            ran and what happened to FILE (a regular file is\n"
	      "                            replaced whole, a device, FIFO or /dev/stdout\n"
	      "                            written in place; refused where others may\n"
	      "                            write its directory or one on its way)\n"
	      "      --report-fd=N         the same to descriptor N\n"
	      "\n"
	      "Identity (root only; no password is asked, nothing is authenticated):\n"
	      "  -u, --user=USER           run as USER: passwd (or NSS) name or number\n"
	      "                            (Android names too, on Android only)\n"
	      "  -g, --group=GROUP         primary group\n"
	      "  -G, --groups=G1,G2,...    supplementary groups (default: USER's)\n"
	      "      --keep-caps=CAPS      keep these capabilities (names, e.g. cap_net_raw)\n"
	      "                            after the switch, as ambient capabilities\n"
	      "      --no-new-privs        set no_new_privs before running COMMAND\n"
	      "      --no-nss              names from /etc/passwd and /etc/group only: do not\n"
	      "                            ask NSS (LDAP, sssd...) through getent(1)\n"
	      "  -l, --login               clean environment, cd to HOME (else /), login shell\n"
	      "  -p, --preserve-env        keep the whole environment\n"
	      "  -w, --whitelist-environment=VARS  with -l, keep these variables too\n"
	      "  -C, --chdir=DIR           run COMMAND in DIR\n"
	      "      --pty                 give COMMAND a pseudo-terminal of its own whenever\n"
	      "                            stdin is the terminal (default: with -u, when any\n"
	      "                            standard descriptor is a terminal)\n"
	      "      --no-pty              never: an interactive -u session then has no\n"
	      "                            terminal (or, with --foreground, the caller's)\n"
	      "\n"
	      "Per-uid cpu cgroup:\n"
	      "      --cgroup=MODE         auto (default as root; none where none can be\n"
	      "                            had or it is refused), require (else 125), off,\n"
	      "                            or track: only a per-launch leaf in cgroup2\n"
	      "      --cpu-weight=N        cpu weight, 1..10000, of the uid's group: it stays\n"
	      "                            for the uid's later runs until changed (a new\n"
	      "                            group starts at the kernel's 100)\n"
	      "      --cgroup-root=DIR     parent of the uid groups (default <mount>/leash);\n"
	      "                            an error unless DIR is in a cgroup filesystem\n"
	      "      --kill-leftovers      when COMMAND exits, kill what it left running\n"
	      "                            (its cgroup leaf, else every descendant)\n"
	      "      --memory-max=BYTES    limit the memory of COMMAND's leaf (K, M, G, T,\n"
	      "                            P, E: 1024-based; max); the OOM killer's KILL is\n"
	      "                            reported as oom-killed\n"
	      "      --pids-max=N          at most N processes and threads in the leaf\n"
	      "      --cpu-max=QUOTA[/PERIOD]  CPU time per PERIOD: microseconds or P% of\n"
	      "                            one CPU (PERIOD 1000..1000000 us, default\n"
	      "                            100000); a limit not applied in cgroup2 is 125\n"
	      "\n"
	      "  -h, --help                display this help and exit\n"
	      "  -V, --version             output version information and exit\n"
	      "\n"
	      "Environment: LEASH_WAIT=thread|pidfd|poll, LEASH_CGROUP_ROOT=DIR.\n"
	      "\n"
	      "Exit status:\n"
	      "  124  COMMAND timed out, or --idle or --stall ended it (unless\n"
	      "       --preserve-status)\n"
	      "  125  leash itself failed (usage, user, cgroup, identity switch, report)\n"
	      "  126  COMMAND found but not executable (or RLIMIT_NPROC reached)\n"
	      "  127  COMMAND not found\n"
	      "  137  COMMAND was sent the KILL signal\n"
	      "  -    otherwise COMMAND's status; a signal death is passed on\n"
	      "\n"
	      "Called as 'timeout' or 'su', leash behaves as those; see leash(1).\n";

	fputs(help, stdout);
}

static _Noreturn void leash_try(void)
{
	fputs("Try 'leash --help' for more information.\n", stderr);
	account_fail(EXIT_CANCELED);
	exit(EXIT_CANCELED);
}

/* The files-only hint, unless NSS was asked too. */
static const char *resolve_error(int err, const char *what,
				 const struct ident *id)
{
	bool user = !strcmp(what, "user");

	switch (err) {
	case ENOENT: return ident_uses_nss(id) ? (user ? "no such user" : "no such group")
			  : user ? "no such user (leash reads /etc/passwd only)"
				 : "no such group (leash reads /etc/group only)";
	case ERANGE: return "number out of range";
	case E2BIG: return "more groups than NGROUPS_MAX";
	case ENOMEM: return "out of memory";
	case EINVAL: return user ? "not a user name or number"
				 : "not a group name or number";
	default: return nss_strerror(err);  /* EMFILE, EIO, NSS timed out ... */
	}
}

/* -u, then -g and -G, which override what the user's entry gave. */
static void native_resolve(struct plan *p, const struct leash_opts *o)
{
	char self[16];
	const char *user = o->user;

	if (!user && o->login) {
		snprintf(self, sizeof self, "%u", (unsigned)getuid());
		user = self;
	}
	/* -v names the fallbacks (native only: timeout's --verbose says
	 * GNU's lines alone); a name asked of NSS may take one already. */
	fallback_verbose = p->verbose;
	if (user && ident_resolve_user(&p->id, user) < 0)
		diag_die(EXIT_CANCELED, "cannot resolve user %s: %s",
			 diag_quote(user), resolve_error(errno, "user", &p->id));
	if (o->group && ident_resolve_group(&p->id, o->group) < 0)
		diag_die(EXIT_CANCELED, "cannot resolve group %s: %s",
			 diag_quote(o->group), resolve_error(errno, "group", &p->id));
	if (o->groups && ident_resolve_groups(&p->id, o->groups) < 0)
		diag_die(EXIT_CANCELED, "cannot resolve groups %s: %s",
			 diag_quote(o->groups), resolve_error(errno, "group", &p->id));
}

/* -l without a command runs the target's shell as a login shell. */
static void native_command(struct plan *p, const struct leash_opts *o,
			   char **rest)
{
	static char *login_argv[2];
	static char dash_name[256];

	if (*rest) {
		p->argv = rest;
		p->file = rest[0];
		return;
	}
	if (!o->login) {
		diag_warn("missing command");
		leash_try();
	}
	const char *shell = p->id.shell && *p->id.shell ? p->id.shell
							 : env_default_shell();
	const char *base = strrchr(shell, '/');
	snprintf(dash_name, sizeof dash_name, "-%s", base ? base + 1 : shell);
	login_argv[0] = dash_name;
	p->argv = login_argv;
	p->file = shell;
}

static void native_environment(struct plan *p, const struct leash_opts *o)
{
	enum env_mode mode = o->login ? ENV_LOGIN :
			     o->preserve_env ? ENV_PRESERVE : ENV_TARGET;

	if (!p->id.have_uid)
		return;
	p->envp = env_build(environ, &p->id, mode, o->whitelist);
	if (!p->envp)
		diag_die(EXIT_CANCELED, "cannot build the environment: %s",
			 strerror(errno));
	/* A home the target cannot enter: warn, as su does, and start in /. */
	if (o->login && !p->chdir) {
		p->chdir = p->id.home && *p->id.home ? p->id.home : "/";
		if (workdir_fallback_set(&p->chdir_fallback, diag_quote(p->chdir), "/") < 0)
			diag_die(EXIT_CANCELED, "out of memory");
	}
}

/* --cgroup-root must be a cgroup directory (or one to make in a cgroup
 * filesystem) in every mode: a typo is never silently ignored. */
static void check_cgroup_root(const char *root)
{
	long magic = mountinfo_magic(root);
	const char *slash = strrchr(root, '/');

	if (magic < 0 && errno == ENOENT && slash &&
	    strlen(root) < CGROUP_PATH_MAX) {
		char *parent = strndup(root, slash == root ? 1 :
				       (size_t)(slash - root));
		int err;

		if (!parent)
			diag_die(EXIT_CANCELED, "out of memory");
		magic = mountinfo_magic(parent);
		err = errno;    /* for the message below */
		free(parent);
		errno = err;
	}
	if (magic == MOUNTINFO_CGROUP2_MAGIC || magic == MOUNTINFO_CGROUP1_MAGIC)
		return;
	/* cgroup_prepare's words, so every mode says it alike. */
	if (magic < 0)
		diag_die_errno(EXIT_CANCELED, errno, "--cgroup-root %s is not "
			       "on a cgroup filesystem", diag_quote(root));
	diag_die(EXIT_CANCELED, "--cgroup-root %s is not on a cgroup "
		 "filesystem", diag_quote(root));
}

/* auto acts, like the kernel patch at set_user(), when the uid changes
 * or a cgroup option asks for it, and only as root.  An option that
 * cannot be honoured then is a warning (under require cgroup_prepare
 * fails instead); --kill-leftovers is the subreaper's where no leaf is. */
static void native_cgroup(struct plan *p, const struct leash_opts *o)
{
	const char *why = NULL;

	if (o->root_asked)
		check_cgroup_root(p->cg.root);
	if (p->cg.mode == CGROUP_OFF)
		why = "--cgroup=off";
	else if (p->cg.mode == CGROUP_AUTO && geteuid() != 0)
		why = "leash is not root (--cgroup=auto)";
	else if (p->cg.mode == CGROUP_AUTO &&
		 !(ident_changes_uid(&p->id) || p->cg.asked))
		why = "no uid change and no cgroup option (--cgroup=auto)";
	if (!why)
		return account_plan(p, NULL);
	p->cg.mode = CGROUP_OFF;
	account_plan(p, why);
	/* A limit is never dropped: without a leaf, nothing runs. */
	if (cgroup_limited(&p->cg))
		diag_die(EXIT_CANCELED, "%s needs a per-launch cgroup leaf, and "
			 "there is none: %s", cgroup_limit_option(&p->cg), why);
	if (p->cg.weight)
		diag_warn("--cpu-weight %u not applied: %s", p->cg.weight, why);
	if (o->root_asked)
		diag_warn("--cgroup-root %s not used: %s", diag_quote(p->cg.root),
			  why);
}

/* timeout's habit, `leash 5 cmd`: the duration was taken for the
 * command, which was not found. */
static void hint_duration(char **argv)
{
	struct timespec d;
	char line[128];

	if (duration_parse(argv[0], &d) < 0)
		return;
	snprintf(line, sizeof line, "leash -t %.20s -- %.60s%s", argv[0],
		 argv[1] ? argv[1] : "COMMAND", argv[1] && argv[2] ? " ..." : "");
	diag_warn("did you mean %s?", diag_quote(line));
}

/* The reports first, as they were read before what ended the parse;
 * then help, version or the usage error, as leash says them. */
static void leash_parsed(int r, const struct leash_opts *o,
			 const struct parse_error *e)
{
	for (size_t i = 0; i < o->nreports; i++) {
		if (o->reports[i].fd)
			account_report_fd(o->reports[i].fdnum);
		else
			account_report_file(o->reports[i].arg);
	}
	switch (r) {
	case PARSE_HELP:
		leash_usage();
		exit_after_output(EXIT_CANCELED);
	case PARSE_VERSION:
		printf("leash %s\n", LEASH_VERSION);
		exit_after_output(EXIT_CANCELED);
	case PARSE_ERROR:
		parse_error_print(e, "leash");
		account_fail(e->status);
		exit(e->status);
	}
}

int leash_main(int argc, char **argv)
{
	/* Static, as in timeout_main: untouched buffers cost no memory. */
	static BSS_PAGE struct plan p;  /* zeroed: in .bss, not .data */
	struct leash_opts o = { 0 };
	struct parse_error e = { 0 };

	diag_prog = "leash";
	leash_parsed(leash_parse(argc, argv, getenv("LEASH_CGROUP_ROOT"),
				 &p, &o, &e), &o, &e);
	account_plan(&p, NULL);
	/* The command as given is known now: a failed lookup's report
	 * names it too (-l's shell waits for the user's entry). */
	if (*o.rest)
		p.argv = o.rest;
	native_resolve(&p, &o);
	const char *bad;
	if (ident_check_caps(&p.id, &bad) < 0)
		diag_die(EXIT_CANCELED, "invalid capability %s in --keep-caps",
			 diag_quote(bad));
	/* Ambient capabilities outlive only a switch to a non-root uid. */
	if (p.id.keep_caps && (!o.user || p.id.uid == 0))
		diag_die(EXIT_CANCELED, "--keep-caps needs -u with a user other "
			 "than root: there is no switch to keep them across");
	if (ident_check_privilege(&p.id) < 0)
		diag_die(EXIT_CANCELED, "cannot switch to another user: "
			 "leash does not authenticate; run it as root");
	native_command(&p, &o, o.rest);
	native_environment(&p, &o);
	p.new_session = ident_changes_uid(&p.id) && !p.foreground;
	/* A uid change at a prompt gets a pty: the session is protected
	 * and keeps job control (DESIGN.md, Terminal). */
	p.pty_candidate = p.new_session || p.pty_mode == PTY_ALWAYS;
	/* --idle where the output is a terminal: a pty, so the command's
	 * stdio stays line-buffered, as at that terminal, instead of
	 * turning block-buffered (silent) behind a pipe.  --foreground and
	 * --no-pty keep the caller's terminal: a pipe then. */
	p.pty_idle = !duration_is_zero(&p.idle) && !p.foreground &&
		     p.pty_mode != PTY_NEVER && (isatty(1) || isatty(2));
	p.pty_candidate = p.pty_candidate || p.pty_idle;
	/* GNU's group of our own, for the command to share; a command in a
	 * session of its own shares nothing with it, and leash then stays
	 * in the caller's group, the terminal's foreground job even in a
	 * script, which the pty needs. */
	p.lead_group = !p.foreground && !p.pty_candidate;
	/* KILL, not the -s signal: the native command gets no say. */
	p.pdeath_signal = SIGKILL;
	/* A leash (or timeout) the command starts keeps to our deadline. */
	p.export_deadline = true;
	p.hint_kill_after = true;
	/* The whole tree dies: a leaf, else leash as a subreaper. */
	p.tree_kill_wanted = true;
	native_cgroup(&p, &o);
	account_start();

	struct outcome out;
	bool ran;
	int status = run_decide(&p, &out, &ran);
	status = account_finish(&out, ran, status);
	if (ran)
		outcome_die(&p, &out);
	if (status == EXIT_ENOENT && !o.timed)
		hint_duration(p.argv);
	leash_opts_free(&o);
	return status;
}
