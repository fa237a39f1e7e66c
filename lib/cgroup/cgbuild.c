/* SPDX-License-Identifier: ISC */
/* cgbuild: make the uid groups and the leaf the plan names, write the
 * weight: cgroup_prepare. */
#define _GNU_SOURCE
#include "cgroup/cgroup.h"
#include "cgroup/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cgfs.h"
#include "sys/sys.h"
#include "diag/diag.h"
#include "time/time.h"
#include "cgroup/mountinfo.h"

/* v2 R: cpu must reach it, it must hold no process and stay a domain
 * (one stray process in R makes every uid_N "domain invalid"), and it
 * enables cpu for its children - the only subtree_control we write.
 * Only the first launch of a uid runs this: later ones find cpu.weight
 * in uid_<uid> (cg_fast_find), and a join that fails asks again. */
static int cg_v2_check(struct cgroup_plan *cg, int r)
{
	const char *path = cg->cpu_top;
	char buf[256];

	if (readfile_at(r, "cgroup.controllers", buf, sizeof buf) < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot read %s/cgroup.controllers", path);
	if (!mountinfo_has_token(buf, ' ', "cpu")) {
		cg_fail(cg, 0, true, "enable cpu in the parent's cgroup."
			"subtree_control or delegate it", "cpu controller not "
			"enabled for %s", DIAG_QUOTE(path));
		return CG_NOCPU;
	}
	if (readfile_at(r, "cgroup.type", buf, sizeof buf) > 0 &&
	    strcmp(buf, "domain\n") != 0)
		return cg_fail(cg, 0, false, "move the processes out of it",
			       "cgroup %s is of type %.*s, not domain",
			       DIAG_QUOTE(path), (int)strcspn(buf, "\n"), buf);
	if (readfile_at(r, "cgroup.procs", buf, sizeof buf) > 0)
		return cg_fail(cg, 0, false, "move them out; leash puts "
			       "processes only in leaves", "cgroup %s must "
			       "not contain processes", DIAG_QUOTE(path));
	if (readfile_at(r, "cgroup.subtree_control", buf, sizeof buf) >= 0 &&
	    mountinfo_has_token(buf, ' ', "cpu"))
		return 0;
	if (cgfs_write(r, "cgroup.subtree_control", "+cpu") < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			cg_hint(errno), "cannot enable cpu in "
			"%s/cgroup.subtree_control", path);
	return 0;
}

static int cg_v2_top(struct cgroup_plan *cg)
{
	bool created = false;
	int rc, r;

	/* systemd's scope is systemd's to make, never ours. */
	if (cg->sd == CGROUP_SD_NONE &&
	    cgfs_mkdir(AT_FDCWD, cg->cpu_top, &created) < 0)
		return cg_fail_mkdir(cg, cg->cpu_top);
	r = cgfs_dir(AT_FDCWD, cg->cpu_top);
	if (r < 0)
		return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false,
			NULL, "cannot open cgroup %s", DIAG_QUOTE(cg->cpu_top));
	rc = cg_v2_check(cg, r);
	close(r);
	/* Auto keeps R for a tracking leaf; else leave nothing behind
	 * that this failed attempt made. */
	if (rc == CG_NOCPU && cg->mode != CGROUP_AUTO)
		rc = -1;
	if (rc == -1 && created)
		rmdir(cg->cpu_top);
	return rc;
}

/* mkdir DIR (its parent TOP first when missing; TOP NULL: start over
 * then) and open it.  The group usually exists: its parent is tried
 * only on ENOENT. */
static int cg_make_group(struct cgroup_plan *cg, const char *top,
			 const char *dir, bool *created, int *fd)
{
	if (cgfs_mkdir(AT_FDCWD, dir, created) < 0) {
		if (errno != ENOENT)
			return cg_fail_mkdir(cg, dir);
		if (!top)
			return CG_AGAIN;
		if (cgfs_mkdir(AT_FDCWD, top, NULL) < 0)
			return cg_fail_mkdir(cg, top);
		if (cgfs_mkdir(AT_FDCWD, dir, created) < 0)
			return errno == ENOENT ? CG_AGAIN :
			       cg_fail_mkdir(cg, dir);
	}
	*fd = cgfs_dir(AT_FDCWD, dir);
	if (*fd >= 0)
		return 0;
	return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false, NULL,
		"cannot open cgroup %s", DIAG_QUOTE(dir));
}

static int cg_write_weight(struct cgroup_plan *cg)
{
	if (!cg->wfile[0] ||
	    cgfs_write(cg_weight_fd(cg), cg->wfile, cg->wvalue) == 0)
		return 0;
	return errno == ENOENT ? CG_AGAIN : cg_fail(cg, errno, false, NULL,
		"cannot set %s/%s to %s", cg->cpu_uid, cg->wfile, cg->wvalue);
}

/* The uid group of the cpu hierarchy, with its weight when given. */
int cg_build_cpu(struct cgroup_plan *cg)
{
	int rc;

	if (cg->version == 2 && (rc = cg_v2_top(cg)) != 0)
		return rc;
	/* v2: R is checked above; made again, it must be checked again. */
	rc = cg_make_group(cg, cg->version == 1 ? cg->cpu_top : NULL,
			   cg->cpu_uid, &cg->created,
			   cg->version == 1 ? &cg->cpu_fd : &cg->uid_fd);
	return rc ? rc : cg_write_weight(cg);
}

/* run_<pid>_<boot time in ns of leash's start>: unique while we live,
 * and lets a later launch tell that its creator is gone (a process
 * started after that time has the pid now).
 * Another suffix on a (foreign) clash: only a leaf this call made is
 * ever ours.  The leaf is opened at once and reached only through it. */
/* Inside a leaf of an outer leash (nested: leash -t ... -- leash -u ...),
 * the new leaf is made in that one, so the outer tree kill and
 * accounting still reach the command; its own uid group is then only
 * for the weight. */
static void cg_nest(struct cgroup_plan *cg)
{
	char own[CGROUP_PATH_MAX];
	int fd;

	if (!cg->leaf_top[0] || cg->no_outer ||
	    cg_find_own_leaf(cg->leaf_top, own, sizeof own) < 0 ||
	    strcmp(own, cg->leaf_uid) == 0 || (fd = cgfs_dir(AT_FDCWD, own)) < 0)
		return;
	cg_close_fd(&cg->uid_fd);
	cg->uid_fd = fd;
	strcpy(cg->leaf_uid, own);
	cg_note(cg, "cgroup: inside the leaf of the leash that started this one");
}

int cg_make_leaf(struct cgroup_plan *cg)
{
	unsigned long long stamp = clock_stamp(&cg->started);
	char name[80];
	bool created;
	int err;

	cg_nest(cg);
	for (int k = 0; k < CG_NAME_TRIES; k++) {
		int n = snprintf(name, sizeof name, "run_%d_%llu", (int)cg->self,
				 stamp);

		if (k)
			snprintf(name + n, sizeof name - (size_t)n, "_%d", k);
		if (cg_path(cg, cg->leaf, cg->leaf_uid, name) < 0)
			return -1;
		if (cgfs_mkdir(cg->uid_fd, name, &created) < 0)
			return errno == ENOENT ? CG_AGAIN :
			       cg_fail_mkdir(cg, cg->leaf);
		if (!created)
			continue;
		cg->leaf_fd = cgfs_dir(cg->uid_fd, name);
		if (cg->leaf_fd >= 0)
			return 0;
		err = errno;
		/* Made by this call, so ours to remove (EMFILE, ENOMEM...):
		 * a failed launch leaves no leaf behind. */
		unlinkat(cg->uid_fd, name, AT_REMOVEDIR);
		return err == ENOENT ? CG_AGAIN : cg_fail(cg, err, false,
			NULL, "cannot open cgroup %s", DIAG_QUOTE(cg->leaf));
	}
	return cg_fail(cg, EEXIST, false, NULL, "cannot create cgroup %s",
		       DIAG_QUOTE(cg->leaf));
}

static int cg_build_leaf(struct cgroup_plan *cg)
{
	int rc = 0;
	bool made;

	if (!cg->leaf_top[0])
		return 0;
	if (cg->uid_fd < 0)     /* hybrid, or leaf only: cgroup2's uid group */
		rc = cg_make_group(cg, cg->sd == CGROUP_SD_NONE ?
				   cg->leaf_top : NULL, cg->leaf_uid, &made,
				   &cg->uid_fd);
	if (rc == 0)
		rc = cg_make_leaf(cg);
	if (rc)
		cg->leaf[0] = '\0';     /* never remove what is not ours */
	if (rc == -1 && cg->version == 1 && cg->soft &&
	    cg->mode == CGROUP_AUTO && !cgroup_limited(cg)) {
		/* The cpu group works; only tracking is lost. */
		cg_note(cg, "cgroup: no per-launch leaf: %.*s", cg->hint_at,
			cg->msg);
		cg_close_fd(&cg->uid_fd);
		cg_close_fd(&cg->leaf_fd);
		cg->leaf_top[0] = '\0';
		return 0;
	}
	return rc;
}

static int cg_build(struct cgroup_plan *cg)
{
	for (int i = 0; i < CG_REMAKE_TRIES; i++) {
		int rc = cg->version ? cg_build_cpu(cg) : 0;

		if (rc == CG_NOCPU) {
			cg_plan_leaf_only(cg);
			rc = 0;
		}
		if (rc == 0)
			rc = cg_build_leaf(cg);
		if (rc != CG_AGAIN)
			return rc;
		cg_close(cg);
	}
	return cg_fail(cg, ENOENT, false, "something keeps removing it",
		       "cannot create cgroup %s", DIAG_QUOTE(cg->version ?
		       cg->cpu_uid : cg->leaf_uid));
}

/* The steady state: the uid groups found where they usually are, the
 * weight written when given, the leaf made.  Anything unusual (a first
 * launch, an error to explain) undoes it all: 1, the full path runs. */
static int cg_fast(struct cgroup_plan *cg, uid_t uid)
{
	char name[32];

	if (cg_root_option(cg))
		return 1;
	snprintf(name, sizeof name, "uid_%u", (unsigned)uid);
	if (cg_fast_find(cg, name) == 0) {
		cg_weight_file(cg);
		if ((!cg->wfile[0] || cgfs_write(cg_weight_fd(cg), cg->wfile,
						 cg->wvalue) == 0) &&
		    cg_make_leaf(cg) == 0)
			return 0;
	}
	cg_close(cg);
	cg_reset(cg);
	return 1;
}

static void cg_note_ready(const struct cgroup_plan *cg)
{
	char cur[32] = "";
	const char *file = cg->version == 1 ? "cpu.shares" : "cpu.weight";

	if (!cg->verbose || !cg->note)
		return;
	if (cg->sd == CGROUP_SD_SCOPE)
		cg_note(cg, "systemd: in %s (%s)", cg->unit,
			cg->scope_made ? "started by this launch" : "joined");
	if (cg->version && !cg->wfile[0] &&
	    readfile_at(cg_weight_fd(cg), file, cur, sizeof cur) > 0)
		cur[strcspn(cur, "\n")] = '\0';
	if (cg->version)
		cg_note(cg, "cgroup v%d: %s %s, %s %s%s", cg->version,
			cg->created ? "created" : "joined", cg->cpu_uid, file,
			cg->wfile[0] ? cg->wvalue : cur,
			cg->wfile[0] ? "" : " (not changed)");
	if (cg->leaf[0])
		cg_note(cg, "cgroup: leaf %s", cg->leaf);
	else
		cg_note(cg, "cgroup: no per-launch leaf (no cgroup2 mount): "
			"the deadline reaches the process group only");
}

/* Everything the fast path could not do: mountinfo, checks, mkdirs. */
static int cg_slow(struct cgroup_plan *cg, uid_t uid)
{
	if (cg_find_tops(cg) < 0 || cg_plan_uids(cg, uid) < 0)
		return -1;
	cg_weight_file(cg);
	if (cg->weight && !cg->version && cg->warn)
		/* Not silent: the weight belongs to a cpu group. */
		cg->warn("--cpu-weight not applied: no cpu controller, "
			  "only a tracking leaf");
	return cg_build(cg);
}

/* On a systemd host: the uid's scope (the steady state opens its uid
 * group and makes the leaf, as cg_fast does), or a delegated unit. */
static int cg_sd_build(struct cgroup_plan *cg, uid_t uid)
{
	char slice[48];

	if (cg->sd == CGROUP_SD_SCOPE && cg->version == 2 && !cg->weight) {
		cg->uid_fd = cgfs_dir(AT_FDCWD, cg->cpu_uid);
		if (cg->uid_fd >= 0 && cgfs_exists(cg->uid_fd, "cpu.weight") == 0 &&
		    cg_make_leaf(cg) == 0)
			return 0;
		cg_close(cg);
		cg->leaf[0] = '\0';
	}
	/* 1: a hybrid host after all (the fast path skipped the check). */
	if (cg->sd == CGROUP_SD_SCOPE && !cg_sd_unified(cg))
		return 1;
	snprintf(slice, sizeof slice, "user-%u.slice", (unsigned)uid);
	if (cg->weight && cg->warn)
		/* Not silent: the weight belongs to systemd's units. */
		cg->warn("--cpu-weight not applied: on a systemd host the "
			  "share is %s's (systemctl set-property %s CPUWeight=)",
			  cg->sd == CGROUP_SD_SCOPE ? slice : cg->unit,
			  cg->sd == CGROUP_SD_SCOPE ? slice : cg->unit);
	if (cg->sd == CGROUP_SD_SCOPE && cg_sd_scope(cg, uid) < 0)
		return -1;
	return cg_build(cg);
}

int cgroup_prepare(struct cgroup_plan *cg, uid_t uid, const char **what)
{
	int rc;

	cg_reset(cg);
	if (cg->mode == CGROUP_OFF)
		return 0;
	rc = cg_weight_check(cg);
	if (rc == 0)
		rc = cg_systemd(cg, uid);
	if (rc == 2)
		return 0;       /* a unit's own: no group, said under -v */
	if (rc == 0)
		rc = cg_sd_build(cg, uid);
	if (rc > 0) {
		cg_reset(cg);
		if ((rc = cg_fast(cg, uid)) > 0)
			rc = cg_slow(cg, uid);
	}
	if (rc == 0 && cgroup_limited(cg) && cg_limit_apply(cg) < 0) {
		/* All or nothing: the leaf goes, nothing ran in it. */
		if (cg->leaf[0] && cg->uid_fd >= 0)
			unlinkat(cg->uid_fd, cg_leaf_name(cg), AT_REMOVEDIR);
		cg->leaf[0] = '\0';
		rc = -1;
	}
	if (rc < 0) {
		cg_close(cg);
		/* A limit is never dropped: no group is a failure then. */
		if (cg->mode == CGROUP_AUTO && cg->soft && !cgroup_limited(cg)) {
			cg_note(cg, "running without a cgroup: %.*s",
				cg->hint_at, cg->msg);
			cg_reset(cg);
			return 0;
		}
		if (what)
			*what = cg->msg;
		return -1;
	}
	cg->active = true;
	cg_note_ready(cg);
	return 0;
}
