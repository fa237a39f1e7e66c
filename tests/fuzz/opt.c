/* SPDX-License-Identifier: ISC */
/* fuzz opt: opt_next over an argv (the input split at NUL bytes) with
 * test tables for what the personalities' tables lack (optional
 * arguments, two names for one option, no long options at all); the
 * first byte picks the table.  The personalities' own tables are
 * fuzzed through their parse functions: parse-leash.c, parse-timeout.c,
 * parse-su.c. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sys/opt.h"

/* A test table with what the personalities lack: optional arguments,
 * and two names for one option (not ambiguous as a prefix). */
static const struct opt_long test_longs[] = {
	{ "color", OPT_OPTIONAL, 'c' }, { "colour", OPT_OPTIONAL, 'c' },
	{ "col", OPT_REQUIRED, 300 }, { "verbose", OPT_NONE, 'v' },
	{ "version", OPT_NONE, 'V' }, { "x", OPT_REQUIRED, 'x' },
	{ NULL, 0, 0 },
};

static const struct table {
	const char *prog, *shorts;
	const struct opt_long *longs;
} tables[] = {
	{ "test", "ab:c::x:v", test_longs },
	{ "noshort", "+", NULL },
};

#define NTABLES (sizeof tables / sizeof *tables)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

/* Is VAL something opt_next may return for table T? */
static bool valid_value(const struct table *t, int val)
{
	if (val == '?')
		return true;
	for (const struct opt_long *o = t->longs; o && o->name; o++)
		if (o->val == val)
			return true;
	return val > 0 && val < 256 && val != ':' && val != '+' &&
	       strchr(t->shorts, val);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct table *t = &tables[size ? data[0] % NTABLES : 0];
	int argc, c, calls = 0;
	char **argv = fuzz_argv(t->prog, data + !!size, size - !!size, &argc);
	char **orig = malloc((size_t)argc * sizeof *orig);
	struct opt_state st;

	memcpy(orig, argv, (size_t)argc * sizeof *orig);
	opt_init(&st, argc, argv, t->shorts, t->longs, t->prog);
	while ((c = opt_next(&st)) != -1) {
		FUZZ_ASSERT(valid_value(t, c));
		/* A '?' has glibc's line, prog first, kept and not printed. */
		FUZZ_ASSERT(c != '?' || (st.msg && !strncmp(st.msg, t->prog, strlen(t->prog)) &&
					 st.msg[strlen(st.msg) - 1] == '\n'));
		FUZZ_ASSERT(st.ind >= 1 && st.ind <= argc);
		FUZZ_ASSERT(!st.arg || fuzz_inside(orig, argc, st.arg));
		/* Each call uses up at least one character of one argument. */
		FUZZ_ASSERT(++calls <= (int)size + argc);
	}
	FUZZ_ASSERT(st.ind >= 1 && st.ind <= argc);
	opt_fini(&st);
	FUZZ_ASSERT(argv[0] == orig[0] && argv[argc] == NULL);
	fuzz_check_permutation(orig, argv, argc);
	/* Stop-at-first-operand tables never reorder. */
	if (t->shorts[0] == '+')
		FUZZ_ASSERT(!memcmp(orig, argv, (size_t)argc * sizeof *orig));
	free(orig);
	fuzz_argv_free(argv);
	return 0;
}
