/* SPDX-License-Identifier: ISC */
/* passwd: a small reader for the colon files (and getent's answers in
 * their format), taking every line exactly as glibc's files backend
 * (nss_files) takes it; no NSS module, no caching. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* strdup */
#endif
#include "ident/passwd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Called per line read: 1 stops the scan (found), 0 goes on, -1 stops
 * with errno. */
typedef int (*line_fn)(char *line, void *ctx);

/* isspace() in the C locale, whatever locale the caller set. */
static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The text glibc parses: up to the newline (or a NUL), leading white
 * space dropped.  NULL for blank lines and comments. */
static char *line_text(char *line)
{
	line[strcspn(line, "\n")] = '\0';
	while (is_space(*line))
		line++;
	return *line && *line != '#' ? line : NULL;
}

/* A text field: up to the next ':', which is cut; a missing field is
 * empty, as glibc's STRING_FIELD makes it. */
static char *field_text(char **p)
{
	char *s = *p, *colon = strchr(s, ':');

	if (colon) {
		*colon = '\0';
		*p = colon + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

/* A number field as glibc's INT_FIELD reads it: strtoul's syntax with a
 * 64-bit unsigned long on every platform (leading white space, a sign,
 * decimal digits; "-N" wraps modulo 2^64), a value up to 4294967295,
 * then ':' or the end of the line.  An empty field is refused. */
static int field_num(char **p, uint32_t *out)
{
	const char *s = *p, *digits;
	uint64_t v = 0;
	bool neg = false;

	while (is_space(*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (digits = s; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;      /* strtoul: ULONG_MAX, over the limit */
		v = v * 10 + d;
	}
	if (s == digits)
		return -1;
	if (neg)
		v = -v;
	if (v > UINT32_MAX || (*s != ':' && *s != '\0'))
		return -1;
	*p = (char *)(*s == ':' ? s + 1 : s);
	*out = (uint32_t)v;
	return 0;
}

/* NIS compat entries (+name, -name) mean something to nss_compat only:
 * glibc's files backend never returns them for a query. */
static bool is_compat(const char *name)
{
	return name[0] == '+' || name[0] == '-';
}

struct pwline {
	char *name, *dir, *shell;
	uint32_t uid, gid;
};

/* name:passwd:uid:gid:gecos:dir:shell.  Only name, uid and gid must be
 * there; the shell is the rest of the line, colons and a CR included. */
static bool pw_parse(char *line, struct pwline *e)
{
	char *p = line_text(line);

	if (!p)
		return false;
	e->name = field_text(&p);
	if (is_compat(e->name))
		return false;
	field_text(&p);
	if (field_num(&p, &e->uid) < 0 || field_num(&p, &e->gid) < 0)
		return false;
	field_text(&p);
	e->dir = field_text(&p);
	e->shell = p;
	return true;
}

/* name:passwd:gid:members.  *MEMBERS is the rest of the line. */
static bool gr_parse(char *line, char **name, uint32_t *gid, char **members)
{
	char *p = line_text(line);

	if (!p)
		return false;
	*name = field_text(&p);
	if (is_compat(*name))
		return false;
	field_text(&p);
	if (field_num(&p, gid) < 0)
		return false;
	*members = p;
	return true;
}

/* FN on each complete line of BUF[0..*LEN) (the newline cut), and with
 * EOF on what is left; the unfinished rest moves to the front. */
static int scan_lines(char *buf, size_t *len, bool eof, line_fn fn, void *ctx)
{
	char *p = buf, *end = buf + *len, *nl;
	int rc = 0;

	while (rc == 0 && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		*nl = '\0';
		rc = fn(p, ctx);
		p = nl + 1;
	}
	if (rc == 0 && eof && p < end) {
		*end = '\0';
		rc = fn(p, ctx);
		p = end;
	}
	*len = (size_t)(end - p);
	memmove(buf, p, *len);
	return rc;
}

/* A file's lines, read in large pieces with read(2): no stdio (fopen's
 * fcntl calls, a 1 KiB buffer and getline's copy of every line, fclose's
 * lseek back).  The buffer is kept for the next scan (passwd, then
 * group) and grows only for a line longer than it. */
static int file_scan(const char *path, line_fn fn, void *ctx)
{
	static char *buf;
	static size_t cap;
	size_t len = 0;
	int rc = 0, err = 0;
	bool eof = false;
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (rc == 0 && !eof) {
		if (len + 1 >= cap) {
			size_t ncap = cap ? 2 * cap : 4096;
			char *nbuf = realloc(buf, ncap);
			if (!nbuf) {
				err = ENOMEM;
				break;
			}
			buf = nbuf;
			cap = ncap;
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		eof = n == 0;
		len += (size_t)n;
		rc = scan_lines(buf, &len, eof, fn, ctx);
		if (rc < 0)
			err = errno;
	}
	close(fd);
	if (err) {
		errno = err;
		return -1;
	}
	return rc;
}

/* Each line of TEXT (getent's answer, modified in place) as file_scan
 * gives a file's; a NUL ends the text. */
static int text_scan(char *text, line_fn fn, void *ctx)
{
	int rc = 0;

	while (rc == 0 && *text) {
		char *nl = strchr(text, '\n');
		char *next = nl ? nl + 1 : text + strlen(text);

		if (nl)
			*nl = '\0';
		rc = fn(text, ctx);
		text = next;
	}
	return rc;
}

struct pw_query {
	const char *name;       /* by name, or by uid when NULL */
	uid_t uid;
	bool any;               /* the first entry, whatever it is */
	struct pwent *pw;
};

static int pw_match(char *line, void *ctx)
{
	struct pw_query *q = ctx;
	struct pwline e;

	if (!pw_parse(line, &e))
		return 0;
	/* getent's answer: any entry with a name; a file: the one asked. */
	if (q->any ? !*e.name : q->name ? strcmp(e.name, q->name) != 0
				       : e.uid != q->uid)
		return 0;
	q->pw->uid = (uid_t)e.uid;
	q->pw->gid = (gid_t)e.gid;
	q->pw->name = strdup(e.name);
	q->pw->dir = strdup(e.dir);
	q->pw->shell = strdup(e.shell);
	if (!q->pw->name || !q->pw->dir || !q->pw->shell) {
		pwent_free(q->pw);
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

static int pw_find(struct pw_query *q, char *text)
{
	int rc;

	memset(q->pw, 0, sizeof *q->pw);
	rc = text ? text_scan(text, pw_match, q) : file_scan(PASSWD_FILE, pw_match, q);
	if (rc == 0)
		errno = ENOENT;
	return rc == 1 ? 0 : -1;
}

int passwd_by_name(const char *name, struct pwent *pw)
{
	struct pw_query q = { .name = name, .pw = pw };

	if (is_compat(name)) {
		memset(pw, 0, sizeof *pw);
		errno = ENOENT;
		return -1;
	}
	return pw_find(&q, NULL);
}

int passwd_by_uid(uid_t uid, struct pwent *pw)
{
	struct pw_query q = { .uid = uid, .pw = pw };

	return pw_find(&q, NULL);
}

int passwd_from_text(char *text, struct pwent *pw)
{
	struct pw_query q = { .any = true, .pw = pw };

	return pw_find(&q, text);
}

void pwent_free(struct pwent *pw)
{
	free(pw->name);
	free(pw->dir);
	free(pw->shell);
	memset(pw, 0, sizeof *pw);
}

struct gr_query {
	const char *name;       /* NULL: the first entry */
	gid_t gid;
};

static int gr_match(char *line, void *ctx)
{
	struct gr_query *q = ctx;
	char *name, *members;
	uint32_t gid;

	if (!gr_parse(line, &name, &gid, &members) ||
	    (q->name ? strcmp(name, q->name) != 0 : !*name))
		return 0;
	q->gid = (gid_t)gid;
	return 1;
}

int group_by_name(const char *name, gid_t *gid)
{
	struct gr_query q = { .name = name };
	int rc = is_compat(name) ? 0 : file_scan(GROUP_FILE, gr_match, &q);

	if (rc == 1)
		*gid = q.gid;
	else if (rc == 0)
		errno = ENOENT;
	return rc == 1 ? 0 : -1;
}

int group_from_text(char *text, gid_t *gid)
{
	struct gr_query q = { .name = NULL };
	int rc = text_scan(text, gr_match, &q);

	if (rc == 1)
		*gid = q.gid;
	else if (rc == 0)
		errno = ENOENT;
	return rc == 1 ? 0 : -1;
}

struct gl_query {
	const char *user;
	size_t n, cap;
	gid_t *g;
};

/* Is USER in the comma list?  glibc drops white space before a member
 * (not after it) and empty members. */
static bool is_member(const char *list, const char *user)
{
	size_t len = strlen(user);

	while (*list) {
		while (is_space(*list))
			list++;
		size_t n = strcspn(list, ",");
		if (n == len && n && memcmp(list, user, n) == 0)
			return true;
		list += n;
		if (*list == ',')
			list++;
	}
	return false;
}

static int gl_add(struct gl_query *q, gid_t gid)
{
	gid_t *g;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		g = realloc(q->g, q->cap * sizeof *g);
		if (!g)
			return -1;
		q->g = g;
	}
	q->g[q->n++] = gid;
	return 0;
}

/* Unlike glibc's files initgroups, which parses every line as a group,
 * comments and compat lines grant nothing here (see gr_parse). */
static int gl_match(char *line, void *ctx)
{
	struct gl_query *q = ctx;
	char *name, *members;
	uint32_t gid;

	if (!gr_parse(line, &name, &gid, &members) || !is_member(members, q->user))
		return 0;
	return gl_add(q, (gid_t)gid);
}

static int gid_cmp(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

size_t group_sort_unique(gid_t *g, size_t n)
{
	size_t k = 0;

	qsort(g, n, sizeof *g, gid_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || g[k - 1] != g[i])
			g[k++] = g[i];
	return k;
}

int group_list(const char *user, gid_t primary, size_t max,
	       gid_t **groups, size_t *ngroups)
{
	struct gl_query q = { .user = user };

	if (gl_add(&q, primary) < 0 || file_scan(GROUP_FILE, gl_match, &q) < 0) {
		free(q.g);
		return -1;
	}
	q.n = group_sort_unique(q.g, q.n);
	if (q.n > max) {
		free(q.g);
		errno = E2BIG;
		return -1;
	}
	*groups = q.g;
	*ngroups = q.n;
	return 0;
}
