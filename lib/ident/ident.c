/* SPDX-License-Identifier: ISC */
/* ident: resolve names to ids in the parent; apply, then check, in the
 * child.  Order of application: groups, gid, uid (with no privilege left
 * after the uid, nothing else could change). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* setresuid, getresuid */
#endif
#include "ident/ident.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ident/aid.h"
#include "ident/caps.h"
#include "diag/diag.h"
#include "ident/nss.h"
#include "ident/passwd.h"

#define ID_MAX 4294967294UL     /* (uid_t)-1 means "unchanged" to set*id */
#define KEYCTL_JOIN_SESSION_KEYRING 1   /* <linux/keyctl.h>, kernel ABI */

/* The child that applies an identity has one thread, so the set*id
 * calls go straight to the kernel: musl's wrappers broadcast each to
 * every thread (__synccall: three sigprocmask calls around it).  The
 * 32-bit ABIs (i686, armhf) name the calls with 32-bit ids *32. */
#ifdef SYS_setresuid32
#define NR_SETRESUID SYS_setresuid32
#define NR_SETRESGID SYS_setresgid32
#define NR_SETGROUPS SYS_setgroups32
#define NR_SETUID SYS_setuid32
#define NR_SETGID SYS_setgid32
#else
#define NR_SETRESUID SYS_setresuid
#define NR_SETRESGID SYS_setresgid
#define NR_SETGROUPS SYS_setgroups
#define NR_SETUID SYS_setuid
#define NR_SETGID SYS_setgid
#endif

/* A decimal id: 0 with *OUT, -1 with errno EINVAL/ERANGE when SPEC
 * looks numeric but is not a valid id, 1 when it is not numeric. */
static int parse_id(const char *spec, unsigned long *out)
{
	unsigned long long v = 0;
	const char *p = spec;

	if (!((*p >= '0' && *p <= '9') || *p == '-' || *p == '+'))
		return 1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (unsigned)(*p - '0')) > ID_MAX + 1ULL)
			v = ID_MAX + 1ULL;      /* saturate: still out of range */
	if (*p != '\0' || p == spec) {
		errno = EINVAL;                 /* -1, +5, 12abc */
		return -1;
	}
	if (v > ID_MAX) {
		errno = ERANGE;                 /* 4294967295 and beyond */
		return -1;
	}
	*out = (unsigned long)v;
	return 0;
}

static int set_string(char **dst, const char *src)
{
	char *s = src ? strdup(src) : NULL;

	if (src && !s)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

static int gid_cmp(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

/* Take ownership of the sorted, duplicate-free list G of N groups. */
static int take_groups(struct ident *id, gid_t *g, size_t n)
{
	size_t k = 0;

	qsort(g, n, sizeof *g, gid_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || g[k - 1] != g[i])
			g[k++] = g[i];
	/* A group file may say 4294967295: it is (gid_t)-1, no group. */
	if (k > IDENT_NGROUPS_MAX || (k && g[k - 1] == (gid_t)-1)) {
		free(g);
		errno = k > IDENT_NGROUPS_MAX ? E2BIG : ERANGE;
		return -1;
	}
	free(id->groups);
	id->groups = g;
	id->ngroups = k;
	id->have_groups = true;
	return 0;
}

int ident_set_groups(struct ident *id, const gid_t *groups, size_t n)
{
	gid_t *g = malloc((n ? n : 1) * sizeof *g);

	if (!g)
		return -1;
	if (n)
		memcpy(g, groups, n * sizeof *g);
	if (take_groups(id, g, n) < 0)
		return -1;
	id->groups_explicit = true;
	return 0;
}

/* gid = GID and groups = {GID}, unless -g / -G decided. */
static int default_groups(struct ident *id, gid_t gid)
{
	gid_t *g;

	if (!id->gid_explicit) {
		id->gid = gid;
		id->have_gid = true;
	}
	if (id->groups_explicit)
		return 0;
	if (!(g = malloc(sizeof *g)))
		return -1;
	g[0] = id->gid;
	return take_groups(id, g, 1);
}

/* group_list or nss_initgroups: the user's groups, from where it was. */
typedef int groups_fn(const char *user, gid_t primary, size_t max,
		      gid_t **groups, size_t *ngroups);

static int take_pwent(struct ident *id, struct pwent *pw, groups_fn *groups_of)
{
	gid_t *g;
	size_t n;
	int rc = -1;

	/* glibc takes 4294967295 in passwd; to set*id it means "unchanged". */
	if (pw->uid == (uid_t)-1 || pw->gid == (gid_t)-1) {
		errno = ERANGE;
		goto out;
	}
	id->uid = pw->uid;
	id->have_uid = true;
	id->uid_change = 0;     /* a new uid: ask again */
	id->source = "passwd";
	if (set_string(&id->user, pw->name) < 0 ||
	    set_string(&id->home, *pw->dir ? pw->dir : NULL) < 0 ||
	    set_string(&id->shell, *pw->shell ? pw->shell : NULL) < 0)
		goto out;
	if (id->gid_explicit || id->groups_explicit) {
		rc = default_groups(id, pw->gid);
		goto out;
	}
	id->gid = pw->gid;
	id->have_gid = true;
	if (groups_of(pw->name, pw->gid, IDENT_NGROUPS_MAX, &g, &n) == 0)
		rc = take_groups(id, g, n);
out:
	pwent_free(pw);
	return rc;
}

/* Android's names mean someone only on Android, or where there is no
 * password file at all (a recovery image); on any other system "system"
 * may be a person's uid 1000, so a name passwd lacks is no one. */
static bool android_names(void)
{
	const char *root = getenv("ANDROID_ROOT");

	if (access(PASSWD_FILE, F_OK) < 0 && errno == ENOENT)
		return true;
	return root && *root && access("/system/build.prop", F_OK) == 0;
}

/* No passwd entry: gid = uid, groups = {gid}, no home, no shell. */
static int take_bare(struct ident *id, uid_t uid, const char *name)
{
	char buf[32];

	id->source = name ? "android" : "number";
	if (!name) {
		/* On Android, bionic would call 10035 "u0_a35". */
		if (!android_names() || aid_name(uid, buf, sizeof buf) < 0)
			snprintf(buf, sizeof buf, "%lu", (unsigned long)uid);
		name = buf;
	}
	id->uid = uid;
	id->have_uid = true;
	id->uid_change = 0;
	if (set_string(&id->user, name) < 0 || set_string(&id->home, NULL) < 0 ||
	    set_string(&id->shell, NULL) < 0)
		return -1;
	return default_groups(id, (gid_t)uid);
}

int ident_resolve_user(struct ident *id, const char *spec)
{
	struct pwent pw;
	unsigned long n;
	uid_t uid;
	int r;

	if (*spec == '\0') {
		errno = EINVAL;
		return -1;
	}
	if (passwd_by_name(spec, &pw) == 0)
		return take_pwent(id, &pw, group_list);
	if (errno != ENOENT)
		return -1;
	if ((r = parse_id(spec, &n)) < 0)
		return -1;
	if (r == 0) {
		if (passwd_by_uid((uid_t)n, &pw) == 0)
			return take_pwent(id, &pw, group_list);
		return errno == ENOENT ? take_bare(id, (uid_t)n, NULL) : -1;
	}
	if (android_names()) {
		if (aid_user_by_name(spec, &uid) == 0)
			return take_bare(id, uid, spec);
	} else if (!id->no_nss) {
		/* Only now, after a miss: the common launch runs no getent. */
		if (nss_passwd(spec, &pw) < 0)
			return -1;
		int rc = take_pwent(id, &pw, nss_initgroups);
		id->source = "nss";
		return rc;
	}
	errno = ENOENT;
	return -1;
}

bool ident_uses_nss(const struct ident *id)
{
	return !id->no_nss && !android_names() && nss_available();
}

/* A gid of 4294967295 is (gid_t)-1, no group: as for a passwd entry. */
static int gid_check(const gid_t *gid)
{
	if (*gid != (gid_t)-1)
		return 0;
	errno = ERANGE;
	return -1;
}

static int lookup_group(const char *spec, gid_t *gid, bool nss)
{
	unsigned long n;
	int r;

	if (*spec == '\0') {
		errno = EINVAL;
		return -1;
	}
	if (group_by_name(spec, gid) == 0)
		return gid_check(gid);
	if (errno != ENOENT || (r = parse_id(spec, &n)) < 0)
		return -1;
	if (r == 0) {
		*gid = (gid_t)n;
		return 0;
	}
	if (android_names())
		return aid_group_by_name(spec, gid);
	if (nss)
		return nss_group(spec, gid) < 0 ? -1 : gid_check(gid);
	errno = ENOENT;
	return -1;
}

int ident_lookup_group(const char *spec, gid_t *gid)
{
	return lookup_group(spec, gid, true);
}

int ident_resolve_group(struct ident *id, const char *spec)
{
	gid_t gid;

	if (lookup_group(spec, &gid, !id->no_nss) < 0)
		return -1;
	id->gid_explicit = true;
	id->gid = gid;
	id->have_gid = true;
	return default_groups(id, gid);
}

int ident_resolve_groups(struct ident *id, const char *list)
{
	size_t n = 1, k = 0;
	gid_t *g;
	char item[256];

	for (const char *p = list; *p; p++)
		n += *p == ',';
	if (n > IDENT_NGROUPS_MAX) {
		errno = E2BIG;
		return -1;
	}
	if (!(g = malloc(n * sizeof *g)))
		return -1;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof item) {
			free(g);
			errno = ENOENT;         /* longer than any name we know */
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (lookup_group(item, &g[k++], !id->no_nss) < 0) {
			free(g);
			return -1;
		}
		p += len;
		if (*p == '\0')
			break;
	}
	id->groups_explicit = true;
	return take_groups(id, g, k);
}

static bool uids_are(uid_t u)
{
	uid_t r, e, s;

	return getresuid(&r, &e, &s) == 0 && r == u && e == u && s == u;
}

/* The kept answer, else the kernel's: the caller's uids are not all
 * the target's (a getresuid that fails counts as a change). */
static bool changes_uid(const struct ident *id)
{
	if (id->uid_change)
		return id->uid_change > 0;
	return id->have_uid && !uids_are(id->uid);
}

bool ident_changes_uid(struct ident *id)
{
	id->uid_change = changes_uid(id) ? 1 : -1;
	return id->uid_change > 0;
}

void ident_free(struct ident *id)
{
	free(id->groups);
	free(id->user);
	free(id->home);
	free(id->shell);
	id->groups = NULL;
	id->user = id->home = id->shell = NULL;
	id->ngroups = 0;
	id->have_groups = false;
}

/* Exactly the groups of ID in CUR[0..N), which is sorted and
 * deduplicated in place. */
static bool groups_same(const struct ident *id, gid_t *cur, size_t n)
{
	size_t k = 0;

	qsort(cur, n, sizeof *cur, gid_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || cur[k - 1] != cur[i])
			cur[k++] = cur[i];
	return k == id->ngroups &&
	       (k == 0 || !memcmp(cur, id->groups, k * sizeof *cur));
}

/* Does the calling process have exactly the groups of ID?  A list that
 * fits on the stack is read with one call, and the kernel's sorted list
 * compared as it comes; anything else is sorted first. */
static bool groups_match(const struct ident *id)
{
	gid_t small[32], *cur;
	int n = getgroups(32, small);
	bool same;

	if (n >= 0)
		return ((size_t)n == id->ngroups &&
			(n == 0 || !memcmp(small, id->groups,
					   (size_t)n * sizeof *small))) ||
		       groups_same(id, small, (size_t)n);
	/* EINVAL: more than 32. */
	n = getgroups(0, NULL);
	if (n < 0 || (size_t)n > IDENT_NGROUPS_MAX ||
	    !(cur = malloc(((size_t)n + 1) * sizeof *cur)))
		return false;
	n = getgroups(n, cur);
	same = n >= 0 && groups_same(id, cur, (size_t)n);
	free(cur);
	return same;
}

static bool gids_are(gid_t g)
{
	gid_t r, e, s;

	return getresgid(&r, &e, &s) == 0 && r == g && e == g && s == g;
}

int ident_check_caps(const struct ident *id, const char **bad)
{
	uint64_t mask;

	return id->keep_caps ? caps_parse(id->keep_caps, &mask, bad) : 0;
}

int ident_check_privilege(const struct ident *id)
{
	if (!id->have_uid && !id->have_gid && !id->have_groups)
		return 0;
	/* The capabilities first: as root, one call answers. */
	uint64_t eff = caps_effective();
	bool uid_ok = !id->have_uid || (eff >> CAP_SETUID & 1) ||
		      uids_are(id->uid);
	bool gid_ok = (eff >> CAP_SETGID & 1) ||
		      ((!id->have_gid || gids_are(id->gid)) &&
		       (!id->have_groups || groups_match(id)));

	if (uid_ok && gid_ok)
		return 0;
	errno = EPERM;
	return -1;
}

/* Read everything back; then, for a non-root target, privilege must be
 * gone for good: regaining uid 0 (or gid 0, or new groups) fails. */
static int ident_verify(const struct ident *id, bool drop)
{
	bool ok = (!id->have_uid || uids_are(id->uid)) &&
		  (!id->have_gid || gids_are(id->gid)) &&
		  (!id->have_groups || groups_match(id));

	if (ok && drop) {
		gid_t none[1] = { 0 };

		ok = syscall(NR_SETUID, 0) < 0 &&
		     syscall(NR_SETGROUPS, 1, none) < 0 &&
		     ((id->have_gid ? id->gid == 0 : gids_are(0)) ||
		      syscall(NR_SETGID, 0) < 0);
	}
	if (!ok)
		errno = EPERM;
	return ok ? 0 : -1;
}

/* Join a new, empty, anonymous session keyring, so that the caller's
 * session keys can be neither read nor replaced.  A kernel without keys
 * (ENOSYS) has nothing to leak; a seccomp profile that refuses keyctl
 * (EPERM: Docker's, Podman's) refuses it to the command too, as the
 * filter is inherited: it can neither read nor update a key. */
static int keyring_fresh(void)
{
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, (char *)NULL) >= 0)
		return 0;
	if (errno != ENOSYS && errno != EPERM)
		return -1;
	fallback_take(FALLBACK_KEYRING, errno, "keyctl is refused, to the "
		      "command too: no fresh session keyring");
	return 0;
}

/* setgroups needs privilege even when nothing changes: without it, the
 * groups the caller already has are no failure. */
static int set_groups(const struct ident *id)
{
	if (syscall(NR_SETGROUPS, id->ngroups, id->groups) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	return groups_match(id) ? 0 : (errno = EPERM, -1);
}

static int fail(enum ident_step *step, enum ident_step at)
{
	*step = at;
	return -1;
}

int ident_apply(const struct ident *id, enum ident_step *step)
{
	/* Leaving uid 0 (or another uid) for a non-root one drops every
	 * capability; a root target keeps what root has. */
	bool drop = id->have_uid && id->uid != 0;
	bool switching = changes_uid(id);
	uint64_t keep = 0;

	if (id->keep_caps && caps_parse(id->keep_caps, &keep, NULL) < 0)
		return fail(step, IDENT_CAPS);
	if (id->have_groups && set_groups(id) < 0)
		return fail(step, IDENT_SETGROUPS);
	if (id->have_gid &&
	    syscall(NR_SETRESGID, id->gid, id->gid, id->gid) < 0)
		return fail(step, IDENT_SETGID);
	if (drop && keep && caps_keep_begin() < 0)
		return fail(step, IDENT_CAPS);
	/* Made while still the caller, the keyring is charged to root's key
	 * quota: made as the target, a caller with a session keyring of its
	 * own (any PAM login, any systemd service) could run no more than
	 * about 198 commands of one user at a time (maxkeys is 200). */
	if (switching && keyring_fresh() < 0)
		return fail(step, IDENT_KEYRING);
	if (id->have_uid &&
	    syscall(NR_SETRESUID, id->uid, id->uid, id->uid) < 0)
		return fail(step, IDENT_SETUID);
	/* Nothing in effect while checking, then only what is kept. */
	if (drop && caps_limit(keep) < 0)
		return fail(step, IDENT_CAPS);
	if (ident_verify(id, drop) < 0)
		return fail(step, IDENT_VERIFY);
	if (drop && caps_raise(keep) < 0)
		return fail(step, IDENT_CAPS);
	if (id->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return fail(step, IDENT_NO_NEW_PRIVS);
	return 0;
}

const char *ident_step_name(enum ident_step step)
{
	switch (step) {
	case IDENT_SETGROUPS: return "setgroups";
	case IDENT_SETGID: return "setresgid";
	case IDENT_SETUID: return "setresuid";
	case IDENT_VERIFY: return "ids differ from the plan after the switch";
	case IDENT_CAPS: return "capabilities";
	case IDENT_NO_NEW_PRIVS: return "no_new_privs";
	case IDENT_KEYRING: return "session keyring";
	}
	return "identity";
}
