/* SPDX-License-Identifier: ISC */
/* fuzz opt: opt_next over an argv (the input split at NUL bytes) with
 * each personality's option table; the first byte picks the table.
 *
 * The tables are copies of cmd/leash.c, cmd/timeout.c and cmd/su.c
 * (static there, and parsing is not yet apart from running: issue 12,
 * item 13).  When each personality has its own parse function, call
 * it here instead and drop the copies. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "opt.h"

static const struct opt_long leash_longs[] = {
	{ "timeout", OPT_REQUIRED, 't' }, { "signal", OPT_REQUIRED, 's' },
	{ "kill-after", OPT_REQUIRED, 'k' },
	{ "preserve-status", OPT_NONE, 256 }, { "foreground", OPT_NONE, 257 },
	{ "verbose", OPT_NONE, 'v' }, { "user", OPT_REQUIRED, 'u' },
	{ "group", OPT_REQUIRED, 'g' }, { "groups", OPT_REQUIRED, 'G' },
	{ "keep-caps", OPT_REQUIRED, 258 }, { "no-new-privs", OPT_NONE, 259 },
	{ "login", OPT_NONE, 'l' }, { "preserve-env", OPT_NONE, 'p' },
	{ "whitelist-environment", OPT_REQUIRED, 'w' },
	{ "chdir", OPT_REQUIRED, 'C' }, { "cgroup", OPT_REQUIRED, 260 },
	{ "cpu-weight", OPT_REQUIRED, 261 },
	{ "cgroup-root", OPT_REQUIRED, 262 },
	{ "kill-leftovers", OPT_NONE, 263 },
	{ "help", OPT_NONE, 'h' }, { "version", OPT_NONE, 'V' },
	{ NULL, 0, 0 },
};

static const struct opt_long timeout_longs[] = {
	{ "foreground", OPT_NONE, 'f' }, { "kill-after", OPT_REQUIRED, 'k' },
	{ "preserve-status", OPT_NONE, 'p' }, { "signal", OPT_REQUIRED, 's' },
	{ "verbose", OPT_NONE, 'v' }, { "help", OPT_NONE, 256 },
	{ "version", OPT_NONE, 257 },
	{ NULL, 0, 0 },
};

static const struct opt_long su_longs[] = {
	{ "command", OPT_REQUIRED, 'c' },
	{ "session-command", OPT_REQUIRED, 256 }, { "fast", OPT_NONE, 'f' },
	{ "login", OPT_NONE, 'l' }, { "preserve-environment", OPT_NONE, 'p' },
	{ "pty", OPT_NONE, 'P' }, { "shell", OPT_REQUIRED, 's' },
	{ "group", OPT_REQUIRED, 'g' }, { "supp-group", OPT_REQUIRED, 'G' },
	{ "user", OPT_REQUIRED, 'u' },
	{ "whitelist-environment", OPT_REQUIRED, 'w' },
	{ "help", OPT_NONE, 'h' }, { "version", OPT_NONE, 'V' },
	{ NULL, 0, 0 },
};

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
	{ "leash", "+t:s:k:vu:g:G:lpw:C:hV", leash_longs },
	{ "timeout", "+fk:ps:v", timeout_longs },
	{ "su", "c:fg:G:lmpPs:u:hVw:", su_longs },
	{ "test", "ab:c::x:v", test_longs },
	{ "noshort", "+", NULL },
};

#define NTABLES (sizeof tables / sizeof *tables)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_quiet_stderr();    /* glibc's messages for every '?' */
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

/* Does P point into one of the strings of V? */
static bool inside(char **v, int n, const char *p)
{
	for (int i = 0; i < n; i++)
		if (p >= v[i] && p <= v[i] + strlen(v[i]))
			return true;
	return false;
}

/* The argv after parsing holds the same strings, reordered. */
static void check_permutation(char **before, char **after, int n)
{
	for (int i = 0; i < n; i++) {
		int k = 0, m = 0;

		for (int j = 0; j < n; j++)
			k += before[j] == before[i], m += after[j] == before[i];
		FUZZ_ASSERT(k == m);
	}
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
		FUZZ_ASSERT(st.ind >= 1 && st.ind <= argc);
		FUZZ_ASSERT(!st.arg || inside(orig, argc, st.arg));
		/* Each call uses up at least one character of one argument. */
		FUZZ_ASSERT(++calls <= (int)size + argc);
	}
	FUZZ_ASSERT(st.ind >= 1 && st.ind <= argc);
	FUZZ_ASSERT(argv[0] == orig[0] && argv[argc] == NULL);
	check_permutation(orig, argv, argc);
	/* Stop-at-first-operand tables never reorder. */
	if (t->shorts[0] == '+')
		FUZZ_ASSERT(!memcmp(orig, argv, (size_t)argc * sizeof *orig));
	free(orig);
	fuzz_argv_free(argv);
	return 0;
}
