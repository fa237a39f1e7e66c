/* SPDX-License-Identifier: ISC */
/* logindefs: login.defs(5) and /etc/default/su, each line taken as
 * util-linux's su takes it (its lib/ident/logindefs.c): '#' ends the line; the
 * name is the first word, blanks before it skipped, ended by a blank or
 * '=', and compared in any case; the value follows after any run of
 * blanks, '=' and '"', its trailing blanks and '"' dropped; a name with
 * no value sets "".  Read once, at the first question. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* strdup */
#endif
#include "ident/logindefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* More of a file than this is not read (Debian's is 13 KiB). */
#define LOGINDEFS_MAX (256 * 1024)

struct setting {
	const char *name, *value;
};

static struct {
	bool loaded;
	char *text[2];          /* the files, cut up in place */
	struct setting *v;
	size_t n, cap;
} defs;

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcasecmp in the C locale, whatever the caller's. */
static bool same_name(const char *a, const char *b)
{
	while (*a && lower((unsigned char)*a) == lower((unsigned char)*b))
		a++, b++;
	return lower((unsigned char)*a) == lower((unsigned char)*b);
}

/* The file at PATH, NUL-terminated, malloc'd; NULL when it cannot be
 * read (util-linux skips such a file) or memory is short (*OOM). */
static char *read_text(const char *path, bool *oom)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf = NULL, *nbuf;
	ssize_t n = 1;

	if (fd < 0)
		return NULL;
	while (n > 0 && len < LOGINDEFS_MAX) {
		if (!buf || len + 1 >= cap) {
			cap = buf ? 2 * cap : cap;
			if (!(nbuf = realloc(buf, cap))) {
				*oom = true;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			len += (size_t)n;
	}
	close(fd);
	if (*oom || n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* One line, cut in place: 1 with *S when it names a setting. */
static int parse_line(char *line, struct setting *s)
{
	char *name = line, *value, *hash = strchr(line, '#');
	size_t len;

	if (hash)
		*hash = '\0';
	while (is_space(*name))
		name++;
	for (value = name; *value && !is_space(*value) && *value != '='; value++)
		;
	if (value == name)
		return 0;
	if (*value)
		*value++ = '\0';
	while (*value && (is_space(*value) || *value == '=' || *value == '"'))
		value++;
	/* The first character stays: it is none of those. */
	len = strlen(value);
	while (len > 1 && (is_space(value[len - 1]) || value[len - 1] == '"'))
		value[--len] = '\0';
	s->name = name;
	s->value = value;
	return 1;
}

static int add(const struct setting *s)
{
	if (defs.n == defs.cap) {
		size_t cap = defs.cap ? 2 * defs.cap : 64;
		struct setting *v = realloc(defs.v, cap * sizeof *v);

		if (!v)
			return -1;
		defs.v = v;
		defs.cap = cap;
	}
	defs.v[defs.n++] = *s;
	return 0;
}

static int load(void)
{
	static const char *const files[] = { LOGINDEFS_FILE, LOGINDEFS_SU_FILE };
	bool oom = false;

	if (defs.loaded)
		return 0;
	for (size_t i = 0; i < 2; i++) {
		char *p = defs.text[i] = read_text(files[i], &oom);

		while (p && *p) {
			char *nl = strchr(p, '\n');
			struct setting s;

			if (nl)
				*nl = '\0';
			if (parse_line(p, &s) && add(&s) < 0)
				oom = true;
			p = nl ? nl + 1 : p + strlen(p);
		}
	}
	if (oom) {
		errno = ENOMEM;
		return -1;
	}
	defs.loaded = true;
	return 0;
}

/* The value of NAME, the last line that sets it; NULL when none does. */
static const char *lookup(const char *name)
{
	for (size_t i = defs.n; i-- > 0;)
		if (same_name(defs.v[i].name, name))
			return defs.v[i].value;
	return NULL;
}

/* util-linux's logindefs_setenv("PATH", CONF, DFLT): the setting or
 * DFLT; "PATH=" (any text up to '=' after "PATH") and one '"' taken off
 * when something follows the '='; DFLT again if nothing is left.  NULL:
 * not set (for ENV_SUPATH, ENV_ROOTPATH is asked next). */
static const char *path_value(const char *conf, const char *dflt)
{
	const char *v = lookup(conf), *eq;

	if (!v)
		v = dflt;
	if (v && (eq = strchr(v, '=')) && !strncmp(v, "PATH", 4) && eq[1]) {
		v = eq + 1 + (eq[1] == '"');
		if (!*v)
			v = dflt;
	}
	return v;
}

char *logindefs_path(bool root, const char *default_path,
		     const char *default_root)
{
	const char *v;
	char *copy;

	if (load() < 0)
		return NULL;
	if (!root)
		v = path_value("ENV_PATH", default_path);
	else if (!(v = path_value("ENV_SUPATH", NULL)))
		v = path_value("ENV_ROOTPATH", default_root);
	if (!v)
		v = root ? default_root : default_path;
	if (!(copy = strdup(v)))
		errno = ENOMEM;
	return copy;
}

bool logindefs_always_set_path(void)
{
	const char *v;

	return load() == 0 && (v = lookup("ALWAYS_SET_PATH")) && same_name(v, "yes");
}

unsigned long logindefs_number(const char *name, unsigned long dflt)
{
	const char *v;
	char *end;
	unsigned long n;

	if (load() < 0 || !(v = lookup(name)) || *v < '0' || *v > '9')
		return dflt;
	errno = 0;
	n = strtoul(v, &end, 10);
	return errno || *end ? dflt : n;
}
