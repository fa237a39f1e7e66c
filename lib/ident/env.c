/* SPDX-License-Identifier: ISC */
/* env: the command's environment, built as a fresh array (never by
 * setenv on our own environ, which the waiter thread may read). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* strdup */
#endif
#include "ident/env.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ident/logindefs.h"

#define ANDROID_PATH "/product/bin:/apex/com.android.runtime/bin:" \
	"/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:" \
	"/odm/bin:/vendor/bin:/vendor/xbin"
#define ROOT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define USER_PATH "/usr/local/bin:/usr/bin:/bin"
/* util-linux su's own, where login.defs sets none (its pathnames.h). */
#define UL_ROOT_PATH "/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin"
#define UL_USER_PATH "/usr/local/bin:/bin:/usr/bin"

static bool on_android(void)
{
	return access("/system/bin/sh", F_OK) == 0;
}

const char *env_default_path(bool root)
{
	if (on_android())
		return root ? ANDROID_PATH ":/sbin:" ROOT_PATH : ANDROID_PATH ":" USER_PATH;
	return root ? ROOT_PATH : USER_PATH;
}

char *env_login_path(bool root)
{
	if (on_android())
		return logindefs_path(root, env_default_path(false),
				      env_default_path(true));
	return logindefs_path(root, UL_USER_PATH, UL_ROOT_PATH);
}

const char *env_default_shell(void)
{
	static const char *const shells[] = { "/system/bin/sh", "/sbin/sh" };

	for (size_t i = 0; i < sizeof shells / sizeof *shells; i++)
		if (access(shells[i], X_OK) == 0)
			return shells[i];
	return "/bin/sh";
}

/* The array env_build returns is the V of one allocation: the caller's
 * entries are shared (environ lives until exec), only what leash sets is
 * made, on a list freed with the table.  Built in one pass: linear in
 * the number of variables, with no growth while the caller's are copied. */
struct env_made {
	struct env_made *next;
	char entry[];           /* "NAME=VALUE" */
};

struct env_table {
	size_t len, cap;        /* entries in v; slots in v, the NULL aside */
	struct env_made *made;
	char *v[];
};

/* Slots beyond the caller's for the names leash sets (HOME SHELL USER
 * LOGNAME PATH TERM) and a few env_set calls after env_build. */
#define ENV_SPARE 8

static struct env_table *env_table_of(char **v)
{
	return (struct env_table *)((char *)v - offsetof(struct env_table, v));
}

static struct env_table *env_table_new(size_t cap)
{
	struct env_table *t;

	if (cap > (SIZE_MAX - sizeof *t) / sizeof(char *) - 1)
		return errno = ENOMEM, NULL;
	if (!(t = malloc(sizeof *t + (cap + 1) * sizeof(char *))))
		return NULL;
	t->len = 0;
	t->cap = cap;
	t->made = NULL;
	t->v[0] = NULL;
	return t;
}

/* Does ENTRY ("NAME=VALUE") have the name NAME of LEN bytes? */
static bool env_is(const char *entry, const char *name, size_t len)
{
	return !strncmp(entry, name, len) && entry[len] == '=';
}

/* First entry of ENVP named NAME, or NULL. */
static const char *env_find(char *const *envp, const char *name, size_t len)
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (env_is(envp[i], name, len))
			return envp[i];
	return NULL;
}

/* Append ENTRY, which the caller or the table's list keeps alive; the
 * table grows (and moves) only for env_set past its spare slots. */
static int env_append(struct env_table **tp, char *entry)
{
	struct env_table *t = *tp;

	if (t->len == t->cap) {
		size_t cap = t->cap * 2 + ENV_SPARE;
		struct env_table *n = env_table_new(cap);
		if (!n)
			return -1;
		memcpy(n->v, t->v, t->len * sizeof *t->v);
		n->len = t->len;
		n->made = t->made;
		free(t);
		*tp = t = n;
	}
	t->v[t->len++] = entry;
	t->v[t->len] = NULL;
	return 0;
}

/* A new "NAME=VALUE" on the table's list. */
static char *env_make(struct env_table *t, const char *name, const char *value)
{
	size_t len = strlen(name), vlen = strlen(value);
	struct env_made *m = malloc(sizeof *m + len + vlen + 2);

	if (!m)
		return NULL;
	memcpy(m->entry, name, len);
	m->entry[len] = '=';
	memcpy(m->entry + len + 1, value, vlen + 1);
	m->next = t->made;
	t->made = m;
	return m->entry;
}

/* Keep the first entry named NAME and drop the others (a second PATH=
 * must not survive a reset); the slot of the first, or -1. */
static long env_dedup(struct env_table *t, const char *name, size_t len)
{
	long first = -1;
	size_t out = 0;

	for (size_t i = 0; i < t->len; i++) {
		if (env_is(t->v[i], name, len)) {
			if (first >= 0)
				continue;
			first = (long)out;
		}
		t->v[out++] = t->v[i];
	}
	t->len = out;
	t->v[out] = NULL;
	return first;
}

int env_set(char ***envp, const char *name, const char *value)
{
	struct env_table *t = env_table_of(*envp);
	long at = env_dedup(t, name, strlen(name));
	char *entry = NULL;
	int r = 0;

	if (value && !(entry = env_make(t, name, value)))
		return -1;
	if (at >= 0 && entry) {
		t->v[at] = entry;               /* the first keeps its place */
	} else if (at >= 0) {
		memmove(t->v + at, t->v + at + 1,
			(t->len - (size_t)at) * sizeof *t->v);
		t->len--;
	} else if (entry) {
		r = env_append(&t, entry);
		*envp = t->v;
	}
	return r;
}

void env_free(char **envp)
{
	if (!envp)
		return;
	struct env_table *t = env_table_of(envp);
	for (struct env_made *m = t->made, *next; m; m = next) {
		next = m->next;
		free(m);
	}
	free(t);
}

/* Is ENTRY named one of NAMES (a NULL-terminated list)? */
static bool env_named(const char *entry, const char *const *names)
{
	/* The first byte first: most entries are named none of them. */
	for (; *names; names++)
		if (entry[0] == **names && env_is(entry, *names, strlen(*names)))
			return true;
	return false;
}

/* Copy the caller's entries, every one named in DROP left out. */
static void env_copy(struct env_table *t, char *const *envp,
		     const char *const *drop)
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (!env_named(envp[i], drop))
			t->v[t->len++] = envp[i];
	t->v[t->len] = NULL;
}

/* -l: keep NAME from the caller's ENVP (its first entry, as getenv),
 * unless already set: the target's HOME, SHELL ... win over a
 * whitelisted one, as in su.  A name holding '=' is no name. */
static int env_keep(struct env_table **t, char *const *envp, const char *name,
		    size_t len)
{
	const char *e;

	if (!len || memchr(name, '=', len) || !(e = env_find(envp, name, len)) ||
	    env_find((*t)->v, name, len))
		return 0;
	return env_append(t, (char *)e);
}

static int env_keep_list(struct env_table **t, char *const *envp,
			 const char *list)
{
	if (env_keep(t, envp, "TERM", 4) < 0)
		return -1;
	while (list && *list) {
		size_t len = strcspn(list, ",");

		if (env_keep(t, envp, list, len) < 0)
			return -1;
		list += len + (list[len] == ',');
	}
	return 0;
}

/* Append NAME=VALUE (a name env_copy left out, or a fresh table). */
static int env_add(struct env_table **t, const char *name, const char *value)
{
	char *e = env_make(*t, name, value);

	return e ? env_append(t, e) : -1;
}

static int env_add_login_path(struct env_table **t, bool root)
{
	char *path = env_login_path(root);
	int rc = path ? env_add(t, "PATH", path) : -1;

	free(path);
	return rc;
}

/* HOME SHELL USER LOGNAME of the target. */
static int env_target(struct env_table **t, const struct ident *id)
{
	if (env_add(t, "HOME", id->home ? id->home : "/") < 0 ||
	    env_add(t, "SHELL", id->shell ? id->shell : env_default_shell()) < 0)
		return -1;
	if (!id->user)
		return 0;
	return env_add(t, "USER", id->user) | env_add(t, "LOGNAME", id->user);
}

static int env_fill(struct env_table **t, char *const *envp,
		    const struct ident *id, enum env_mode mode,
		    const char *whitelist)
{
	static const char *const none[] = { NULL };
	static const char *const target[] = { "HOME", "SHELL", "USER", "LOGNAME", NULL };
	static const char *const unnamed[] = { "HOME", "SHELL", NULL };
	static const char *const android[] = { "PATH", "IFS", "USER", "LOGNAME", NULL };
	bool root = id->have_uid ? id->uid == 0 : getuid() == 0;

	switch (mode) {
	case ENV_TARGET:
		/* Without a user name USER and LOGNAME stay the caller's. */
		env_copy(*t, envp, id->user ? target : unnamed);
		return env_target(t, id);
	case ENV_LOGIN:
		if (env_target(t, id) < 0 || env_add_login_path(t, root) < 0)
			return -1;
		return env_keep_list(t, envp, whitelist);
	case ENV_ANDROID:
		/* AOSP su: PATH reset, IFS unset, USER/LOGNAME of the uid. */
		env_copy(*t, envp, android);
		if (env_add(t, "PATH", env_default_path(root)) < 0)
			return -1;
		if (!id->user)
			return 0;
		return env_add(t, "USER", id->user) | env_add(t, "LOGNAME", id->user);
	default:
		env_copy(*t, envp, none);
		return 0;
	}
}

/* Slots the mode needs: the caller's entries, or -l's whitelist. */
static size_t env_slots(char *const *envp, enum env_mode mode,
			const char *whitelist)
{
	size_t n = 0;

	if (mode == ENV_LOGIN) {
		for (; whitelist && *whitelist; whitelist++)
			n += *whitelist == ',';
		return n + 1 + ENV_SPARE;
	}
	while (envp && envp[n])
		n++;
	return n + ENV_SPARE;
}

char **env_build(char *const *envp, const struct ident *id,
		 enum env_mode mode, const char *whitelist)
{
	struct env_table *t = env_table_new(env_slots(envp, mode, whitelist));

	if (!t)
		return NULL;
	if (env_fill(&t, envp, id, mode, whitelist) < 0) {
		env_free(t->v);
		errno = ENOMEM;
		return NULL;
	}
	return t->v;
}
