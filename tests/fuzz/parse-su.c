/* SPDX-License-Identifier: ISC */
/* fuzz parse-su: su_parse (cmd/parse-su.c), both dialects of the su
 * personality's own parse, over an argv (the input split at NUL bytes). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "parse.h"
#include "parse-check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

/* An error says something, in su's voice, and nothing else is. */
static void check_error(int r, const struct parse_error *e)
{
	if (!parse_check_error(r, e, "su", 1))
		return;
	FUZZ_ASSERT(!e->diag[1]);
	/* glibc's line and "Try" come together (-u alone has no line);
	 * su's own errors are one line and no "Try". */
	FUZZ_ASSERT(e->try_help ? !e->diag[0] : e->diag[0] && !e->getopt);
}

/* WHO is its items joined by commas, none lost. */
static void check_who(const struct su_opts *o)
{
	size_t len = 0;
	const char *s = o->user;

	FUZZ_ASSERT(o->nwho >= 1 && o->nwho <= IDENT_NGROUPS_MAX + 2);
	for (size_t i = 0; i < o->nwho; i++) {
		size_t n = strlen(o->who[i]);
		FUZZ_ASSERT(!strchr(o->who[i], ',') && !strncmp(s + len, o->who[i], n));
		len += n;
		FUZZ_ASSERT(s[len] == (i + 1 < o->nwho ? ',' : '\0'));
		len++;
	}
}

static void check_run(const struct su_opts *o, char **orig, char **argv, int argc)
{
	int i = fuzz_index(argv, argc, o->args);

	FUZZ_ASSERT(i >= 1 && i <= argc);
	if (o->aosp) {
		/* The dialect rule of su.c. */
		FUZZ_ASSERT(argc >= 2 && orig[1][0] != '-' &&
			    (strchr(orig[1], ',') || (argc > 2 && orig[2][0] != '-')));
		FUZZ_ASSERT(o->user == argv[1] && i == 2);
		check_who(o);
		return;
	}
	FUZZ_ASSERT(!strcmp(o->user, "root") || fuzz_inside(argv, argc, o->user));
	FUZZ_ASSERT(o->ngroups < IDENT_NGROUPS_MAX);
	for (size_t k = 0; k < o->ngroups; k++)
		FUZZ_ASSERT(fuzz_inside(argv, argc, o->groups[k].name));
	FUZZ_ASSERT(!(o->login && o->preserve) && (!o->preserve_ignored || o->login));
	FUZZ_ASSERT(!o->whitelist || o->whitelist == o->wl_buf);
	FUZZ_ASSERT(!o->command || fuzz_inside(argv, argc, o->command));
	FUZZ_ASSERT(!o->shell || fuzz_inside(argv, argc, o->shell));
	FUZZ_ASSERT(!o->same_session || o->command);
}

/* The parse is a function of argv: a second run says the same. */
static void check_again(int r, const struct su_opts *o,
			const struct parse_error *e, char **orig, int argc)
{
	char **v = fuzz_argv_dup(orig, argc);
	static struct plan q;
	struct su_opts u = { 0 };
	struct parse_error f = { 0 };

	memset(&q, 0, sizeof q);
	FUZZ_ASSERT(su_parse(argc, v, &q, &u, &f) == r);
	FUZZ_ASSERT(u.aosp == o->aosp && same_str(u.user, o->user) &&
		    same_str(u.command, o->command) && same_str(u.shell, o->shell) &&
		    same_str(u.whitelist, o->whitelist) && u.login == o->login &&
		    u.preserve == o->preserve && u.ngroups == o->ngroups &&
		    u.nwho == o->nwho && u.pty == o->pty);
	parse_check_same_error(e, &f);
	parse_error_free(&f);
	su_opts_free(&u);
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct plan p;
	struct su_opts o = { 0 };
	struct parse_error e = { 0 };
	int argc, r;
	char **argv = fuzz_argv("su", data, size, &argc);
	char **orig = fuzz_argv_dup(argv, argc);

	memset(&p, 0, sizeof p);
	r = su_parse(argc, argv, &p, &o, &e);
	FUZZ_ASSERT(r >= PARSE_RUN && r <= PARSE_ERROR);
	FUZZ_ASSERT(p.signal_as_status && p.cg.mode == CGROUP_OFF && !p.id.have_uid);
	fuzz_check_permutation(orig, argv, argc);
	FUZZ_ASSERT(argv[0] == orig[0] && !argv[argc]);
	check_error(r, &e);
	if (r == PARSE_RUN)
		check_run(&o, orig, argv, argc);
	check_again(r, &o, &e, orig, argc);
	parse_error_free(&e);
	su_opts_free(&o);
	free(orig);
	fuzz_argv_free(argv);
	return 0;
}
