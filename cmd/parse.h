/* SPDX-License-Identifier: ISC */
/* parse: each personality's argv as a plan and options, apart from
 * running it.  Parsing needs no system state (no passwd, no NSS, no
 * capabilities, no environment, no file opened), prints nothing and
 * never exits: the *_main functions print what it says and go on. */
#ifndef LEASH_PARSE_H
#define LEASH_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "spawn/spawn.h"

enum parse_result {
	PARSE_RUN = 0,          /* plan and options filled: go on */
	PARSE_HELP,             /* --help: print the usage, exit 0 */
	PARSE_VERSION,          /* --version */
	PARSE_ERROR,            /* a usage error: print it, exit ->status */
};

/* A usage error as the personality prints it today, in this order:
 * glibc's getopt line (raw), leash's own lines (each printed by
 * diag_warn, so a report names the last), then "Try 'PROG --help' for
 * more information." when TRY_HELP. */
struct parse_error {
	char *getopt;           /* "timeout: invalid option -- 'x'\n", or NULL */
	char *diag[2];          /* without "prog: " and newline, or NULL */
	bool try_help;
	int status;             /* 125 (leash, timeout) or 1 (su) */
};

/* Does E say anything at all? (Every PARSE_ERROR does.) */
bool parse_error_said(const struct parse_error *e);
/* Print E as the personality does (TRY_PROG names itself in "Try"). */
void parse_error_print(const struct parse_error *e, const char *try_prog);
void parse_error_free(struct parse_error *e);

/* timeout [OPTION]... DURATION COMMAND [ARG]...: fills the deadline,
 * signal, flags and P->file/argv (pointers into ARGV). */
int timeout_parse(int argc, char **argv, struct plan *p,
		  struct parse_error *e);

/* A --report or --report-fd, in the order given: each is opened in
 * turn, and the first that cannot be written ends leash. */
struct leash_report {
	bool fd;
	const char *arg;        /* the path, or the descriptor's digits */
	int fdnum;
};

/* What leash's options said that the run path still resolves. */
struct leash_opts {
	const char *user, *group, *groups, *whitelist;
	bool login, preserve_env, timed;
	bool root_asked;        /* --cgroup-root (not LEASH_CGROUP_ROOT) */
	/* REPORTS is ONE_REPORT for the usual single --report, else
	 * malloc'd (no allocation, so no page, for one); free with
	 * leash_opts_free.  O may not be copied while it holds reports. */
	struct leash_report *reports;
	size_t nreports;
	struct leash_report one_report;
	char **rest;            /* COMMAND [ARG]... (may be empty with -l) */
};

/* leash [OPTION]... [--] COMMAND [ARG]...; CGROUP_ROOT is
 * LEASH_CGROUP_ROOT (NULL or "": none).  On PARSE_ERROR, HELP and
 * VERSION, O holds the options before the one that ended the parse
 * (its reports are opened first, as they were read first). */
int leash_parse(int argc, char **argv, const char *cgroup_root,
		struct plan *p, struct leash_opts *o, struct parse_error *e);
void leash_opts_free(struct leash_opts *o);

/* A -g or -G of util-linux su, in the order given. */
struct su_group {
	const char *name;
	bool primary;           /* -g */
};

struct su_opts {
	bool aosp;              /* su WHO [COMMAND...] */
	const char *user;       /* USER, or WHO's first item */
	const char *command;    /* -c / --session-command */
	const char *shell;      /* -s */
	const char *whitelist;  /* -w, comma list (several -w add up) */
	char *wl_buf;
	bool login, preserve, fast, same_session;
	bool preserve_ignored;  /* warn: -m/-p dropped for --login */
	enum pty_mode pty;      /* -P / -T */
	struct su_group *groups;        /* -g/-G, malloc'd */
	size_t ngroups;
	char **who;             /* AOSP: WHO split at commas (malloc'd, */
	char *who_buf;          /* into this copy of WHO) */
	size_t nwho;
	char **args;            /* ARG... or COMMAND... */
	/* Filled by the run path. */
	bool interactive;       /* a shell without a command */
	gid_t *gids;            /* -g then -G, in order (util-linux keeps both) */
	size_t ngids;
	bool have_g, have_G;
	gid_t g;
};

/* Either dialect of su (the rule in su.c).  On PARSE_ERROR, HELP and
 * VERSION, O->groups holds the -g/-G given before: su looks those up
 * first, as it did while reading them. */
int su_parse(int argc, char **argv, struct plan *p, struct su_opts *o,
	     struct parse_error *e);
void su_opts_free(struct su_opts *o);

/* Internal to the parse files: E's next diag line, printf-style. */
void parse_say(struct parse_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
