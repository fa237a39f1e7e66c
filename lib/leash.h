/* SPDX-License-Identifier: ISC */
/* leash.h: libleash, leash's launch-and-contain core for a host process
 * that cannot exec a supervisor (leash(3)).
 *
 * This header is the face of three areas of lib/, not a wrapper around
 * them: an attributes object is a spawn plan (lib/spawn/), a run is the
 * supervise loop of leash(1) driven from the host's own loop
 * (lib/supervise/), an outcome is what --report writes (lib/report/).
 * leash(1) is the library's first client: its -t, -u, report and
 * timeout personality go through leash_spawn's two halves and
 * leash_run_wait, with its process-wide steps (signals, subreaper, pty,
 * su) between the halves and as extra sources of the same loop.
 *
 * Shape, as posix_spawn(3): an attributes object grown by setters (the
 * ABI grows by new setters, never by a changed layout); an opaque run;
 * one pollable descriptor per run, a non-blocking dispatch and a
 * blocking wait, so a run fits a GLib (g_unix_fd_add), libuv (uv_poll)
 * or epoll loop.
 *
 * Promises, in any host:
 *  - every exported name starts with leash_; no global state: any number
 *    of runs at once, each used by one thread at a time (any thread);
 *  - no signal handler installed, no disposition changed, no other
 *    thread's mask touched; the calling thread's mask only around the
 *    clone, restored before the call returns;
 *  - only its own children reaped, through their pidfd (waitid P_PIDFD)
 *    where the kernel has pidfds; never waitpid(-1), never P_ALL;
 *    signals to the child through its pidfd, so a pid the host reaped
 *    and the kernel recycled is never signalled;
 *  - a child the host reaped first (its waitpid(-1), SIGCHLD ignored):
 *    the status is read back with PIDFD_GET_INFO (PIDFD_INFO_EXIT,
 *    Linux >= 6.15), and the outcome says LEASH_OUT_RECOVERED; where
 *    the kernel cannot, the result is LEASH_LOST, never a wrong status;
 *  - no thread, except where the kernel leaves no other way: without
 *    pidfd_open (Linux < 5.3, a seccomp profile refusing it) one thread
 *    per run blocks in waitid(P_PID, WNOWAIT) with every signal blocked
 *    and writes an eventfd the run's descriptor watches; the run joins
 *    it before it reaps;
 *  - nothing printed, no fd left without close-on-exec, no process-wide
 *    setting changed (subreaper, umask, cwd, rlimits, environment,
 *    timer slack, the host's process group);
 *  - no malloc, printf or qsort of its own: the host's libc serves it.
 * The host's part: not to reap the run's pid before the run does when
 * it wants the status on kernels before 6.15; not to touch a run from
 * a fork child.
 *
 * The command: born in a per-launch cgroup leaf where there is one
 * (clone3 CLONE_INTO_CGROUP, Linux >= 5.7); without a leaf and keeping
 * the caller's uid, made vfork-style (CLONE_VM | CLONE_VFORK, as libc's
 * posix_spawn: only the calling thread waits, until the exec, on 16 KiB
 * of its own stack; a PATH search for a long argv forks instead); as
 * another uid when asked
 * (root only: groups, gid, uid in the child, read back), in a process
 * group of its own; an empty signal mask and default dispositions at
 * exec.  The deadline: the signal to the tree (the leaf, else the
 * command's process group), SIGCONT after it, SIGKILL to the tree after
 * kill_after (cgroup.kill where there is one).  The outcome: the fields
 * of leash --report.
 *
 * Errors: calls return 0 (or a documented count) on success and
 * -errno on failure; they never exit, abort or print. */
#ifndef LEASH_PUBLIC_H
#define LEASH_PUBLIC_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LEASH_API_VERSION 1

/* LEASH_API_VERSION of the library linked in. */
unsigned leash_version(void);

typedef struct leash_attr leash_attr_t;
typedef struct leash_run leash_run_t;

/* ---- attributes ---- */

/* A new attributes object with the defaults: no deadline, the caller's
 * identity, no cgroup, PATH not searched.  -ENOMEM. */
int leash_attr_init(leash_attr_t **attr);
void leash_attr_destroy(leash_attr_t *attr);

/* The deadline: SIGNAL (0: SIGTERM) DURATION after leash_spawn, to the
 * whole tree, then SIGCONT; SIGKILL to the tree KILL_AFTER later (NULL
 * or zero: never).  DURATION NULL or zero: no deadline.  -EINVAL. */
int leash_attr_set_deadline(leash_attr_t *attr, int signal,
			    const struct timespec *duration,
			    const struct timespec *kill_after);

/* Run as UID with primary group GID and exactly the NGROUPS groups
 * (none: the supplementary list is emptied); capabilities dropped for a
 * uid other than 0, a fresh session keyring.  Needs CAP_SETUID and
 * CAP_SETGID; -EINVAL. */
int leash_attr_set_user(leash_attr_t *attr, uid_t uid, gid_t gid,
			size_t ngroups, const gid_t *groups);

/* The cgroup: MODE as leash --cgroup (OFF, the default; AUTO: the
 * per-uid cpu group and a leaf where one can be had; REQUIRE: or fail;
 * TRACK: a leaf in cgroup2 only, for the tree kill).  ROOT: the
 * delegated directory under which uid_<uid>/run_* are made (NULL:
 * <cgroup2 mount>/leash).  -EINVAL, -ENAMETOOLONG. */
enum leash_cgroup { LEASH_CGROUP_OFF, LEASH_CGROUP_AUTO,
		    LEASH_CGROUP_REQUIRE, LEASH_CGROUP_TRACK };
int leash_attr_set_cgroup(leash_attr_t *attr, enum leash_cgroup mode,
			  const char *root);

/* The uid group's cpu weight, 1..10000 (0: not written).  -EINVAL. */
int leash_attr_set_cpu_weight(leash_attr_t *attr, unsigned weight);

/* A limit on the leaf, as its cgroup2 file takes it ("max", "64M",
 * "50000 100000"): applied, or leash_spawn fails.  -EINVAL. */
enum leash_limit { LEASH_LIMIT_MEMORY_MAX, LEASH_LIMIT_PIDS_MAX,
		   LEASH_LIMIT_CPU_MAX };
int leash_attr_set_limit(leash_attr_t *attr, enum leash_limit which,
			 const char *value);

/* Working directory of the command (NULL: the host's).  -ENAMETOOLONG */
int leash_attr_set_cwd(leash_attr_t *attr, const char *dir);

/* Flags; unknown bits give -EINVAL, so a caller can test for one. */
#define LEASH_SEARCH_PATH       0x01u   /* PATH as execvp(3) */
#define LEASH_KILL_LEFTOVERS    0x02u   /* the leaf's leftovers die at exit */
#define LEASH_FOREGROUND        0x04u   /* the command alone, no group */
#define LEASH_WAIT_THREAD       0x08u   /* force the no-pidfd waiter (tests) */
#define LEASH_NO_CLONE3         0x10u   /* force fork + pidfd_open (tests) */
#define LEASH_FLAGS_ALL         0x1fu
int leash_attr_set_flags(leash_attr_t *attr, unsigned flags);

/* ---- a run ---- */

/* Start PATH with ARGV and ENVP (NULL: the host's environ) as ATTR
 * says; *RUN is the handle, to give leash_run_free.  0 once the child
 * exists (a failure in the child before exec is the outcome's
 * LEASH_FAILED); -errno when nothing was started (the leaf refused,
 * no memory, no fork), with nothing left behind. */
int leash_spawn(leash_run_t **run, const char *path, char *const argv[],
		char *const envp[], const leash_attr_t *attr);

/* The command's pid, for messages: signal it with leash_run_signal. */
pid_t leash_run_pid(const leash_run_t *run);

/* Readable when the run has something to do: poll it for POLLIN, then
 * call leash_run_dispatch.  Made by the first call (-1 with errno when
 * it cannot be: EMFILE), then the same for the run's life; a host that
 * only calls leash_run_wait never has one. */
int leash_run_fd(const leash_run_t *run);

/* Do what is due, without blocking: the deadline's signals, the exit.
 * 0 while the command runs, 1 once it ended (reaped, its leaf removed,
 * the outcome ready), -errno. */
int leash_run_dispatch(leash_run_t *run);

/* Block until the run ends or TIMEOUT_MS passes (-1: no bound): 1
 * ended, 0 still running, -errno. */
int leash_run_wait(leash_run_t *run, int timeout_ms);

/* SIG to the command (flags 0) or its whole tree (LEASH_SIGNAL_TREE),
 * recorded in the outcome.  -ESRCH once it ended. */
#define LEASH_SIGNAL_TREE 0x1u
int leash_run_signal(leash_run_t *run, int sig, unsigned flags);

/* End a run: still going, the tree is killed and reaped first, its leaf
 * removed.  NULL is nothing. */
void leash_run_free(leash_run_t *run);

/* ---- the outcome: leash --report's fields ----
 * leash(1) writes its --report from this structure: what the report
 * says of a run, a host reads here; leash(1) adds only what it alone
 * knows (its command line, identity, cgroup paths, pty, --idle). */

enum leash_result {
	LEASH_RUNNING,          /* not ended yet */
	LEASH_EXITED,           /* status: the exit status */
	LEASH_SIGNALED,         /* status: the signal (not leash's) */
	LEASH_TIMEOUT,          /* ended after the deadline's signal */
	LEASH_KILLED_AFTER,     /* ended by the KILL after kill_after */
	LEASH_OOM_KILLED,       /* the OOM killer, in its leaf */
	LEASH_FAILED,           /* failed before exec: stage, error */
	LEASH_LOST,             /* reaped by the host; the kernel cannot
				 * tell the status (before 6.15, or
				 * no pidfd) */
};

enum leash_stage {              /* where a LEASH_FAILED child stopped */
	LEASH_STAGE_NONE, LEASH_STAGE_EXEC, LEASH_STAGE_SESSION,
	LEASH_STAGE_CGROUP, LEASH_STAGE_IDENTITY, LEASH_STAGE_PDEATHSIG,
	LEASH_STAGE_CHDIR, LEASH_STAGE_SIGMASK,
};

enum leash_tree {               /* how the tree was reached */
	LEASH_TREE_NONE,        /* LEASH_FOREGROUND: the command alone */
	LEASH_TREE_GROUP,       /* its process group: setsid escapees live */
	LEASH_TREE_CGROUP,      /* every process of its leaf */
	LEASH_TREE_SUBREAPER,   /* leash(1) only: the processes under it as
				 * a subreaper (a host's run never is one) */
};

/* Why a signal went out. */
enum leash_why { LEASH_WHY_DEADLINE, LEASH_WHY_KILL_AFTER,
		 LEASH_WHY_CALLER, LEASH_WHY_LEFTOVERS,
		 /* leash(1)'s own (a host's run never sends them): the end
		  * of a pty session, --warn, --idle and --stall. */
		 LEASH_WHY_SESSION_END, LEASH_WHY_WARN, LEASH_WHY_IDLE,
		 LEASH_WHY_STALL };

#define LEASH_OUT_RECOVERED     0x1u    /* status from PIDFD_INFO_EXIT */
#define LEASH_OUT_CPU_CGROUP    0x2u    /* CPU: the leaf's cpu.stat */
#define LEASH_OUT_CPU_RUSAGE    0x4u    /* CPU: the child's rusage */
#define LEASH_OUT_LEFT_SEEN     0x8u    /* leftovers were looked for */
#define LEASH_OUT_SIGNAL        0x10u   /* status is the signal it died of
					 * (else its exit status) */
#define LEASH_OUT_CORE          0x20u   /* ... and it dumped core */
#define LEASH_OUT_MEASURED      0x40u   /* the leaf's counters were read */

/* Fallbacks the run took (the report's "fallbacks"). */
#define LEASH_FALLBACK_THREAD   0x001u  /* no waiter thread */
#define LEASH_FALLBACK_PIDFD    0x002u  /* no pidfd: the waiter thread */
#define LEASH_FALLBACK_CLONE3   0x004u  /* fork, then join the leaf */
#define LEASH_FALLBACK_TIMERFD  0x008u
#define LEASH_FALLBACK_KEYRING  0x040u
#define LEASH_FALLBACK_CGROUP_KILL 0x080u
/* leash(1)'s own (a host's run never takes them). */
#define LEASH_FALLBACK_SIGNALFD 0x010u
#define LEASH_FALLBACK_SUBREAPER 0x020u
#define LEASH_FALLBACK_CLOSE_RANGE 0x100u

#define LEASH_OUT_MAX_SIGNALS 16
#define LEASH_OUT_MAX_LEFT 16
#define LEASH_OUT_MAX_FAILED 8

struct leash_signal_sent {
	int sig;
	int why;                        /* enum leash_why */
	struct timespec at;             /* since leash_spawn */
	unsigned procs;                 /* processes it reached */
};

/* A process the command left running (LEASH_OUT_LEFT_SEEN). */
struct leash_leftover {
	pid_t pid;
	char name[16];                  /* its comm, as the kernel has it */
};

/* Where a signal could not be delivered. */
enum leash_target { LEASH_TARGET_COMMAND, LEASH_TARGET_TREE,
		    LEASH_TARGET_CGROUP };

struct leash_kill_failed {
	int sig;
	int target;                     /* enum leash_target */
	int error;                      /* errno */
};

/* Filled by leash_run_outcome up to the SIZE the caller passes (fields
 * are only ever appended): build against a newer header, run against
 * an older library, and the fields it does not know stay as you set. */
struct leash_outcome {
	size_t size;                    /* bytes the library filled */
	int result;                     /* enum leash_result */
	int status;                     /* exit status, or signal number */
	int stage;                      /* enum leash_stage (FAILED) */
	int error;                      /* errno of the failure (FAILED) */
	pid_t pid;
	unsigned flags;                 /* LEASH_OUT_* */
	unsigned fallbacks;             /* LEASH_FALLBACK_* */
	int tree;                       /* enum leash_tree */
	struct timespec wall;           /* spawn to reap */
	long long user_us, system_us;   /* the tree's CPU; -1 unknown */
	unsigned nsignals;              /* signals sent (sent[] holds the
					 * first LEASH_OUT_MAX_SIGNALS) */
	struct leash_signal_sent sent[LEASH_OUT_MAX_SIGNALS];
	unsigned leftovers_seen;        /* running when the command ended */
	unsigned leftovers_killed;
	/* The leaf's counters; -1 without a leaf or such a counter. */
	long long memory_peak, oom_kills, pids_peak, throttled_us;
	/* Appended after API 1's first release (an older caller's SIZE
	 * stops before them): the first leftovers_seen leftovers, and the
	 * deliveries that failed, as --report lists them. */
	struct leash_leftover left[LEASH_OUT_MAX_LEFT];
	unsigned nkills_failed;
	struct leash_kill_failed kills_failed[LEASH_OUT_MAX_FAILED];
};

/* The outcome so far into *OUT (SIZE: sizeof *OUT).  -EINVAL. */
int leash_run_outcome(const leash_run_t *run, struct leash_outcome *out,
		      size_t size);

/* "exited", "timeout", ... as --report names a result; "" unknown. */
const char *leash_result_name(int result);

#ifdef __cplusplus
}
#endif

#endif
