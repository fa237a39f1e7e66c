/* SPDX-License-Identifier: ISC */
/* passwd: a small reader for the colon files; no NSS, no caching. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* getline, strdup, strtok_r */
#endif
#include "passwd.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS_MAX 7

/* Called per well-formed line: 1 stops the scan (found), 0 goes on,
 * -1 stops with errno. */
typedef int (*line_fn)(char **field, void *ctx);

/* A strict decimal id field (0..4294967294); -1 if it is not one. */
static int field_id(const char *s, unsigned long *out)
{
	unsigned long long v = 0;

	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
		if (v > 4294967294ULL)
			return -1;
	}
	*out = (unsigned long)v;
	return 0;
}

/* Split LINE in place into exactly N fields; false if it has another count. */
static bool split_line(char *line, char **field, int n)
{
	int i = 0;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#' || line[0] == '+' || line[0] == '-' || line[0] == '\0')
		return false;   /* comments and NIS compat entries */
	field[i++] = line;
	for (char *p = line; *p; p++)
		if (*p == ':') {
			if (i == n)
				return false;
			*p = '\0';
			field[i++] = p + 1;
		}
	return i == n;
}

static int file_scan(const char *path, int nfields, line_fn fn, void *ctx)
{
	char *line = NULL, *field[FIELDS_MAX];
	size_t cap = 0;
	int rc = 0, err = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (rc == 0 && getline(&line, &cap, f) >= 0)
		if (split_line(line, field, nfields))
			rc = fn(field, ctx);
	err = rc < 0 ? errno : ferror(f) ? EIO : 0;
	free(line);
	fclose(f);
	if (err) {
		errno = err;
		return -1;
	}
	return rc;
}

struct pw_query {
	const char *name;       /* by name, or by uid when NULL */
	uid_t uid;
	struct pwent *pw;
};

static int pw_match(char **f, void *ctx)
{
	struct pw_query *q = ctx;
	unsigned long uid, gid;

	if (field_id(f[2], &uid) < 0 || field_id(f[3], &gid) < 0)
		return 0;
	if (q->name ? strcmp(f[0], q->name) != 0 : uid != q->uid)
		return 0;
	q->pw->uid = (uid_t)uid;
	q->pw->gid = (gid_t)gid;
	q->pw->name = strdup(f[0]);
	q->pw->dir = strdup(f[5]);
	q->pw->shell = strdup(f[6]);
	if (!q->pw->name || !q->pw->dir || !q->pw->shell) {
		pwent_free(q->pw);
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

static int pw_find(struct pw_query *q)
{
	int rc;

	memset(q->pw, 0, sizeof *q->pw);
	rc = file_scan(PASSWD_FILE, 7, pw_match, q);
	if (rc == 0)
		errno = ENOENT;
	return rc == 1 ? 0 : -1;
}

int passwd_by_name(const char *name, struct pwent *pw)
{
	struct pw_query q = { .name = name, .pw = pw };

	return pw_find(&q);
}

int passwd_by_uid(uid_t uid, struct pwent *pw)
{
	struct pw_query q = { .uid = uid, .pw = pw };

	return pw_find(&q);
}

void pwent_free(struct pwent *pw)
{
	free(pw->name);
	free(pw->dir);
	free(pw->shell);
	memset(pw, 0, sizeof *pw);
}

struct gr_query {
	const char *name;
	gid_t gid;
};

static int gr_match(char **f, void *ctx)
{
	struct gr_query *q = ctx;
	unsigned long gid;

	if (strcmp(f[0], q->name) != 0 || field_id(f[2], &gid) < 0)
		return 0;
	q->gid = (gid_t)gid;
	return 1;
}

int group_by_name(const char *name, gid_t *gid)
{
	struct gr_query q = { .name = name };
	int rc = file_scan(GROUP_FILE, 4, gr_match, &q);

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

static bool is_member(char *members, const char *user)
{
	char *save = NULL;

	for (char *m = strtok_r(members, ",", &save); m;
	     m = strtok_r(NULL, ",", &save))
		if (strcmp(m, user) == 0)
			return true;
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

static int gl_match(char **f, void *ctx)
{
	struct gl_query *q = ctx;
	unsigned long gid;

	if (field_id(f[2], &gid) < 0 || !is_member(f[3], q->user))
		return 0;
	return gl_add(q, (gid_t)gid);
}

static int gid_cmp(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

/* Sort and drop duplicates (the kernel keeps the list sorted anyway). */
static size_t gid_unique(gid_t *g, size_t n)
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

	if (gl_add(&q, primary) < 0 || file_scan(GROUP_FILE, 4, gl_match, &q) < 0) {
		free(q.g);
		return -1;
	}
	q.n = gid_unique(q.g, q.n);
	if (q.n > max) {
		free(q.g);
		errno = E2BIG;
		return -1;
	}
	*groups = q.g;
	*ngroups = q.n;
	return 0;
}
