/* SPDX-License-Identifier: ISC */
/* opt: getopt_long with glibc's behaviour and messages.  leash is built
 * with musl, whose getopt words its errors differently; the personalities
 * must print what the GNU and util-linux tools print. */
#include "sys/opt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void opt_init(struct opt_state *st, int argc, char **argv, const char *shorts,
	      const struct opt_long *longs, const char *prog)
{
	memset(st, 0, sizeof *st);
	st->argc = argc;
	st->argv = argv;
	st->shorts = shorts;
	st->longs = longs;
	st->prog = prog;
	st->ind = 1;
	st->first_operand = st->last_operand = 1;
}

/* The message for a '?', kept for the caller to print: glibc's words,
 * one line with its newline.  Without memory there is none (NULL). */
static void opt_say(struct opt_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void opt_say(struct opt_state *st, const char *fmt, ...)
{
	va_list ap;
	int n;

	free(st->msg);
	st->msg = NULL;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(st->msg = malloc((size_t)n + 1)))
		return;
	va_start(ap, fmt);
	vsnprintf(st->msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
}

static int is_option(const char *a)
{
	return a[0] == '-' && a[1] != '\0';
}

/* Move the operands in [first_operand, last_operand) after the options
 * consumed since, as glibc's exchange() does. */
static void opt_rotate(struct opt_state *st)
{
	char **v = st->argv;
	int nb = st->first_operand, ne = st->last_operand, end = st->ind;

	while (ne < end) {
		char *a = v[ne];
		memmove(&v[nb + 1], &v[nb], (size_t)(ne - nb) * sizeof *v);
		v[nb] = a;
		nb++, ne++;
	}
	st->first_operand = nb;
	st->last_operand = end;
}

/* The next argument to look at, or -1 when options are over. */
static int opt_advance(struct opt_state *st)
{
	/* glibc stops at the first operand when POSIXLY_CORRECT is set, as
	 * for a leading '+' (only su's table permutes otherwise). */
	int permute = st->shorts[0] != '+' && !getenv("POSIXLY_CORRECT");

	if (st->first_operand != st->last_operand && st->last_operand != st->ind)
		opt_rotate(st);
	else if (st->first_operand == st->last_operand)
		st->first_operand = st->last_operand = st->ind;
	while (permute && st->ind < st->argc && !is_option(st->argv[st->ind]))
		st->ind++;
	st->last_operand = st->ind;
	if (st->ind < st->argc && !strcmp(st->argv[st->ind], "--")) {
		st->ind++;
		if (st->first_operand != st->last_operand && st->last_operand != st->ind)
			opt_rotate(st);
		else if (st->first_operand == st->last_operand)
			st->first_operand = st->ind;
		st->last_operand = st->argc;
		st->ind = st->argc;
	}
	if (st->ind >= st->argc || !is_option(st->argv[st->ind])) {
		if (st->first_operand != st->last_operand)
			st->ind = st->first_operand;
		return -1;
	}
	return 0;
}

/* Find NAME (LEN bytes, no '=') among the long options: an exact match,
 * else a unique prefix; *AMBIG set when several different ones match. */
static const struct opt_long *opt_find_long(const struct opt_long *longs,
					    const char *name, size_t len,
					    int *ambig)
{
	const struct opt_long *found = NULL;

	*ambig = 0;
	for (const struct opt_long *o = longs; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return *ambig = 0, o;
		if (!found)
			found = o;
		else if (found->arg != o->arg || found->val != o->val)
			*ambig = 1;
	}
	return found;
}

/* The whole line in one write, however many options match: a fixed
 * buffer would cut it. */
static void opt_print_ambiguous(struct opt_state *st, const char *arg,
				size_t len)
{
	static const char head[] = "%s: option '%s' is ambiguous; possibilities:";
	size_t need = strlen(st->prog) + strlen(arg) + sizeof head + 2;
	char *line, *p;

	for (const struct opt_long *o = st->longs; o->name; o++)
		if (!strncmp(o->name, arg + 2, len))
			need += strlen(o->name) + 5;
	if (!(line = malloc(need))) {
		opt_say(st, "%s: option '%s' is ambiguous\n", st->prog, arg);
		return;
	}
	p = line + sprintf(line, head, st->prog, arg);
	for (const struct opt_long *o = st->longs; o->name; o++)
		if (!strncmp(o->name, arg + 2, len))
			p += sprintf(p, " '--%s'", o->name);
	opt_say(st, "%s\n", line);
	free(line);
}

static int opt_long(struct opt_state *st)
{
	char *arg = st->argv[st->ind++];
	char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int ambig;
	const struct opt_long *o = opt_find_long(st->longs, name, len, &ambig);

	st->arg = NULL;
	if (ambig) {
		opt_print_ambiguous(st, arg, len);
		return '?';
	}
	if (!o) {
		opt_say(st, "%s: unrecognized option '%s'\n", st->prog, arg);
		return '?';
	}
	if (eq && o->arg == OPT_NONE) {
		opt_say(st, "%s: option '--%s' doesn't allow an argument\n",
			st->prog, o->name);
		return '?';
	}
	if (eq)
		st->arg = eq + 1;
	else if (o->arg == OPT_REQUIRED) {
		if (st->ind >= st->argc) {
			opt_say(st, "%s: option '--%s' requires an argument\n",
				st->prog, o->name);
			return '?';
		}
		st->arg = st->argv[st->ind++];
	}
	return o->val;
}

static int opt_short(struct opt_state *st)
{
	char *cur = st->argv[st->ind];
	int c = (unsigned char)cur[st->next_char++];
	const char *spec = c != ':' ? strchr(st->shorts, c) : NULL;
	int last = cur[st->next_char] == '\0';

	st->arg = NULL;
	st->opt = c;
	if (spec && spec[1] == ':') {
		if (!last)
			st->arg = cur + st->next_char;
		else if (spec[2] != ':' && st->ind + 1 < st->argc)
			st->arg = st->argv[++st->ind];
		else if (spec[2] != ':') {
			opt_say(st, "%s: option requires an argument -- '%c'\n",
				st->prog, c);
			c = '?';
		}
		last = 1;
	} else if (!spec || c == '+') {
		opt_say(st, "%s: invalid option -- '%c'\n", st->prog, c);
		c = '?';
	}
	if (last) {
		st->ind++;
		st->next_char = 0;
	}
	return c;
}

int opt_next(struct opt_state *st)
{
	if (st->next_char == 0) {
		if (opt_advance(st) < 0)
			return -1;
		char *cur = st->argv[st->ind];
		if (cur[1] == '-' && st->longs)
			return opt_long(st);
		st->next_char = 1;
	}
	return opt_short(st);
}

void opt_fini(struct opt_state *st)
{
	free(st->msg);
	st->msg = NULL;
}
