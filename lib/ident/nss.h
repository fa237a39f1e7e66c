/* SPDX-License-Identifier: ISC */
/* nss: names only NSS knows (LDAP, sssd, systemd userdb), asked of
 * glibc's getent(1) in a child process, since a static leash has no NSS
 * of its own.  Asked only after a miss in /etc/passwd or /etc/group. */
#ifndef LEASH_NSS_H
#define LEASH_NSS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ident/passwd.h"

#ifndef NSS_GETENT
#define NSS_GETENT "/usr/bin/getent"
#endif
/* A hung sssd or LDAP server must not hang leash. */
#ifndef NSS_TIMEOUT_MS
#define NSS_TIMEOUT_MS 5000
#endif
/* getent initgroups of a user in 65536 groups prints about 720 KB. */
#define NSS_ANSWER_MAX (1024 * 1024)

/* Is there a getent to ask? */
bool nss_available(void);

/* Run `getent DB -- KEY` with a clean environment (PATH only), stdin
 * /dev/null, stderr discarded, no other descriptor, default signals, in
 * / and a process group of its own, for at most NSS_TIMEOUT_MS; *OUT is
 * what it wrote by its exit (something it started may hold the pipe
 * open: what is left in its group is killed then), NUL-terminated and
 * malloc'd.  -1 with errno: ENOENT (no getent, or it
 * knows no such key: exit 2), ETIMEDOUT (killed at the deadline),
 * EBADMSG (more than NSS_ANSWER_MAX bytes), EPROTO (getent failed
 * otherwise), or the error of pipe, fork ... */
int nss_query(const char *db, const char *key, char **out);

/* A user, a group, a user's groups, as getpwnam, getgrnam and
 * initgroups(3) would find them through NSS.  The entries are parsed
 * as passwd.c parses the files (the first line that is an entry; none
 * is ENOENT); a key getent would take for a number is ENOENT (numbers
 * are never asked).  nss_initgroups gives PRIMARY and USER's groups,
 * sorted, without duplicates; EBADMSG for an answer that is not
 * USER's list, E2BIG beyond MAX groups.  Errors as nss_query's. */
int nss_passwd(const char *name, struct pwent *pw);
int nss_group(const char *name, gid_t *gid);
int nss_initgroups(const char *user, gid_t primary, size_t max,
		   gid_t **groups, size_t *ngroups);

/* strerror(ERR), but in words for the errors a lookup through getent
 * adds: "NSS lookup timed out" ... */
const char *nss_strerror(int err);

#endif
