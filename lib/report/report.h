/* SPDX-License-Identifier: ISC */
/* report: the --report JSON object, written by hand.  report_format and
 * report_escape are pure (no I/O, no global state): a fuzzer may call
 * them with anything.  Strings are escaped so the output is always valid
 * JSON: '"', '\' and control characters (U+0000..U+001F, U+007F) as
 * \n \t \" ... or \u00XX; bytes that are no part of valid UTF-8
 * (overlong forms, surrogates, beyond U+10FFFF, truncated sequences)
 * each become \ufffd; valid UTF-8 passes unchanged. */
#ifndef LEASH_REPORT_H
#define LEASH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "cgroup/cgroup.h"
#include "supervise/supervise.h"
#include "leash.h"

/* A growing output buffer, in its own FIRST bytes until it outgrows
 * them (a report fits: no allocation, no page touched but the stack's);
 * on allocation failure ERR is set and the content stops growing.  Start
 * with jbuf_init; the struct may not be copied while in use. */
struct jbuf {
	char *p;
	size_t len, cap;
	bool err;
	char first[2048];
};

void jbuf_init(struct jbuf *b);
void jbuf_free(struct jbuf *b);

/* The bytes S[0..N) as the inside of a JSON string (no quotes) into DST
 * (at most CAP bytes, never terminated); returns the length it needs,
 * which may exceed CAP (then only CAP bytes were written). */
size_t report_escape(char *dst, size_t cap, const char *s, size_t n);

enum report_result {
	RESULT_FAILED,          /* leash itself, or the exec, failed */
	RESULT_EXITED,
	RESULT_SIGNALED,
	RESULT_TIMEOUT,
	RESULT_KILLED_AFTER_TIMEOUT,
	RESULT_KILLED_FROM_OUTSIDE,
	RESULT_OOM_KILLED,      /* SIGKILL from the OOM killer in its leaf */
	RESULT_IDLE,            /* --idle: no output for that long */
	RESULT_STALLED,         /* --stall: no CPU in the tree that long */
};

/* What a command that ran came to (the library's outcome and the
 * report classify it the same way). */
enum report_result report_result_of(const struct outcome *out);
/* What ended OUT's command that timed out: RESULT_IDLE or RESULT_STALLED
 * when --idle or --stall did, else DEADLINE. */
enum report_result report_timed_out_by(const struct outcome *out,
				       enum report_result deadline);

/* One report: the run as the library's outcome tells it (leash.h: the
 * one source of every field it has, for a host and for leash(1)), and
 * what only leash(1) knows (its command line, identity, cgroup paths,
 * pty, deadline's origin, --idle and --stall, its own exit status). */
struct report {
	/* The launch, from leash_run_outcome (NULL: none was made), and
	 * whether its command ran (else leash, or the child before its
	 * exec, failed: of OUT only the tree and the fallbacks are said). */
	const struct leash_outcome *out;
	bool ran;
	char *const *argv;      /* the command's; NULL: not known yet */
	/* Identity: SOURCE "passwd", "number", "android", or "caller"
	 * (no -u); NULL: not resolved yet. */
	const char *id_source;
	const char *user;       /* NULL: none */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t ngroups;
	/* Cgroup: HIERARCHY "v1" or "v2", or NULL with REASON. */
	const char *cg_hierarchy;
	const char *cg_path;    /* the uid group */
	const char *cg_leaf;    /* the launch's leaf, or NULL */
	const char *cg_uid_group;  /* the cpu uid group "created" or "joined";
				    * NULL: a tracking leaf only */
	unsigned cg_weight;     /* 0: not set by this run */
	const char *cg_reason;
	const char *sd_unit;    /* systemd's unit the groups are in, or the
				 * unit leash runs in; NULL off systemd */
	/* How the tree is reached: the plan's, which OUT's tree is made
	 * from (and how it would have been, without OUT). */
	enum tree_kill tree_kill;
	bool pty;
	const char *deadline_from;  /* "option", "LEASH_DEADLINE" or NULL */
	unsigned fallbacks;     /* enum fallback bits leash(1) took around the
				 * launch; listed by name with OUT's */
	/* RESULT_IDLE or RESULT_STALLED: --idle or --stall was the deadline
	 * of a run OUT says timed out; 0: the deadline itself. */
	enum report_result ended_by;
	int exit_status;        /* leash's, as its caller sees it */
	bool reraised;          /* leash dies of the command's signal */
	struct timespec wall;   /* since leash started, to the report */
	/* --idle's last output and --stall's last CPU progress, since
	 * leash started; HAVE_*: that option was given (else null). */
	bool have_last_output, have_last_cpu;
	struct timespec last_output, last_cpu;
	const char *error;      /* leash's own failure, or NULL */
	/* Limits as their cgroup files took them (NULL: not given). */
	const char *limits[CGROUP_NLIMITS];     /* keys: limit_rows' */
};

/* The report's result: OUT's, named as --report names it. */
enum report_result report_result(const struct report *r);
const char *report_result_name(enum report_result r);
/* Was any limit given? */
bool report_limited(const struct report *r);
const char *report_tree_name(enum tree_kill t);

/* R as one JSON object and a newline, appended to B.  -1 (ENOMEM) when
 * B could not grow. */
int report_format(const struct report *r, struct jbuf *b);

/* The area's other public headers: with this one, its face. */
#include "report/reportfile.h"

#endif
