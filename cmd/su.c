/* SPDX-License-Identifier: ISC */
/* su: the su personality.  Two dialects share the name:
 *
 *   util-linux   su [options] [-] [USER [ARG...]]   (root's scripts)
 *   AOSP         su [WHO [COMMAND...]]              (Android's su)
 *
 * The dialect is decided on the first two arguments, before any option
 * is parsed: it is AOSP when the first argument does not start with '-'
 * and either contains a comma or is followed by an argument that does
 * not start with '-' (su 2000 id, su shell,shell,3003 ls).  Everything
 * else is util-linux su, with options before or after USER (su - pg,
 * su pg -c cmd, su -c cmd pg, su 2000).  The one util-linux form this
 * takes over is `su USER FILE...` (FILE run by USER's shell), which here
 * runs FILE directly.
 *
 * Both dialects accept names from /etc/passwd, numbers and Android names
 * for USER, and names only NSS knows, as util-linux su does (through
 * getent: see nss.h; su has no --no-nss, `leash --no-nss -u` is the way
 * to the files alone).  leash never asks for a password: only a caller
 * that may already switch (root) gets the switch.  Exit status as util-linux su:
 * the command's, 128+N after signal N, 126/127 when it cannot be run,
 * 1 for su's own errors. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diag/diag.h"
#include "ident/ident.h"
#include "parse.h"
#include "signal/signal.h"
#include "sys/sys.h"

extern char **environ;

enum { SU_FAIL = 1 };

static void su_usage(void)
{
	static const char help[] =
	      "\nUsage:\n"
	      " su [options] [-] [<user> [<argument>...]]\n"
	      " su [<who> [<command>...]]\n"
	      "\nChange the effective user ID and group ID to that of <user>.\n"
	      "A mere - implies -l.  If <user> is not given, root is assumed.\n"
	      "The second (AOSP) form runs <command> directly, with no shell;\n"
	      "<who> is user[,group[,supp...]] of names or numbers.  It applies\n"
	      "when the first argument does not start with '-' and contains a\n"
	      "comma or is followed by an argument that does not start with '-'.\n"
	      "Only root may switch: leash does not authenticate.\n"
	      "\nOptions:\n"
	      " -m, -p, --preserve-environment      do not reset environment variables\n"
	      " -w, --whitelist-environment <list>  don't reset specified variables\n"
	      "\n"
	      " -g, --group <group>             specify the primary group\n"
	      " -G, --supp-group <group>        specify a supplemental group\n"
	      "\n"
	      " -, -l, --login                  make the shell a login shell\n"
	      " -c, --command <command>         pass a single command to the shell with -c\n"
	      " --session-command <command>     pass a single command to the shell with -c\n"
	      "                                   and do not create a new session\n"
	      " -f, --fast                      pass -f to the shell (for csh or tcsh)\n"
	      " -P, --pty                       create a new pseudo-terminal (the default\n"
	      "                                   for an interactive shell of another user)\n"
	      " -T, --no-pty                    do not create a pseudo-terminal (the shell\n"
	      "                                   shares the caller's terminal: see leash(1))\n"
	      " -s, --shell <shell>             run <shell>\n"
	      "\n"
	      " -h, --help                      display this help\n"
	      " -V, --version                   display version\n"
	      "\nFor more details see leash(1).\n";

	fputs(help, stdout);
}

/* A name that is no one, in the dialect's words; any other error (EMFILE
 * reading /etc/passwd ...) is said as itself, never as "does not exist". */
static bool lookup_missed(int err)
{
	return err == ENOENT || err == EINVAL || err == ERANGE;
}

static _Noreturn void lookup_failed(const char *what, const char *name)
{
	diag_die(SU_FAIL, "failed to look up %s %s: %s", what, name,
		 nss_strerror(errno));
}

static void add_gid(struct su_opts *o, const char *spec, bool primary)
{
	gid_t gid, *g;

	if (ident_lookup_group(spec, &gid) < 0) {
		if (!lookup_missed(errno))
			lookup_failed("group", spec);
		diag_die(SU_FAIL, "group %s does not exist", spec);
	}
	if (!(g = realloc(o->gids, (o->ngids + 1) * sizeof *g)))
		diag_die(SU_FAIL, "out of memory");
	g[o->ngids++] = gid;
	o->gids = g;
	if (primary) {
		o->have_g = true;
		o->g = gid;
	} else if (!o->have_G) {
		o->have_G = true;
		if (!o->have_g)
			o->g = gid;     /* the first -G is the primary without -g */
	}
}

/* AOSP WHO, split by su_parse: every item a name or a number. */
static void su_resolve_who(struct plan *p, const struct su_opts *o)
{
	gid_t *g;
	size_t i;

	if (!(g = malloc(o->nwho * sizeof *g)))
		diag_die(SU_FAIL, "too many groups in %s", diag_quote(o->user));
	for (i = 0; i < o->nwho; i++) {
		const char *item = o->who[i];
		int r = i == 0 ? ident_resolve_user(&p->id, item) :
			i == 1 ? ident_resolve_group(&p->id, item) :
				 ident_lookup_group(item, &g[i - 2]);
		if (r < 0 && !lookup_missed(errno))
			lookup_failed(i ? "group" : "user", diag_quote(item));
		if (r < 0)
			diag_die(SU_FAIL, "invalid uid/gid %s", diag_quote(item));
	}
	if (i > 2 && ident_set_groups(&p->id, g, i - 2) < 0)
		diag_die(SU_FAIL, "too many groups in %s", diag_quote(o->user));
	free(g);
}

/* The -g and -G su_parse kept, looked up in their order, also when the
 * parse then failed: su read, and looked up, them first. */
static void su_lookup_groups(struct su_opts *o)
{
	for (size_t i = 0; i < o->ngroups; i++)
		add_gid(o, o->groups[i].name, o->groups[i].primary);
}

static void su_resolve(struct plan *p, struct su_opts *o)
{
	if (ident_resolve_user(&p->id, o->user) < 0) {
		if (!lookup_missed(errno))
			lookup_failed("user", o->user);
		diag_die(SU_FAIL, "user %s does not exist or the user entry does "
			 "not contain all the required fields", o->user);
	}
	if (o->ngids && ident_set_groups(&p->id, o->gids, o->ngids) < 0)
		diag_die(SU_FAIL, "cannot set groups");
	if (o->have_g || o->have_G) {
		p->id.gid = o->g;
		p->id.have_gid = true;
		p->id.gid_explicit = true;
	}
}

/* No password is asked: the caller must already be able to switch. */
static void su_check_caller(const struct plan *p)
{
	if (ident_check_privilege(&p->id) < 0)
		diag_die(SU_FAIL, "permission denied: leash does not "
			 "authenticate; only root can switch users");
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The shell and its argv: [-]name [-f] [-c CMD] ARG... */
static void su_shell_argv(struct plan *p, const struct su_opts *o,
			  const char *shell)
{
	size_t nargs = 0, k = 0;
	char **v;

	while (o->args[nargs])
		nargs++;
	if (!(v = calloc(nargs + 5, sizeof *v)))
		diag_die(SU_FAIL, "out of memory");
	if (o->login) {
		char *a0 = malloc(strlen(base_name(shell)) + 2);

		if (!a0)
			diag_die(SU_FAIL, "out of memory");
		a0[0] = '-';
		strcpy(a0 + 1, base_name(shell));
		v[k++] = a0;
	} else {
		v[k++] = (char *)base_name(shell);
	}
	if (o->fast)
		v[k++] = "-f";
	if (o->command) {
		v[k++] = "-c";
		v[k++] = (char *)o->command;
	}
	memcpy(v + k, o->args, nargs * sizeof *v);
	p->file = shell;
	p->argv = v;
}

static const char *su_pick_shell(const struct plan *p, const struct su_opts *o)
{
	const char *s = o->shell;

	if (!s && o->preserve)
		s = getenv("SHELL");    /* util-linux: -m/-p runs the caller's */
	if (!s || !*s)
		s = p->id.shell;
	return s && *s ? s : env_default_shell();
}

/* HOME SHELL (and USER LOGNAME for a non-root target), as util-linux. */
static char **su_env(const struct plan *p, const struct su_opts *o,
		     const char *shell)
{
	const struct ident *id = &p->id;
	char **env;

	if (o->preserve)
		return env_build(environ, id, ENV_PRESERVE, NULL);
	env = env_build(environ, id, o->login ? ENV_LOGIN : ENV_PRESERVE,
			o->whitelist);
	if (!env || env_set(&env, "SHELL", shell) < 0 ||
	    (!o->login && env_set(&env, "HOME", id->home ? id->home : "/") < 0))
		return NULL;
	if (!o->login && id->uid != 0 &&
	    (env_set(&env, "USER", id->user) < 0 || env_set(&env, "LOGNAME", id->user) < 0))
		return NULL;
	/* login.defs's ALWAYS_SET_PATH: the login's PATH without -l too. */
	if (!o->login && logindefs_always_set_path()) {
		char *path = env_login_path(id->uid == 0);
		int rc = path ? env_set(&env, "PATH", path) : -1;

		free(path);
		if (rc < 0)
			return NULL;
	}
	return env;
}

/* -l changes to HOME as the target; if it cannot, it says so and stays
 * where it is, as util-linux su does (login(1) would go to /). */
static void su_login_dir(struct plan *p)
{
	p->chdir = p->id.home && *p->id.home ? p->id.home : "/";
	if (workdir_fallback_set(&p->chdir_fallback, p->chdir, NULL) < 0)
		diag_die(SU_FAIL, "out of memory");
}

static void su_plan_ul(struct plan *p, struct su_opts *o)
{
	const char *shell = su_pick_shell(p, o);

	su_shell_argv(p, o, shell);
	if (!(p->envp = su_env(p, o, shell)))
		diag_die(SU_FAIL, "failed to modify environment");
	if (o->login)
		su_login_dir(p);
	/* util-linux: a command for a non-root user gets its own session,
	 * so it cannot push input into the caller's terminal (TIOCSTI);
	 * an interactive shell keeps the terminal. */
	o->interactive = !o->command;
	if (o->same_session || !o->command || p->id.uid == 0)
		o->same_session = true;
}

static void su_plan_aosp(struct plan *p, struct su_opts *o)
{
	static char *sh_argv[2];

	if (o->args[0]) {
		p->file = o->args[0];
		p->argv = o->args;
	} else {
		p->file = su_pick_shell(p, o);
		sh_argv[0] = (char *)base_name(p->file);
		p->argv = sh_argv;
	}
	if (!(p->envp = env_build(environ, &p->id, ENV_ANDROID, NULL)))
		diag_die(SU_FAIL, "failed to modify environment");
	/* A command is not interactive: new session as for su -c. */
	o->interactive = !o->args[0];
	o->same_session = !o->args[0] || p->id.uid == 0;
}

/* util-linux prints the signal's name before returning 128+N. */
static int su_status(const struct outcome *out)
{
	if (out->code == CLD_EXITED)
		return out->status;
	char line[128];

	snprintf(line, sizeof line, "%s%s\n", strsignal(out->status),
		 out->code == CLD_DUMPED ? " (core dumped)" : "");
	diag_put(line);
	return 128 + out->status;
}

static int su_run(struct plan *p)
{
	struct outcome out;
	struct spawn_error err;

	if (run_plan(p, &out, &err) < 0)
		return SU_FAIL;
	if (err.stage == SPAWN_EXEC) {
		diag_warn_errno(err.err, "failed to execute %s", p->file);
		return err.err == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
	}
	if (err.stage) {
		spawn_error_report(p, &err);
		return SU_FAIL;
	}
	/* Ended from outside: util-linux's second line, then its death by
	 * the signal that ended the session. */
	if (out.ended_by) {
		diag_put(" ...killed.\n");
		sigdie(out.ended_by);
	}
	return su_status(&out);
}

/* util-linux su catches TERM, and INT and QUIT unless the command runs
 * in the caller's session (--session-command): it sends the shell TERM,
 * kills it 2 s later and dies of the signal it caught.  Android's su
 * execs its command and has nothing to say. */
static void su_end_signals(struct plan *p, bool session_command)
{
	sigemptyset(&p->end_signals);
	sigaddset(&p->end_signals, SIGTERM);
	if (!session_command) {
		sigaddset(&p->end_signals, SIGINT);
		sigaddset(&p->end_signals, SIGQUIT);
	}
	p->end_grace = (struct timespec){ 2, 0 };
	p->end_say = true;
	p->end_forward = SIGTERM;
}

/* Help, version or su's usage error, after the -g/-G given before. */
static void su_parsed(int r, struct su_opts *o, const struct parse_error *e)
{
	su_lookup_groups(o);
	switch (r) {
	case PARSE_HELP:
		su_usage();
		exit_after_output(1);
	case PARSE_VERSION:
		printf("su (leash) %s\n", LEASH_VERSION);
		exit_after_output(1);
	case PARSE_ERROR:
		parse_error_print(e, "su");
		exit(e->status);
	}
	if (o->preserve_ignored)
		diag_warn("ignoring --preserve-environment, it's mutually "
			  "exclusive with --login");
}

int su_main(int argc, char **argv)
{
	static BSS_PAGE struct plan p;  /* zeroed, and large: not on the stack */
	struct su_opts o = { 0 };
	struct parse_error e = { 0 };
	int rc;

	diag_prog = "su";
	su_parsed(su_parse(argc, argv, &p, &o, &e), &o, &e);
	if (o.aosp)
		su_resolve_who(&p, &o);
	else
		su_resolve(&p, &o);
	su_check_caller(&p);
	if (!o.aosp)
		su_end_signals(&p, o.same_session);
	if (o.aosp)
		su_plan_aosp(&p, &o);
	else
		su_plan_ul(&p, &o);
	p.new_session = !o.same_session && ident_changes_uid(&p.id);
	/* An interactive shell of another user gets a pty of its own
	 * (util-linux's -P, by default here): not root's terminal. */
	p.pty_mode = o.pty;
	p.pty_candidate = o.pty == PTY_ALWAYS ||
		(o.interactive && p.id.uid != 0 && ident_changes_uid(&p.id));
	p.foreground = !p.new_session;
	/* util-linux su stays in the caller's process group. */
	p.lead_group = false;
	p.pdeath_signal = SIGKILL;
	rc = su_run(&p);
	env_free(p.envp);
	free(p.chdir_fallback.warn);
	ident_free(&p.id);
	su_opts_free(&o);
	return rc;
}
