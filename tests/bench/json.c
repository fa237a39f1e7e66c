/* SPDX-License-Identifier: ISC */
/* json: a streaming writer; commas and nesting are tracked here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static FILE *out;
static int depth;
static bool first[32];          /* nothing written yet at this level */
static char closers[32];        /* the bracket that ends this level */

void json_open(FILE *f)
{
	out = f;
	depth = 0;
	first[0] = true;
}

static void put_string(const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* Comma, indentation and the key, if any. */
static void open_item(const char *key)
{
	if (!out)
		return;
	if (depth > 0 && !first[depth])
		fputc(',', out);
	if (depth > 0)
		fprintf(out, "\n%*s", depth * 2, "");
	first[depth] = false;
	if (key) {
		put_string(key);
		fputs(": ", out);
	}
}

static void open_container(const char *key, char open, char close)
{
	open_item(key);
	if (out)
		fputc(open, out);
	first[++depth] = true;
	closers[depth] = close;
}

void json_obj(const char *key)
{
	open_container(key, '{', '}');
}

void json_arr(const char *key)
{
	open_container(key, '[', ']');
}

void json_end(void)
{
	bool empty = first[depth];

	depth--;
	if (!out)
		return;
	if (!empty)
		fprintf(out, "\n%*s", depth * 2, "");
	fputc(closers[depth + 1], out);
}

void json_num(const char *key, double v)
{
	open_item(key);
	if (!out)
		return;
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

void json_int(const char *key, long long v)
{
	open_item(key);
	if (out)
		fprintf(out, "%lld", v);
}

void json_str(const char *key, const char *v)
{
	if (!v)
		return;
	open_item(key);
	if (out)
		put_string(v);
}

void json_bool(const char *key, bool v)
{
	open_item(key);
	if (out)
		fputs(v ? "true" : "false", out);
}

void json_null(const char *key)
{
	open_item(key);
	if (out)
		fputs("null", out);
}

void json_close(void)
{
	if (out)
		fputc('\n', out);
	out = NULL;
}

void json_pair(char *tok)
{
	char *eq = strchr(tok, '='), *end;
	double v;

	if (!eq)
		return;
	*eq = '\0';
	v = strtod(eq + 1, &end);
	if (end != eq + 1 && *end == '\0')
		json_num(tok, v);
	else
		json_str(tok, eq + 1);
}
