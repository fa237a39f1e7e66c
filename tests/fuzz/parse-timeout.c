/* SPDX-License-Identifier: ISC */
/* fuzz parse-timeout: timeout_parse (cmd/parse-timeout.c), the timeout
 * personality's own parse, over an argv (the input split at NUL bytes). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "time/duration.h"
#include "parse.h"
#include "parse-check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

static bool normal(const struct timespec *t)
{
	return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000;
}

static bool same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* An error says something, in timeout's voice, and nothing else is. */
static void check_error(int r, const struct parse_error *e, const char *prog)
{
	if (!parse_check_error(r, e, prog, 125))
		return;
	FUZZ_ASSERT(e->try_help && !e->diag[1]);
}

static void check_run(const struct plan *p, char **argv, int argc)
{
	int i = fuzz_index(argv, argc, p->argv);
	struct timespec d;

	/* DURATION, then COMMAND: the duration is the operand before it. */
	FUZZ_ASSERT(i >= 2 && i < argc && p->file == argv[i]);
	FUZZ_ASSERT(duration_parse(argv[i - 1], &d) == 0 &&
		    same_time(&d, &p->duration));
	FUZZ_ASSERT(normal(&p->duration) && normal(&p->kill_after));
	FUZZ_ASSERT(p->term_signal >= 0 && p->term_signal <= 64);
	FUZZ_ASSERT(p->pdeath_signal == p->term_signal);
	FUZZ_ASSERT(p->lead_group == !p->foreground);
	FUZZ_ASSERT(p->cg.mode == CGROUP_OFF && !p->id.have_uid);
}

/* The parse is a function of argv: a second run says the same. */
static void check_again(int r, const struct plan *p,
			const struct parse_error *e, char **argv, int argc)
{
	char **v = fuzz_argv_dup(argv, argc);
	static struct plan q;
	struct parse_error f = { 0 };

	memset(&q, 0, sizeof q);
	FUZZ_ASSERT(timeout_parse(argc, v, &q, &f) == r);
	FUZZ_ASSERT(fuzz_index(v, argc, q.argv) == fuzz_index(argv, argc, p->argv) &&
		    q.file == p->file &&
		    same_time(&q.duration, &p->duration) &&
		    same_time(&q.kill_after, &p->kill_after) &&
		    q.term_signal == p->term_signal && q.foreground == p->foreground &&
		    q.verbose == p->verbose && q.preserve_status == p->preserve_status);
	parse_check_same_error(e, &f);
	parse_error_free(&f);
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct plan p;
	struct parse_error e = { 0 };
	int argc, r;
	char **argv = fuzz_argv("timeout", data, size, &argc);
	char **orig = fuzz_argv_dup(argv, argc);

	memset(&p, 0, sizeof p);
	r = timeout_parse(argc, argv, &p, &e);
	FUZZ_ASSERT(r >= PARSE_RUN && r <= PARSE_ERROR);
	/* "+": stops at the first operand, never reorders. */
	FUZZ_ASSERT(!memcmp(orig, argv, ((size_t)argc + 1) * sizeof *argv));
	check_error(r, &e, "timeout");
	if (r == PARSE_RUN)
		check_run(&p, argv, argc);
	check_again(r, &p, &e, argv, argc);
	parse_error_free(&e);
	free(orig);
	fuzz_argv_free(argv);
	return 0;
}
