/* SPDX-License-Identifier: ISC */
/* ident: who the command runs as.  Resolved in the parent from names,
 * numbers or Android ids; applied in the child (groups, gid, uid, then
 * read back), never in the threaded parent. */
#ifndef LEASH_IDENT_H
#define LEASH_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ident {
	/* Explicit flags, never zero-as-unset: uid 0 is a real choice. */
	bool have_uid, have_gid, have_groups;
	/* -g / -G given: the user's entry no longer decides these. */
	bool gid_explicit, groups_explicit;
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t *groups;
	/* For the environment: NULL when unknown. */
	char *user;   /* resolved name; for a bare number its Android name
		       * on Android, else the decimal uid */
	char *home;
	char *shell;
	/* How -u was resolved: "passwd", "number" (no entry) or "android";
	 * NULL without -u. */
	const char *source;
	/* Capabilities kept across the switch (libcap text), NULL for none. */
	const char *keep_caps;
	bool no_new_privs;
	/* --no-nss: a name the files lack is no one (else getent is asked). */
	bool no_nss;
	/* ident_changes_uid's answer, kept (0: not asked yet, 1: yes, -1:
	 * no): the parent asks before the fork, the child reads it. */
	signed char uid_change;
};

/* The kernel's NGROUPS_MAX (musl's <limits.h> says 32, glibc's 65536). */
#define IDENT_NGROUPS_MAX 65536

/* Resolve -u USER: a passwd name, a decimal number 0..4294967294, then
 * an Android name or else a name NSS knows, tried in that order; Android
 * names only on Android or with no /etc/passwd at all (ANDROID_ROOT set
 * and /system/build.prop present, or no password file), NSS (getent,
 * see nss.h) everywhere else unless no_nss.  Fills uid, user, home,
 * shell, and (unless -g/-G decided already) gid and groups: from passwd
 * and group (or NSS's initgroups) when there is an entry, else gid = uid
 * and groups = {gid}.  -1 with errno ENOENT (no such user), EINVAL
 * (malformed), ERANGE (out of range, also an entry saying 4294967295),
 * E2BIG (more groups than IDENT_NGROUPS_MAX), the error reading the
 * files (EMFILE ...), or NSS's (ETIMEDOUT ...: see nss_strerror). */
int ident_resolve_user(struct ident *id, const char *spec);
/* -g GROUP: the gid; the groups become {gid} unless -G gives them.
 * Names as for users: the group file, a number, Android's or NSS's. */
int ident_resolve_group(struct ident *id, const char *spec);
/* -G G1,G2,...: exactly these supplementary groups (the gid is not
 * added).  Empty items are EINVAL. */
int ident_resolve_groups(struct ident *id, const char *list);

/* One group: a group-file name, a number or (where Android names apply,
 * as for users) an Android group name, else a name NSS knows. */
int ident_lookup_group(const char *spec, gid_t *gid);

/* Is a name the files lack asked of NSS?  Not with no_nss, not where
 * Android names apply, not without getent. */
bool ident_uses_nss(const struct ident *id);
/* Exactly these groups (copied, sorted, duplicates dropped). */
int ident_set_groups(struct ident *id, const gid_t *groups, size_t n);

/* In the parent: is --keep-caps a valid list?  -1 with errno EINVAL and
 * *BAD at the bad item. */
int ident_check_caps(const struct ident *id, const char **bad);

/* In the parent: may the caller make this switch?  It may if it holds
 * CAP_SETUID/CAP_SETGID for the parts that change; a switch to what the
 * caller already is needs nothing.  -1 with errno EPERM otherwise. */
int ident_check_privilege(const struct ident *id);

/* Does applying ID change the caller's uid (real, effective or saved)?
 * Asked of the kernel once; the answer is kept in ID (cmd/ asks for the
 * session, the cgroup and the pty, ident_apply for the keyring). */
bool ident_changes_uid(struct ident *id);

/* Steps of ident_apply, for the child's error report. */
enum ident_step {
	IDENT_SETGROUPS = 1, IDENT_SETGID, IDENT_SETUID, IDENT_VERIFY,
	IDENT_CAPS, IDENT_NO_NEW_PRIVS, IDENT_KEYRING,
};

/* In the child: setgroups, setresgid, a fresh session keyring when the
 * uid changes (KEYCTL_JOIN_SESSION_KEYRING, still as the caller; ENOSYS
 * is no error), setresuid, verify (ids and groups
 * read back; for a non-root target, uid 0, gid 0 and new groups can no
 * longer be had), capabilities (non-root target: inheritable, permitted,
 * effective, ambient = exactly keep_caps, empty by default; see caps.h),
 * no_new_privs.  On failure returns -1 with errno and *step set. */
int ident_apply(const struct ident *id, enum ident_step *step);
const char *ident_step_name(enum ident_step step);

void ident_free(struct ident *id);

/* The area's other public headers: with this one, its face. */
#include "ident/env.h"
#include "ident/logindefs.h"
#include "ident/nss.h"
#include "ident/workdir.h"

#endif
