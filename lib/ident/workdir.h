/* SPDX-License-Identifier: ISC */
/* workdir: where the command starts.  A login's home that the target
 * cannot enter is a warning (as util-linux su says it), not a failure. */
#ifndef LEASH_WORKDIR_H
#define LEASH_WORKDIR_H

/* What to do when the directory cannot be entered; zeroed: fail. */
struct workdir_fallback {
	char *warn;             /* the warning up to ": <error>" */
	const char *dir;        /* then start here; NULL: where we are */
};

/* In the parent: warn "PROG: warning: cannot change directory to SHOWN"
 * (SHOWN is the directory as the personality prints it), then start in
 * DIR.  -1 with errno ENOMEM. */
int workdir_fallback_set(struct workdir_fallback *f, const char *shown,
			 const char *dir);

/* In the child, as the target: chdir(PATH).  If that fails and F has a
 * warning, write it with the error in one write and go to F->dir (or
 * stay).  0, or -1 with errno. */
int workdir_enter(const char *path, const struct workdir_fallback *f);

#endif
