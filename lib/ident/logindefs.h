/* SPDX-License-Identifier: ISC */
/* logindefs: the login PATH of login.defs(5), read as util-linux su
 * reads it. */
#ifndef LEASH_LOGINDEFS_H
#define LEASH_LOGINDEFS_H

#include <stdbool.h>

/* Read in this order; of the lines naming one setting, the last of the
 * last file wins, as util-linux su takes them. */
#define LOGINDEFS_FILE "/etc/login.defs"
#define LOGINDEFS_SU_FILE "/etc/default/su"

/* The PATH a login gets: ENV_PATH, or for ROOT ENV_SUPATH, else
 * ENV_ROOTPATH; a value written "PATH=..." (shadow's form) loses its
 * "PATH=" and one '"'.  A setting that is absent takes DEFAULT_PATH
 * (DEFAULT_ROOT for ENV_ROOTPATH).  Malloc'd, or NULL with errno
 * (ENOMEM; an unreadable file counts as absent). */
char *logindefs_path(bool root, const char *default_path,
		     const char *default_root);

/* The number NAME is set to (UID_MIN, say), decimal; DFLT when no line
 * sets it to one. */
unsigned long logindefs_number(const char *name, unsigned long dflt);

/* ALWAYS_SET_PATH is "yes" (any case): su without -l sets PATH too. */
bool logindefs_always_set_path(void);

#endif
