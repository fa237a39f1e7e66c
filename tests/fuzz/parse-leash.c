/* SPDX-License-Identifier: ISC */
/* fuzz parse-leash: leash_parse (cmd/parse-leash.c), the native
 * personality's own parse, over an argv (the input split at NUL bytes);
 * an odd-sized input also has LEASH_CGROUP_ROOT set. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "parse.h"
#include "parse-check.h"

static const char env_root[] = "/env/cgroup/root";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

static bool normal(const struct timespec *t)
{
	return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000;
}

/* An error says something, in leash's voice, and nothing else is. */
static void check_error(int r, const struct parse_error *e)
{
	if (!parse_check_error(r, e, "leash", 125))
		return;
	FUZZ_ASSERT(e->getopt || e->diag[0]);
	/* Only the report descriptor, a limit's value, a progress option's
	 * value (--warn, --idle, --stall) and no memory skip the "Try". */
	if (!e->try_help)
		FUZZ_ASSERT(!e->getopt && e->diag[0] &&
			    (!strncmp(e->diag[0], "invalid report descriptor ", 26) ||
			     !strncmp(e->diag[0], "invalid --memory-max ", 21) ||
			     !strncmp(e->diag[0], "invalid --pids-max ", 19) ||
			     !strncmp(e->diag[0], "invalid --cpu-max ", 18) ||
			     !strncmp(e->diag[0], "invalid --warn ", 15) ||
			     !strncmp(e->diag[0], "invalid --idle duration ", 24) ||
			     !strncmp(e->diag[0], "invalid --stall duration ", 25) ||
			     !strncmp(e->diag[0], "too many --warn", 15) ||
			     !strcmp(e->diag[0], "out of memory")));
	/* A second line is the hint after glibc's about -c. */
	if (e->diag[1])
		FUZZ_ASSERT(e->getopt && !strncmp(e->diag[0], "-c is su's", 10));
}

static void check_strings(const struct plan *p, const struct leash_opts *o,
			  char **argv, int argc)
{
	const char *s[] = { o->user, o->group, o->groups, o->whitelist,
			    p->chdir, p->id.keep_caps };

	for (size_t i = 0; i < sizeof s / sizeof *s; i++)
		FUZZ_ASSERT(!s[i] || fuzz_inside(argv, argc, s[i]));
	for (size_t i = 0; i < o->nreports; i++) {
		const struct leash_report *rp = &o->reports[i];
		FUZZ_ASSERT(fuzz_inside(argv, argc, rp->arg));
		FUZZ_ASSERT(!rp->fd || (rp->fdnum >= 0 && rp->fdnum <= 1 << 30 &&
					strtol(rp->arg, NULL, 10) == rp->fdnum));
	}
}

static void check_run(const struct plan *p, const struct leash_opts *o,
		      char **argv, int argc, const char *root)
{
	const struct cgroup_plan *cg = &p->cg;
	int i = fuzz_index(argv, argc, o->rest);

	FUZZ_ASSERT(i >= 1 && i <= argc);
	/* The command starts at the first operand (or after "--"). */
	FUZZ_ASSERT(i == argc || argv[i][0] != '-' || !argv[i][1] ||
		    !strcmp(argv[i - 1], "--"));
	FUZZ_ASSERT(normal(&p->duration) && normal(&p->kill_after));
	FUZZ_ASSERT(o->timed || (!p->duration.tv_sec && !p->duration.tv_nsec));
	FUZZ_ASSERT(p->term_signal >= 0 && p->term_signal <= 64);
	FUZZ_ASSERT(cg->mode == CGROUP_AUTO || cg->mode == CGROUP_REQUIRE ||
		    cg->mode == CGROUP_OFF || cg->mode == CGROUP_TRACK);
	FUZZ_ASSERT(!cg->weight || (cg->weight <= 10000 && cg->asked));
	FUZZ_ASSERT(!cg->kill_leftovers || cg->asked);
	FUZZ_ASSERT(o->root_asked == p->cg_root_asked);
	FUZZ_ASSERT(o->root_asked ? cg->root && fuzz_inside(argv, argc, cg->root)
				  : cg->root == root);
	FUZZ_ASSERT(p->verbose == cg->verbose && (!p->verbose || cg->note));
	/* Names are the run's: nothing is resolved here. */
	FUZZ_ASSERT(!p->id.have_uid && !p->id.have_gid && !p->envp);
	check_strings(p, o, argv, argc);
}

/* The parse is a function of argv: a second run says the same. */
static void check_again(int r, const struct plan *p, const struct leash_opts *o,
			const struct parse_error *e, char **argv, int argc,
			const char *root)
{
	char **v = fuzz_argv_dup(argv, argc);
	static struct plan q;
	struct leash_opts u = { 0 };
	struct parse_error f = { 0 };

	memset(&q, 0, sizeof q);
	FUZZ_ASSERT(leash_parse(argc, v, root, &q, &u, &f) == r);
	FUZZ_ASSERT(q.duration.tv_sec == p->duration.tv_sec &&
		    q.duration.tv_nsec == p->duration.tv_nsec &&
		    q.kill_after.tv_sec == p->kill_after.tv_sec &&
		    q.kill_after.tv_nsec == p->kill_after.tv_nsec &&
		    q.term_signal == p->term_signal && q.cg.mode == p->cg.mode &&
		    q.cg.weight == p->cg.weight && q.cg.root == p->cg.root &&
		    q.pty_mode == p->pty_mode && q.chdir == p->chdir);
	FUZZ_ASSERT(u.user == o->user && u.group == o->group &&
		    u.groups == o->groups && u.login == o->login &&
		    u.nreports == o->nreports && (r != PARSE_RUN || u.rest - v == o->rest - argv));
	parse_check_same_error(e, &f);
	parse_error_free(&f);
	leash_opts_free(&u);
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct plan p;
	struct leash_opts o = { 0 };
	struct parse_error e = { 0 };
	const char *root = size & 1 ? env_root : NULL;
	int argc, r;
	char **argv = fuzz_argv("leash", data, size, &argc);
	char **orig = fuzz_argv_dup(argv, argc);

	memset(&p, 0, sizeof p);
	r = leash_parse(argc, argv, root, &p, &o, &e);
	FUZZ_ASSERT(r >= PARSE_RUN && r <= PARSE_ERROR);
	/* "+": stops at the first operand, never reorders. */
	FUZZ_ASSERT(!memcmp(orig, argv, ((size_t)argc + 1) * sizeof *argv));
	check_error(r, &e);
	/* Help, version and errors keep what came before: also checked. */
	check_strings(&p, &o, argv, argc);
	if (r == PARSE_RUN)
		check_run(&p, &o, argv, argc, root);
	check_again(r, &p, &o, &e, argv, argc, root);
	parse_error_free(&e);
	leash_opts_free(&o);
	free(orig);
	fuzz_argv_free(argv);
	return 0;
}
