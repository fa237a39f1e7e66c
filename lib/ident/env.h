/* SPDX-License-Identifier: ISC */
/* env: the environment the command gets. */
#ifndef LEASH_ENV_H
#define LEASH_ENV_H

#include <stdbool.h>

#include "ident/ident.h"

enum env_mode {
	ENV_INHERIT,    /* untouched (no -u) */
	ENV_TARGET,     /* caller's, with HOME SHELL USER LOGNAME of the target
			 * (HOME=/ and the default shell when unknown) */
	ENV_LOGIN,      /* -l: only TERM + whitelist, then HOME SHELL USER LOGNAME,
			 * PATH (env_login_path) */
	ENV_PRESERVE,   /* -p: everything kept */
	ENV_ANDROID,    /* AOSP su: caller's, PATH reset, IFS unset */
};

/* Build a new NULL-terminated environment from ENVP, in one pass and one
 * table (ENVP's strings are shared, so ENVP must outlive it).  A name the
 * mode resets or removes goes wherever it occurs, duplicates too.
 * WHITELIST is a comma-separated list of names kept by ENV_LOGIN (may be
 * NULL; an item holding '=' names nothing).  NULL with errno on failure. */
char **env_build(char *const *envp, const struct ident *id,
		 enum env_mode mode, const char *whitelist);

/* The PATH leash gives the target: Android's directories first when
 * /system/bin/sh exists. ROOT selects the sbin-first variant. */
const char *env_default_path(bool root);

/* The PATH of a login (-l, su -): login.defs's (ENV_PATH, for ROOT
 * ENV_SUPATH or ENV_ROOTPATH; /etc/default/su wins), as util-linux su
 * reads it; where it sets none, util-linux's own default, or on Android
 * env_default_path's.  Malloc'd, or NULL with errno. */
char *env_login_path(bool root);

/* The shell for a user without one: the first of /system/bin/sh,
 * /sbin/sh (recovery images) and /bin/sh that can be run. */
const char *env_default_shell(void);

/* Set (VALUE not NULL) or remove NAME in *ENVP, an array env_build made:
 * the first entry of NAME takes VALUE in its place, any other entry of
 * NAME goes.  *ENVP may move.  -1 with errno on allocation failure. */
int env_set(char ***envp, const char *name, const char *value);

/* Free an array env_build made. */
void env_free(char **envp);

#endif
