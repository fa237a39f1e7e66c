/* SPDX-License-Identifier: ISC */
/* fuzz passwd: /etc/passwd and /etc/group as the input says (bound over
 * the real files in a private mount namespace), looked up by name, by
 * uid and for the group list, each against glibc's own reading of the
 * same file (fgetpwent, fgetgrent: the parser of its files backend),
 * the lookup as nss_files makes it (the first entry, never a +/- compat
 * one).  passwd.c has no fast path left (issue 22: the ones that passed
 * lines over unparsed saved nothing measurable).  Input: one length byte
 * and the name asked for, two length bytes (big-endian) and the passwd
 * file, the rest is the group file. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ident/passwd.h"

static int fd[2];

/* glibc is the reference only for files without a NUL byte: given a
 * line with one after leading white space, fgetpwent and getpwnam alike
 * return bytes from past the NUL ("   root:x:5:7:\0" came back with the
 * home "7").  leash ends the line at the NUL; its own checks still run. */
static int comparable;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const files[] = { PASSWD_FILE, GROUP_FILE, NULL };

	(void)argc, (void)argv;
	fuzz_setup(files, fd);
	if (fd[0] < 0 || fd[1] < 0)
		fuzz_fail(__FILE__, __LINE__, "cannot overlay the passwd files");
	return 0;
}

/* A decimal query is a uid too; anything else a hash of it. */
static uid_t uid_of(const char *q)
{
	char *end;
	unsigned long v = strtoul(q, &end, 10);
	uid_t h = 0;

	if (*q && !*end)
		return (uid_t)v;
	for (; *q; q++)
		h = h * 31 + (unsigned char)*q;
	return h % 70000;
}

static int is_compat(const char *name)
{
	return name[0] == '+' || name[0] == '-';
}

/* glibc's answer for NAME (or UID when NAME is NULL), as nss_files
 * gives it: NULL when none. */
static struct passwd *glibc_pw(const char *name, uid_t uid)
{
	FILE *f = fopen(PASSWD_FILE, "re");
	struct passwd *p = NULL;

	if (!f)
		return NULL;
	while ((p = fgetpwent(f)) &&
	       (is_compat(p->pw_name) ||
		(name ? strcmp(p->pw_name, name) : p->pw_uid != uid)))
		;
	fclose(f);
	return p;
}

/* passwd.c's answer RC/PW against glibc's (skip: glibc-passwd). */
static void same_pw(int rc, const struct pwent *pw, const struct passwd *g)
{
	if (!comparable || fuzz_skip("glibc-passwd"))
		return;
	FUZZ_ASSERT((rc == 0) == (g != NULL));
	if (rc < 0)
		return;
	FUZZ_ASSERT(!strcmp(pw->name, g->pw_name));
	FUZZ_ASSERT(pw->uid == g->pw_uid && pw->gid == g->pw_gid);
	FUZZ_ASSERT(!strcmp(pw->dir, g->pw_dir) && !strcmp(pw->shell, g->pw_shell));
}

/* glibc's gid of group NAME, and the groups listing USER (each once,
 * PRIMARY among them), as initgroups(3) would take them from the
 * entries glibc reads (compat lines aside). */
static int glibc_gr(const char *name, gid_t *gid)
{
	FILE *f = fopen(GROUP_FILE, "re");
	struct group *g;

	if (!f)
		return -1;
	while ((g = fgetgrent(f)) && (is_compat(g->gr_name) || strcmp(g->gr_name, name)))
		;
	if (g)
		*gid = g->gr_gid;
	fclose(f);
	return g ? 0 : -1;
}

static int listed(char **mem, const char *user)
{
	for (; *mem; mem++)
		if (!strcmp(*mem, user))
			return 1;
	return 0;
}

/* Is GID in leash's list G of N? */
static int has_gid(const gid_t *g, size_t n, gid_t gid)
{
	for (size_t i = 0; i < n; i++)
		if (g[i] == gid)
			return 1;
	return 0;
}

static void same_groups(const char *user, gid_t primary, const gid_t *g, size_t n)
{
	FILE *f = fopen(GROUP_FILE, "re");
	struct group *e;
	size_t seen = 1;

	if (!f || !comparable || fuzz_skip("glibc-group")) {
		if (f)
			fclose(f);
		return;
	}
	FUZZ_ASSERT(has_gid(g, n, primary));
	/* Every group glibc lists USER in is in leash's list... */
	while ((e = fgetgrent(f)))
		if (!is_compat(e->gr_name) && *user && listed(e->gr_mem, user)) {
			FUZZ_ASSERT(has_gid(g, n, e->gr_gid));
			seen++;
		}
	fclose(f);
	/* ...and leash lists no other (duplicates counted above). */
	FUZZ_ASSERT(n <= seen);
}

static void check_pwent(const struct pwent *pw)
{
	FUZZ_ASSERT(pw->name && pw->dir && pw->shell);
	/* As glibc's files backend: the shell is the rest of the line,
	 * colons included; the fields before it end at one. */
	FUZZ_ASSERT(!strchr(pw->name, ':') && !strchr(pw->dir, ':'));
	FUZZ_ASSERT(!strchr(pw->name, '\n') && !strchr(pw->shell, '\n'));
}

static void check_groups(const char *q, gid_t primary, size_t max)
{
	gid_t *g = NULL;
	size_t n = 0;
	int found = 0;

	if (group_list(q, primary, max, &g, &n) < 0) {
		FUZZ_ASSERT(errno == E2BIG || errno == ENOMEM);
		return;
	}
	/* initgroups(3): sorted, no duplicates, the primary included. */
	FUZZ_ASSERT(n >= 1 && n <= max);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(i == 0 || g[i - 1] < g[i]);
		found |= g[i] == primary;
	}
	FUZZ_ASSERT(found);
	same_groups(q, primary, g, n);
	free(g);
}

/* The file as given, ending with a newline: the reference, glibc's
 * fgetpwent/fgetgrent, reads a last line without one past its end
 * (garbage in the shell field: "/bin/sh$x:0" came back "...:0999:0"),
 * where glibc's getpwnam does not; leash's reading of such a line is
 * passwd.bats'. */
static void put_lines(int f, const uint8_t *d, size_t n)
{
	uint8_t *b = malloc(n + 1);

	if (!b)
		fuzz_fail(__FILE__, __LINE__, "out of memory");
	memcpy(b, d, n);
	if (n && b[n - 1] != '\n')
		b[n++] = '\n';
	fuzz_put(f, b, n);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *field;
	size_t len = fuzz_take(&data, &size, &field), plen;
	char *q = fuzz_cstr(field, len);
	struct pwent pw;
	uid_t uid = uid_of(q);
	gid_t gid, primary = uid;

	plen = size >= 2 ? (size_t)data[0] << 8 | data[1] : 0;
	data += size >= 2 ? 2 : size, size -= size >= 2 ? 2 : size;
	if (plen > size)
		plen = size;
	comparable = !memchr(data, '\0', size);
	put_lines(fd[0], data, plen);
	put_lines(fd[1], data + plen, size - plen);

	/* errno as each lookup left it: glibc's reading sets its own. */
	int rc = passwd_by_name(q, &pw), err = errno;

	same_pw(rc, &pw, is_compat(q) ? NULL : glibc_pw(q, 0));
	if (rc == 0) {
		check_pwent(&pw);
		FUZZ_ASSERT(strcmp(pw.name, q) == 0);
		primary = pw.gid;
		pwent_free(&pw);
	} else {
		FUZZ_ASSERT(err == ENOENT || err == ENOMEM);
	}
	rc = passwd_by_uid(uid, &pw), err = errno;
	same_pw(rc, &pw, glibc_pw(NULL, uid));
	if (rc == 0) {
		check_pwent(&pw);
		FUZZ_ASSERT(pw.uid == uid);
		pwent_free(&pw);
	} else {
		FUZZ_ASSERT(err == ENOENT || err == ENOMEM);
	}
	gid_t ggid;
	rc = group_by_name(q, &gid);
	if (rc < 0)
		FUZZ_ASSERT(errno == ENOENT || errno == ENOMEM);
	if (comparable && !fuzz_skip("glibc-group")) {
		int grc = is_compat(q) ? -1 : glibc_gr(q, &ggid);
		FUZZ_ASSERT((rc == 0) == (grc == 0));
		FUZZ_ASSERT(rc < 0 || gid == ggid);
	}
	check_groups(q, primary, 65536);
	check_groups(q, primary, 1 + uid % 8);      /* E2BIG too */
	free(q);
	return 0;
}
