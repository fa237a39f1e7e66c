/* SPDX-License-Identifier: ISC */
/* aid: Android's user and group names, without bionic.  A static leash
 * on a recovery image has no /etc/passwd; these are the names Android's
 * libc would answer from its built-in table and name patterns. */
#ifndef LEASH_AID_H
#define LEASH_AID_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A user name: a fixed AID name (shell, system ...), uU_NAME, uU_aN,
 * uU_iN, or the old app_N.  0 and *ID set, or -1 with errno ENOENT. */
int aid_user_by_name(const char *name, uid_t *id);

/* A group name: everything aid_user_by_name takes, plus all_aN and
 * uU_aN_cache.  0 and *ID set, or -1 with errno ENOENT. */
int aid_group_by_name(const char *name, gid_t *id);

/* The name bionic prints for ID (u0_a35, u10_system, shell ...) into BUF.
 * -1 with errno ENOENT when ID has none, ERANGE when BUF is too small. */
int aid_name(unsigned long id, char *buf, size_t size);

#endif
