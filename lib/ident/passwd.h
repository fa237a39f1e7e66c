/* SPDX-License-Identifier: ISC */
/* passwd: /etc/passwd and /etc/group read directly, so the static musl
 * build and the glibc build answer alike and no NSS module is loaded
 * (nss.c asks getent for what the files lack, parsed here too). */
#ifndef LEASH_PASSWD_H
#define LEASH_PASSWD_H

#include <stddef.h>
#include <sys/types.h>

#define PASSWD_FILE "/etc/passwd"
#define GROUP_FILE "/etc/group"

struct pwent {
	char *name;
	uid_t uid;
	gid_t gid;
	char *dir;
	char *shell;
};

/* Lines are taken as glibc's files backend takes them: leading white
 * space, blank lines and '#' comments skipped; missing trailing fields
 * empty; ids in strtoul's syntax up to 4294967295 (which the caller must
 * refuse: it is (uid_t)-1); NIS compat lines (+name, -name) never match;
 * the first matching line wins.  Lines of any length; a CR before the
 * newline belongs to the last field, as it does for glibc. */

/* 0 with *PW filled (free with pwent_free), or -1 with errno: ENOENT
 * when no entry matches (also when the file is missing), else the I/O or
 * allocation error. */
int passwd_by_name(const char *name, struct pwent *pw);
int passwd_by_uid(uid_t uid, struct pwent *pw);
void pwent_free(struct pwent *pw);

/* Group NAME's gid: 0, or -1 with errno ENOENT / an I/O error. */
int group_by_name(const char *name, gid_t *gid);

/* USER's groups as initgroups(3) would set them: PRIMARY and every
 * group listing USER as a member, sorted, without duplicates (unlike
 * glibc, a commented-out or compat line is no membership).  *GROUPS
 * is malloc'd.  -1 with errno E2BIG beyond MAX groups, or an I/O error. */
int group_list(const char *user, gid_t primary, size_t max,
	       gid_t **groups, size_t *ngroups);

/* Sort G and drop duplicates (the kernel keeps the list sorted anyway);
 * the new count. */
size_t group_sort_unique(gid_t *g, size_t n);

/* The first entry among the lines of TEXT (an answer of getent, cut up
 * in place), each line taken as a line of the file; other lines are
 * skipped as in the file.  -1 with errno ENOENT when no line is one,
 * else as passwd_by_name and group_by_name. */
int passwd_from_text(char *text, struct pwent *pw);
int group_from_text(char *text, gid_t *gid);

#endif
