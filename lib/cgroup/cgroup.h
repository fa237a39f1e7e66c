/* SPDX-License-Identifier: ISC */
/* cgroup: the per-uid cpu group and the per-launch leaf.
 * Parent: cgroup_prepare before fork (cgroup_birth_fd: the leaf a clone3
 * child is born in), cgroup_signal/cgroup_kill while the child is
 * unreaped, cgroup_release after the reap.
 * Child: cgroup_join_step, while still root, before the identity switch.
 *
 * Layout.  v2 (cpu on cgroup2): R/uid_<uid>/run_<pid>_<boot ns>,
 * R = <cgroup2 mount>/leash or --cgroup-root; "+cpu" only in R's
 * cgroup.subtree_control; processes only in the leaf.  v1 (cpu on a
 * legacy hierarchy): <cpu mount>/leash/uid_<uid> holds the processes
 * directly; when cgroup2 is mounted too (hybrid) a leaf
 * <cgroup2 mount>/leash/uid_<uid>/run_<id> tracks and kills the launch.
 * No cpu controller anywhere (or --cgroup=track): only that leaf, in
 * cgroup2, so the deadline still reaches every process of the launch.
 * The uid groups and the leaf are held as directory descriptors from
 * creation on; paths are resolved again only to remake a group that
 * another process removed under us.
 * Inside, one file per step, each calling only those before it (see
 * internal.h): find the hierarchies, plan the paths, build the groups,
 * join them (the child), release the leaf. */
#ifndef LEASH_CGROUP_H
#define LEASH_CGROUP_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "cgroup/limit.h"

/* PATH_MAX without depending on the feature macros of the includer. */
#define CGROUP_PATH_MAX 4096

/* TRACK: a per-launch leaf in cgroup2 only, no cpu group (the tree kill
 * of a cgroup for a command that keeps its uid, e.g. root without -u). */
enum cgroup_mode { CGROUP_AUTO, CGROUP_REQUIRE, CGROUP_OFF, CGROUP_TRACK };

/* On a systemd host (cgsystemd.c), where the groups are: uid N's
 * delegated scope leash-uid-N.scope in user-N.slice (leash started from
 * a login session, or no unit); the unit leash runs in, delegated to it
 * (Delegate=yes: leaves below leash's own group); that unit, not
 * delegated (no group at all: the command stays in the unit). */
enum cgroup_systemd { CGROUP_SD_NONE, CGROUP_SD_SCOPE, CGROUP_SD_DELEGATED,
		      CGROUP_SD_UNIT };

/* Which join failed, for the child's error report (spawn_error.step). */
enum cgroup_step { CGROUP_STEP_LEAF = 1, CGROUP_STEP_CPU };

struct cgroup_plan {
	/* Options, filled by cmd/. */
	enum cgroup_mode mode;
	const char *root;       /* --cgroup-root or LEASH_CGROUP_ROOT;
				 * NULL: the default */
	unsigned weight;        /* --cpu-weight 1..10000, 0 when not given */
	bool kill_leftovers;
	/* Limits on the leaf, a row each of limit.h's CGROUP_LIMITS, as
	 * its file takes them; "" when not given.  Any one makes a leaf
	 * necessary, in cgroup2, and each must be applied or the launch
	 * fails (cgroup_limited). */
	char limits[CGROUP_NLIMITS][LIMIT_VALUE_MAX];
	bool verbose;
	/* The user gave a cgroup option (--cgroup=..., --cgroup-root,
	 * --cpu-weight, --kill-leftovers): cmd/ lets auto act even without
	 * a uid change. */
	bool asked;
	/* leash's pid and start (LEASH_CLOCK: time/clock.h says what
	 * follows it), which name the leaf: the
	 * caller read both already, and each is a system call to ask. */
	pid_t self;
	struct timespec started;
	/* -v lines without the program prefix, e.g. diag_warn; NULL: none.
	 * Called only when verbose is set. */
	void (*note)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
	/* What is said even without -v (a --cpu-weight that cannot apply),
	 * e.g. diag_warn; NULL, as in a libleash host: nothing printed. */
	void (*warn)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
	/* The command's pid, set by the caller after spawn (0: unknown):
	 * cgroup_signal skips it, since the caller signalled it already. */
	pid_t child;

	/* State, owned by lib/cgroup/ (internal.h), set by cgroup_prepare. */
	bool active;            /* a group was prepared: the child joins it */
	bool created;           /* the cpu uid group was made by this launch */
	int version;            /* cpu hierarchy: 1 or 2; 0: leaf only */
	/* O_PATH directory descriptors (close-on-exec), -1 when none. */
	int cpu_fd;             /* v1: the cpu uid group (the child joins it) */
	int uid_fd;             /* cgroup2 uid_<uid>, the leaf's parent */
	int leaf_fd;            /* the leaf */
	int wait_ms;            /* what cgroup_release waits for it to empty,
				 * owed by the signals sent to it */
	char wfile[24];         /* "cpu.shares" / "cpu.weight", "" unset */
	char wvalue[16];        /* the value to write there */
	bool soft;              /* msg is a reason auto mode may run without */
	enum cgroup_systemd sd; /* systemd's place, CGROUP_SD_NONE off systemd */
	bool scope_made;        /* this launch started the scope */
	bool no_outer;          /* read already: no outer leash's leaf holds us */
	char unit[256];         /* that unit's name, "" off systemd */
	int hint_at;            /* where " (hint)" starts in msg */
	/* The paths, "" when unused; read-only outside lib/cgroup/. */
	char leaf_top[CGROUP_PATH_MAX];  /* cgroup2 R of the leaf, or "" */
	char leaf_uid[CGROUP_PATH_MAX];  /* cgroup2 uid_<uid> above it */
	char cpu_top[CGROUP_PATH_MAX];   /* v1: <cpu mount>/leash; v2: R */
	char cpu_uid[CGROUP_PATH_MAX];   /* uid_<uid>, cpu hierarchy */
	char leaf[CGROUP_PATH_MAX];      /* the leaf we made, or "" */
	char msg[CGROUP_PATH_MAX + 256];   /* the last message for *what */
};

/* What the leaf measured, read after the command's end (before
 * cgroup_release); -1 where the kernel has no such counter or the
 * controller is not on the leaf (memory.peak: 5.19; pids.peak: 6.1). */
struct cgroup_usage {
	long long memory_peak;  /* bytes, memory.peak */
	long long oom_kills;    /* memory.events oom_kill */
	long long pids_peak;    /* pids.peak */
	long long throttled_us; /* cpu.stat throttled_usec */
	long long user_us;      /* cpu.stat user_usec: the whole tree's CPU */
	long long system_us;    /* cpu.stat system_usec */
};

/* A limit was given: the launch needs a leaf with it, or fails. */
static inline bool cgroup_limited(const struct cgroup_plan *cg)
{
	for (int i = 0; i < CGROUP_NLIMITS; i++)
		if (cg->limits[i][0])
			return true;
	return false;
}

/* The first limit option given, for messages ("--memory-max"). */
const char *cgroup_limit_option(const struct cgroup_plan *cg);

/* The CPU the leaf's whole tree has used so far, microseconds (cpu.stat
 * usage_usec, which cgroup2 keeps without the cpu controller): one read,
 * for --stall.  -1 with errno (ENOENT: no leaf). */
long long cgroup_cpu_usec(const struct cgroup_plan *cg);

/* The leaf's counters into U (all -1 without a leaf). */
void cgroup_usage(const struct cgroup_plan *cg, struct cgroup_usage *u);

/* Prepare for the uid UID: cmd/ has decided that the mode acts (auto
 * does, like the kernel patch at set_user(), when the uid changes or an
 * option asks; off never does).  Returns 0 with cg->active set when the
 * child must join; 0 with active false when running without a group is
 * allowed (off, or auto with nothing usable: the reason goes to note
 * under -v); -1 with errno when it is fatal, *WHAT then being one
 * complete line without the program prefix (path, error text, hint):
 * print it as diag_warn("%s") and exit 125.  Anything half made is
 * removed again. */
int cgroup_prepare(struct cgroup_plan *cg, uid_t uid, const char **what);

/* The leaf's directory descriptor for clone3(CLONE_INTO_CGROUP), or -1
 * when there is no leaf.  cgroup_birth_lost: clone3 said ENOENT (the
 * leaf was removed under us): make it again; -1 when that fails (the
 * path stays: the forked child's join then makes it or fails). */
int cgroup_birth_fd(const struct cgroup_plan *cg);
int cgroup_birth_lost(struct cgroup_plan *cg);

/* Child, before dropping identity: write "0" to the leaf's (unless BORN
 * in it) and (v1) the uid group's cgroup.procs, recreating groups
 * removed under us (bounded).  Uses only async-signal-safe calls.  -1
 * with errno on failure; *STEP says which join failed. */
int cgroup_join_step(const struct cgroup_plan *cg, bool born,
		     enum cgroup_step *step);

/* Parent, after a failed join reported by the child: one line naming the
 * path, the error and a hint (STEP 0 when unknown).  Points into cg. */
const char *cgroup_join_error(struct cgroup_plan *cg, int step, int err);

/* Auto mode, after the child's join failed with ERR (its STEP) and
 * cgroup_release: a refusal (EACCES, EPERM, EROFS: a security policy
 * such as SELinux, a group that is not ours) counts as a group not ours
 * to make.  Then true: the reason goes to note, the plan is emptied and
 * its mode set to off, so the caller runs the command again without a
 * group (it never started: the join precedes the identity switch). */
bool cgroup_join_refused(struct cgroup_plan *cg, int step, int err);

/* Signal every process in our leaf except cg->child (a no-op without a
 * leaf).  Freezes the leaf meanwhile when it can, so forks cannot slip
 * through and no pid is reused under us.  -1 with errno on failure. */
int cgroup_signal(const struct cgroup_plan *cg, int sig);
/* The leaf while the command runs and after the reap (cgroup/leaf.c),
 * the one owner of these reads and writes; each is -1 with ENOENT when
 * there is no leaf. */
bool cgroup_has_leaf(const struct cgroup_plan *cg);
/* Hold the leaf still: frozen, no process in it runs, forks or exits,
 * even one sent SIGCONT, and only root may write cgroup.freeze.  The
 * wait for the freeze is bounded (100 ms).  Returns the hold to give
 * cgroup_unhold: 1 this call froze it, 0 it was held already (a hold
 * inside another: the outer one thaws), -1 with errno (no leaf, or no
 * freezer: before 5.2). */
int cgroup_hold(const struct cgroup_plan *cg);
void cgroup_unhold(const struct cgroup_plan *cg, int hold);
/* FN for every process in the leaf and the groups below it (NULL: only
 * count): the number of processes. */
int cgroup_each_pid(const struct cgroup_plan *cg, void (*fn)(pid_t, void *),
		    void *arg);
/* 1 while a process is in the leaf, 0 when it is empty. */
int cgroup_populated(const struct cgroup_plan *cg);
/* Wait at most MS ms for the leaf to empty: 0, or -1 (ETIMEDOUT). */
int cgroup_wait_empty(const struct cgroup_plan *cg, int ms);
/* SIGKILL the whole leaf: cgroup.kill, else freeze + kill + thaw. */
int cgroup_kill(const struct cgroup_plan *cg);
/* After the reap: kill leftovers if asked, remove our leaf once it is
 * empty (bounded wait: 1 s after SIGKILL, 0.1 s after another signal to
 * the leaf, else none); a leaf with leftovers stays.  Then, only when
 * the uid group has other leaves, sweep: empty leaves of the same uid
 * whose creator is gone are removed.  The uid groups are never removed.
 * Closes the descriptors. */
void cgroup_release(struct cgroup_plan *cg);

/* leash watch (lib/watch/): the uid groups of -u, found and made for
 * processes that leash did not start.  cgroup_watch_top: where they are
 * (cg's root option), for the allow-list; cgroup_watch_group: uid UID's
 * group made or found as -u makes it, with cg->weight written when
 * given, and *PROCS an O_WRONLY descriptor of the cgroup.procs watched
 * processes are written to: v1's uid_<uid> itself, v2's uid_<uid>/watch
 * (processes only in leaves).  No per-launch leaf.  -1 with *WHAT one
 * line, as cgroup_prepare's. */
struct cgroup_watch_top {
	int version;                    /* the cpu hierarchy's: 1 or 2 */
	bool hybrid;                    /* v1 cpu, and cgroup2 mounted */
	char rel[CGROUP_PATH_MAX];      /* R as /proc/PID/cgroup shows it */
};
int cgroup_watch_top(struct cgroup_plan *cg, struct cgroup_watch_top *t,
		     const char **what);
int cgroup_watch_group(struct cgroup_plan *cg, uid_t uid, int *procs,
		       const char **what);

/* The area's other public headers: with this one, its face. */
#include "cgroup/mountinfo.h"

#endif
