/* SPDX-License-Identifier: ISC */
/* env: the command's environment, built as a fresh array (never by
 * setenv on our own environ, which the waiter thread may read). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* strdup */
#endif
#include "env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ANDROID_PATH "/product/bin:/apex/com.android.runtime/bin:" \
	"/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:" \
	"/odm/bin:/vendor/bin:/vendor/xbin"
#define ROOT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define USER_PATH "/usr/local/bin:/usr/bin:/bin"

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

const char *env_default_shell(void)
{
	static const char *const shells[] = { "/system/bin/sh", "/sbin/sh" };

	for (size_t i = 0; i < sizeof shells / sizeof *shells; i++)
		if (access(shells[i], X_OK) == 0)
			return shells[i];
	return "/bin/sh";
}

static size_t env_len(char *const *envp)
{
	size_t n = 0;

	while (envp && envp[n])
		n++;
	return n;
}

/* Index of NAME in ENVP, or -1. */
static long env_find(char *const *envp, const char *name, size_t len)
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, len) && envp[i][len] == '=')
			return (long)i;
	return -1;
}

/* Append a copy of ENTRY ("NAME=VALUE"). */
static int env_push(char ***envp, const char *entry)
{
	size_t n = env_len(*envp);
	char *copy = strdup(entry);
	char **v = copy ? realloc(*envp, (n + 2) * sizeof *v) : NULL;

	if (!v) {
		free(copy);
		return -1;
	}
	v[n] = copy;
	v[n + 1] = NULL;
	*envp = v;
	return 0;
}

int env_set(char ***envp, const char *name, const char *value)
{
	size_t len = strlen(name);
	long i = env_find(*envp, name, len);
	char *entry;

	if (!value) {
		if (i >= 0) {
			free((*envp)[i]);
			memmove(*envp + i, *envp + i + 1,
				(env_len(*envp) - (size_t)i) * sizeof **envp);
		}
		return 0;
	}
	if (!(entry = malloc(len + strlen(value) + 2)))
		return -1;
	strcpy(entry, name);
	entry[len] = '=';
	strcpy(entry + len + 1, value);
	if (i >= 0) {
		free((*envp)[i]);
		(*envp)[i] = entry;
		return 0;
	}
	i = env_push(envp, entry);
	free(entry);
	return (int)i;
}

void env_free(char **envp)
{
	for (size_t i = 0; envp && envp[i]; i++)
		free(envp[i]);
	free(envp);
}

/* -l: keep NAME from the caller's ENVP, unless already set (the
 * target's HOME, SHELL ... win over a whitelisted one, as in su). */
static int env_keep(char ***out, char *const *envp, const char *name, size_t len)
{
	long i = env_find(envp, name, len);

	if (len == 0 || i < 0 || env_find(*out, name, len) >= 0)
		return 0;
	return env_push(out, envp[i]);
}

static int env_keep_list(char ***out, char *const *envp, const char *list)
{
	if (env_keep(out, envp, "TERM", 4) < 0)
		return -1;
	while (list && *list) {
		size_t len = strcspn(list, ",");

		if (env_keep(out, envp, list, len) < 0)
			return -1;
		list += len + (list[len] == ',');
	}
	return 0;
}

/* HOME SHELL USER LOGNAME of the target. */
static int env_target(char ***out, const struct ident *id)
{
	if (env_set(out, "HOME", id->home ? id->home : "/") < 0 ||
	    env_set(out, "SHELL", id->shell ? id->shell : env_default_shell()) < 0)
		return -1;
	if (!id->user)
		return 0;
	return env_set(out, "USER", id->user) | env_set(out, "LOGNAME", id->user);
}

static int env_fill(char ***out, char *const *envp, const struct ident *id,
		    enum env_mode mode, const char *whitelist)
{
	bool root = id->have_uid ? id->uid == 0 : getuid() == 0;

	if (mode != ENV_LOGIN)
		for (size_t i = 0; envp && envp[i]; i++)
			if (env_push(out, envp[i]) < 0)
				return -1;
	switch (mode) {
	case ENV_TARGET:
		return env_target(out, id);
	case ENV_LOGIN:
		if (env_target(out, id) < 0 ||
		    env_set(out, "PATH", env_default_path(root)) < 0)
			return -1;
		return env_keep_list(out, envp, whitelist);
	case ENV_ANDROID:
		/* AOSP su: PATH reset, IFS unset, USER/LOGNAME of the uid. */
		return env_set(out, "PATH", env_default_path(root)) |
		       env_set(out, "IFS", NULL) |
		       env_set(out, "USER", id->user) |
		       env_set(out, "LOGNAME", id->user);
	default:
		return 0;
	}
}

char **env_build(char *const *envp, const struct ident *id,
		 enum env_mode mode, const char *whitelist)
{
	char **out = calloc(1, sizeof *out);

	if (out && env_fill(&out, envp, id, mode, whitelist) < 0) {
		env_free(out);
		errno = ENOMEM;
		return NULL;
	}
	return out;
}
