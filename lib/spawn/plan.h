/* SPDX-License-Identifier: ISC */
/* plan: everything cmd/ decided, handed to spawn and supervise. */
#ifndef LEASH_PLAN_H
#define LEASH_PLAN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "cgroup/cgroup.h"
#include "ident/ident.h"
#include "terminal/terminal.h"

#define PLAN_MAX_WARN 8

/* How the signal reaches the whole tree (DESIGN.md, Supervision). */
enum tree_kill {
	TREE_NONE,              /* --foreground: the command alone */
	TREE_GROUP,             /* its process group (GNU) */
	TREE_SUBREAPER,         /* every descendant, walked from leash */
	TREE_CGROUP,            /* every process of the invocation's leaf */
};

struct plan {
	/* What to run: FILE is looked up as GNU's execvp does (PATH search
	 * when it has no slash); ARGV[0] is what the command sees. */
	const char *file;
	char **argv;
	char **envp;            /* NULL: the caller's environment */
	const char *chdir;      /* NULL: stay where we are */
	struct workdir_fallback chdir_fallback;  /* -l: HOME may be missing */

	/* Deadline: a zero timespec means none. */
	struct timespec duration;
	struct timespec kill_after;
	/* Set by run_plan: the absolute deadline (LEASH_CLOCK; zero: none),
	 * the earlier of DURATION's and an inherited LEASH_DEADLINE
	 * (DEADLINE_INHERITED then).  EXPORT_DEADLINE: the command's
	 * environment gets it (native; timeout adds nothing, as GNU's). */
	struct timespec deadline;
	bool deadline_inherited;
	bool export_deadline;
	struct timespec started;        /* LEASH_CLOCK, the deadline's origin */
	/* Progress (native): --warn's signals, each sent BEFORE the
	 * deadline in force, once; --idle, no output for that long, and
	 * --stall, no CPU in the tree for that long, end the command as the
	 * deadline does (zero: not watched). */
	struct plan_warn {
		int sig;
		struct timespec before;
		const char *arg;        /* as given, for messages */
	} warn[PLAN_MAX_WARN];
	unsigned nwarn;
	struct timespec idle;
	struct timespec stall;
	/* Set by run_plan for --idle without a pty: the command's stdout
	 * and stderr go through pipes leash relays (terminal/relay.h). */
	struct pipes *pipes;
	pid_t self;             /* leash's pid, read once (set by run_plan) */
	int term_signal;
	int pdeath_signal;      /* the command's when leash dies (timeout: -s) */
	bool foreground;        /* signal the command's pid only, no CONT */
	bool lead_group;        /* setpgid(0, 0) on leash before the fork (GNU);
				 * the command shares it unless new_session */
	bool preserve_status;
	bool verbose;
	/* Native: a deadline without -k at a command that ignores its
	 * signal (an interactive shell, TERM) is said, with -k's help. */
	bool hint_kill_after;
	/* Native: the whole tree dies (a cgroup leaf, else leash as a child
	 * subreaper); timeout and su keep GNU's and util-linux's group. */
	bool tree_kill_wanted;
	/* Set by run_plan: how the tree is reached, and whether leash is a
	 * subreaper (PR_SET_CHILD_SUBREAPER before the fork). */
	enum tree_kill tree_kill;
	bool subreaper;
	/* Native: a report or -v summary wants the tree's CPU (account). */
	bool account;
	/* Why there is no cgroup, for the warning about a dropped option
	 * (NULL: not known); --cgroup-root was given as an option. */
	const char *cg_why_none;
	bool cg_root_asked;

	/* Who and where. */
	struct ident id;
	bool new_session;       /* setsid() in the child (uid change) */
	/* A pty for an interactive session (Terminal in DESIGN.md): whether
	 * one is wanted (pty_candidate: the uid changes and the session is
	 * the kind a pty protects), and, set by run_plan, the one in use. */
	enum pty_mode pty_mode;
	bool pty_candidate;
	/* --idle with fd 1 or 2 a terminal: a pty keeps the command's stdio
	 * line-buffered, as at the terminal, while leash sees its output. */
	bool pty_idle;
	struct pty *pty;
	/* No pty to be had for another uid: the std fds that are terminals
	 * become /dev/null in the child (pty_null_terminals). */
	bool tty_to_null;

	/* A session ended from outside: the signals in END_SIGNALS (a pty
	 * session's HUP; su's TERM, INT, QUIT) are forwarded as any other,
	 * then, if the command has not ended within END_GRACE, it is killed
	 * (util-linux su's 2 s); END_SAY prints su's two lines about it;
	 * END_FORWARD is what they are passed on as (0: themselves; HUP always
 * goes on as itself). */
	sigset_t end_signals;
	struct timespec end_grace;
	bool end_say;
	int end_forward;

	/* A signal death of the command: true -> exit 128+N (su), false ->
	 * re-raise it on ourselves with core dumps off (timeout, leash). */
	bool signal_as_status;

	/* libleash (leash.h): the run lives inside a host process.  Nothing
	 * process-wide is touched (no signalfd, no timer slack, no word
	 * printed); the child is made with its pidfd (clone3 CLONE_PIDFD,
	 * else fork and pidfd_open), signalled and reaped through it, and
	 * starts with an empty mask and default dispositions.  OWN_GROUP:
	 * the child leads a process group of its own, the tree's signals
	 * go there (no leaf).  NO_CLONE3: the fork path, forced (tests). */
	bool in_host;
	bool own_group;
	bool no_clone3;
	bool exec_direct;       /* execve FILE as given, no PATH search */

	/* Last: its paths are 24 KiB that a launch without a cgroup never
	 * touches; the fields above share the plan's first page. */
	struct cgroup_plan cg;
};

#endif
