/* SPDX-License-Identifier: ISC */
/* supervise: one loop in the main thread waits for the child's exit, the
 * deadline or a signal to forward.  Each event source owns one fd and
 * one handler (signalfd, deadline timer, waiter, the pty relay, --idle's
 * pipes, the progress timer); the loop polls the
 * table and dispatches.  Nothing runs asynchronously, so nothing can act
 * on a pid after the single reap at the end. */
#define _GNU_SOURCE
#include "supervise/supervise.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "diag/diag.h"
#include "supervise/progress.h"
#include "supervise/reaper.h"
#include "terminal/terminal.h"
#include "time/time.h"
#include "signal/signal.h"
#include "sys/sys.h"

/* Every signal whose default action ends a process (GNU timeout 9.11's
 * list); leash forwards them to the command instead of dying. */
static const int term_signals[] = {
	SIGALRM, SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2,
	SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGXCPU, SIGXFSZ,
	SIGSYS, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
};

/* SIGALRM (an outside ALRM is an expiry) and the -s signal are leash's
 * to handle even when the caller ignored them (GNU 9.11's "We can't
 * ignore these"): else a caller's `trap '' TERM` voids the deadline.
 * Signals the kernel or leash's own design reserve are left alone. */
static bool must_handle(int sig, int term_signal)
{
	if (sig == SIGALRM)
		return true;
	return sig == term_signal && sig != SIGKILL && sig != SIGSTOP &&
	       sig != SIGCHLD && sig != SIGTTIN && sig != SIGTTOU && sig != 0;
}

/* Every signal leash may forward is blocked and read from the signalfd;
 * one the caller ignored is dropped when it comes (on_signals), which is
 * what the kernel did to it before it was blocked.  The kernel's calls
 * (sigraw.h): libc's refuse the numbers it keeps, and -s 34 is glibc's
 * RTMIN. */
static void handle(struct sigstate *ss, int sig, int term_signal)
{
	/* Never blocked: lib/signal/sigsys.c catches it (supervise_prepare). */
	if (sig == SIGSYS)
		return;
	/* Default, not ignored: the command gets it that way too (at exec
	 * a disposition is the default or SIG_IGN, so this changes only an
	 * ignored one). */
	if (must_handle(sig, term_signal))
		sigraw_default(sig);
	sigraw_add(&ss->handled, sig);
}

int supervise_prepare(const struct plan *plan, struct sigstate *ss)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	/* Lead a group of our own, which the command inherits: signals to
	 * it reach the whole job, and at a prompt it stays the terminal's
	 * foreground job.  EPERM (leash leads a session already, so it
	 * leads its group too) is no failure, as for GNU. */
	if (plan->lead_group)
		setpgid(0, 0);
	/* An inherited SIG_IGN (or SA_NOCLDWAIT) would let the kernel reap
	 * the child behind our back and unpin its pid. */
	if (sigaction(SIGCHLD, &dfl, NULL) < 0)
		return -1;
	/* A background job reading the tty must not stop leash itself. */
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	sigemptyset(&ss->handled);
	for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++)
		handle(ss, term_signals[i], plan->term_signal);
	/* The real-time signals as GNU on glibc has them, from 34. */
	for (int sig = SIGRAW_RTMIN; sig <= SIGRTMAX; sig++)
		handle(ss, sig, plan->term_signal);
	if (!sigismember(&ss->handled, plan->term_signal))
		handle(ss, plan->term_signal, plan->term_signal);
	/* SIGSYS from outside comes through lib/signal/sigsys.c instead. */
	sigsys_forward(plan->self, must_handle(SIGSYS, plan->term_signal));
	/* The command's SIGCHLD wakes the main thread at its exit, while
	 * the waiter thread wakes too: the thread's news then finds it awake
	 * instead of waking an idle CPU after the thread ran.  A subreaper's
	 * adopted children announce their exit the same way. */
	sigaddset(&ss->handled, SIGCHLD);
	/* Signals ignored at start stay ignored for the command (inherited)
	 * and are not forwarded (on_signals): nohup keeps working. */
	return sigraw_mask(SIG_BLOCK, &ss->handled, &ss->orig_mask);
}

int supervise_watch_terminal(struct sigstate *ss)
{
	sigset_t more;

	sigemptyset(&more);
	sigaddset(&more, SIGCHLD);
	sigaddset(&more, SIGWINCH);
	sigaddset(&more, SIGTSTP);
	sigaddset(&more, SIGCONT);
	sigorset(&ss->handled, &ss->handled, &more);
	return sigprocmask(SIG_BLOCK, &more, NULL);
}


static void tally_failed(struct watch *w, int sig, int err, const char *what)
{
	struct tally *t = w->tally;
	char name[16];

	if (!w->plan->in_host)
		diag_warn_errno(err, "cannot send signal %s to every process "
				"of the command (%s)",
				signal_name(sig, name, sizeof name), what);
	if (t->nfailed < TALLY_MAX_FAILED)
		t->failed[t->nfailed++] = (struct tally_failed){ sig, err, what };
}

static void tally_sent(struct watch *w, int sig, enum tally_why why,
		       unsigned procs)
{
	tally_sent_add(w->tally, sig, why, timespec_since(&w->plan->started),
		       procs);
}

/* SIG to the command itself: through its pidfd when there is one, so a
 * pid a host reaped and the kernel gave to another is never reached. */
static int child_kill(const struct watch *w, int sig)
{
	if (w->pidfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, w->pidfd, sig,
				    NULL, 0U);
	return kill(w->pid, sig);
}

static void say_sending(const struct watch *w, int sig, enum tally_why why)
{
	char name[16];

	diag_warn("sending %ssignal %s to command %s%s",
		  why == TALLY_WARN ? "warning " : "",
		  signal_name(sig, name, sizeof name),
		  DIAG_QUOTE(w->plan->argv[0]),
		  why == TALLY_IDLE ? ": no output for the --idle time" :
		  why == TALLY_STALL ? ": no CPU used for the --stall time" : "");
}

/* Where group signals go: the child's own session (a uid change), else
 * the group leash leads and shares with it; 0 in *TO means none. */
static bool group_of(const struct watch *w, pid_t *to)
{
	const struct plan *p = w->plan;

	if (p->new_session || p->own_group)
		return *to = -w->pid, true;
	*to = 0;
	return p->lead_group;
}

/* kill(0, SIG) reaches leash too: the signalfd drops it (sent by us), and
 * later arrivals of SIG are dropped as GNU's SIG_IGN drops them.  Not
 * before the waiter thread blocks it (waiter_settle). */
static void to_group(struct watch *w, pid_t to, int sig)
{
	if (to == 0) {
		sigraw_add(&w->to_group, sig);
		waiter_settle(&w->waiter);
	}
	kill(to, sig);
}

/* The leaf held still (cgroup2's freezer: nobody forks or exits) while
 * a signal goes out, its members counted before any of it is sent: the
 * signal reaches exactly them, the command included, even one that
 * dies of it at once.  *HOLD: to give cgroup_unhold after; without a
 * freezer (before 5.2) the count is taken all the same, just before the
 * sending. */
static unsigned leaf_hold_count(const struct watch *w, int *hold)
{
	const struct cgroup_plan *cg = &w->plan->cg;
	int n;

	*hold = cgroup_hold(cg);
	n = cgroup_each_pid(cg, NULL, NULL);
	/* An exited command is in it no more: a KILL due after it ended
	 * reaches only what it left. */
	if (w->waiter.exited)
		return n > 0 ? (unsigned)n : 0;
	return n > 1 ? (unsigned)n : 1;
}

/* The cgroup leaf: every process in it, then CONT. */
static void deliver_cgroup(struct watch *w, int sig)
{
	const struct cgroup_plan *cg = &w->plan->cg;

	if (sig == SIGKILL) {
		if (cgroup_kill(cg) < 0)
			tally_failed(w, sig, errno, "cgroup");
	} else if (cgroup_signal(cg, sig) < 0) {
		tally_failed(w, sig, errno, "cgroup");
	} else if (sig != SIGCONT) {
		cgroup_signal(cg, SIGCONT);
	}
}

/* Without a leaf: every descendant leash finds from its children; the
 * members of group TO (0: ours) had SIG already (KILL to ours waits for
 * the end, so the walk sends KILL to them too). */
static unsigned deliver_tree(struct watch *w, int sig, pid_t to)
{
	unsigned found = 0;

	if (reaper_signal(&w->reaper, sig, to < 0 ? -to : getpgrp(), &found) < 0)
		tally_failed(w, sig, errno, "tree");
	/* The command, unless it has exited: a KILL due after it ended
	 * reaches only what it left. */
	return (w->waiter.exited ? 0 : 1) + found;
}

/* Send SIG as GNU timeout does: the pid (it may lead a group of its
 * own), the group, then CONT so a stopped command sees it; then the
 * cgroup leaf or, without one, every descendant, which also reaches
 * those that left the group.  Only called while the child is unreaped,
 * so w->pid is still ours. */
static void deliver(struct watch *w, int sig, enum tally_why why)
{
	const struct plan *p = w->plan;
	unsigned procs = 1;
	bool tree;
	int hold = -1;
	pid_t to;

	if (!duration_is_zero(&w->kill_after)) {
		/* The KILL timer starts with the first signal, once. */
		w->next_signal = SIGKILL;
		w->kill_armed = true;
		timer_arm_in(&w->timer, &w->kill_after);
		w->kill_after = (struct timespec){ 0, 0 };
	}
	if (p->verbose)
		say_sending(w, sig, why);
	/* --foreground: the command alone, as GNU does. */
	tree = !p->foreground && group_of(w, &to);
	if (tree && p->tree_kill == TREE_CGROUP)
		procs = leaf_hold_count(w, &hold);
	if (child_kill(w, sig) < 0)
		tally_failed(w, sig, errno, "command");
	if (!tree) {
		tally_sent(w, sig, why, procs);
		return;
	}
	/* The walk before the group's signal, so it sees the tree whole
	 * (it leaves the group's members to the group's signal). */
	if (p->tree_kill == TREE_SUBREAPER)
		procs = deliver_tree(w, sig, to);
	if (sig == SIGKILL) {
		/* KILL to our own group would end leash before it reaps and
		 * removes the leaf: it goes there at the end (outcome).  Once
		 * the command has ended, the KILL is its leftovers' alone. */
		w->sent_kill = !w->waiter.exited;
		if (to != 0)
			kill(to, sig);
	} else {
		to_group(w, to, sig);
	}
	if (sig != SIGKILL && sig != SIGCONT) {
		child_kill(w, SIGCONT);
		to_group(w, to, SIGCONT);
	}
	/* Then what left the group, as GNU's order had it: the leaf. */
	if (p->tree_kill == TREE_CGROUP && sig != 0)
		deliver_cgroup(w, sig);
	cgroup_unhold(&p->cg, hold);
	tally_sent(w, sig, why, procs);
}

/* --warn: SIG to each process of the tree once (a handler that saves
 * the job's state must not run twice: the command is in the group the
 * group's signal reaches, the leaf's members are not), no CONT after it
 * to the command or its group (a warning does not continue a job its
 * user stopped), and -k's grace still waits for the deadline. */
static void deliver_warning(struct watch *w, int sig)
{
	const struct plan *p = w->plan;
	unsigned procs = 1;
	int hold = -1;
	pid_t to = 0;
	bool tree = !p->foreground && group_of(w, &to);

	if (p->verbose)
		say_sending(w, sig, TALLY_WARN);
	if (tree && p->tree_kill == TREE_CGROUP)
		procs = leaf_hold_count(w, &hold);
	else if (tree && p->tree_kill == TREE_SUBREAPER)
		procs = deliver_tree(w, sig, to);
	if ((!tree || p->tree_kill == TREE_CGROUP ||
	     getpgid(w->pid) != (to < 0 ? -to : getpgrp())) &&
	    child_kill(w, sig) < 0)
		tally_failed(w, sig, errno, "command");
	if (tree && p->tree_kill == TREE_CGROUP) {
		if (cgroup_signal(&p->cg, sig) < 0)
			tally_failed(w, sig, errno, "cgroup");
		cgroup_unhold(&p->cg, hold);
	} else if (tree) {
		to_group(w, to, sig);
	}
	tally_sent(w, sig, TALLY_WARN, procs);
}

/* A deadline without -k ends nothing when the command ignores its
 * signal, as an interactive shell ignores TERM: said once, at once (not
 * under -v only: who typed -t waits for an end that will not come),
 * with the way out.  With a pty the command is its foreground job. */
static void hint_ignored(const struct watch *w, int sig)
{
	static bool said;
	pid_t pid = w->pid, fg;
	char name[16];

	if (said || !w->plan->hint_kill_after || w->kill_armed)
		return;
	if (w->plan->pty && (fg = tcgetpgrp(w->plan->pty->master)) > 0)
		pid = fg;
	if (!sigign_by(pid, sig))
		return;
	said = true;
	diag_warn("the command ignores %s and runs on past the deadline: "
		  "add -k DURATION to send KILL after it",
		  signal_name(sig, name, sizeof name));
}

static void expire(struct watch *w)
{
	bool grace_over = w->kill_armed;
	enum tally_why why = grace_over ? w->timed_out ? TALLY_KILL_AFTER :
							 TALLY_SESSION_END :
			     w->fired == PROGRESS_IDLE ? TALLY_IDLE :
			     w->fired == PROGRESS_STALL ? TALLY_STALL :
			     TALLY_DEADLINE;
	int sig = w->next_signal;

	/* A session ended from outside is killed, not timed out. */
	if (why != TALLY_SESSION_END)
		w->timed_out = true;
	if (grace_over)
		w->sent_kill_after = true;
	/* The end has come: no warning, silence or pause counts now. */
	progress_stop(&w->progress);
	deliver(w, sig, why);
	if (!grace_over)
		hint_ignored(w, sig);
}

/* Source: the deadline (and then the -k) timer. */
static void on_timer(struct watch *w)
{
	if (timer_expired(&w->timer))
		expire(w);
}

/* Idle or stalled: the end comes now, as at the deadline, through the
 * deadline's own timer (armed at once), so it is sent once, with -k's
 * grace after it, and the deadline does not come again. */
static void end_now(struct watch *w, enum progress_due why)
{
	struct timespec now;

	w->fired = why;
	progress_stop(&w->progress);
	clock_now(LEASH_CLOCK, &now);
	timer_arm_at(&w->timer, &now);
}

/* The output the relays saw last, for --idle. */
static void feed_output(struct watch *w)
{
	if (w->relay)
		progress_output(&w->progress, &w->relay->last_out);
	if (w->pipes)
		progress_output(&w->progress, &w->pipes->last_out);
}

/* Source: the progress timer (--warn, --idle, --stall). */
static void on_progress(struct watch *w)
{
	enum progress_due due;
	int sig = 0;

	feed_output(w);
	while ((due = progress_next(&w->progress, &sig)) == PROGRESS_WARN)
		deliver_warning(w, sig);
	/* An end already on its way (a session ended from outside, its
	 * grace counting) is not hurried. */
	if (due != PROGRESS_NONE && !w->kill_armed)
		end_now(w, due);
	else if (due != PROGRESS_NONE)
		progress_stop(&w->progress);
}

/* KILL at AT at the latest: the timer holds the earliest expiry. */
static void kill_by(struct watch *w, const struct timespec *at)
{
	if (w->timer.armed && !timespec_before(at, &w->timer.at)) {
		if (w->kill_armed)
			return;
		at = &w->timer.at;
	}
	w->next_signal = SIGKILL;
	w->kill_armed = true;
	w->kill_after = (struct timespec){ 0, 0 };
	timer_arm_at(&w->timer, at);
}

/* The session ends from outside (an end signal, or the caller's terminal
 * hung up): the command has the grace to end, then it is killed. */
static void end_session(struct watch *w, int sig)
{
	static const char said[] = "\nSession terminated, killing shell...";
	struct timespec at;

	if (w->ended_by || duration_is_zero(&w->plan->end_grace))
		return;
	w->ended_by = sig;
	if (w->plan->end_say)
		diag_put(said);
	clock_now(LEASH_CLOCK, &at);
	timespec_add(&at, &w->plan->end_grace);
	kill_by(w, &at);
}

/* Would a stop of ours be undone?  Only a job-control shell continues
 * a stopped job: the first ancestor outside our group, in our session.  Else
 * (an orphaned group) nobody would, as the kernel knows when it drops
 * a terminal's ^Z for such a group. */
static bool stop_is_undone(void)
{
	pid_t pgrp = getpgrp(), up = getppid();

	/* Up past the ancestors in our own group (`sh -c 'leash ...'`). */
	for (int i = 0; i < 16 && up > 1 && getpgid(up) == pgrp; i++)
		up = proc_parent(up);
	return up > 1 && getsid(up) == getsid(0) && getpgid(up) != pgrp;
}

/* The command stopped inside its pty (^Z, `kill -STOP $$`), and its
 * monitor (our child) with it: give the caller its terminal back and
 * stop leash's own job, as sudo does, so the caller's shell sees a
 * stopped job; `fg` continues leash, which takes the terminal again and
 * continues the monitor, which continues the command.  Root keeps the
 * upper hand meanwhile: the leaf is frozen (the target's own SIGCONT
 * cannot run it) and a timer continues leash at the deadline, which
 * fires on time, before anything is thawed.  A stop nobody would undo
 * is not taken. */
static void suspend_session(struct watch *w)
{
	const struct cgroup_plan *cg = &w->plan->cg;
	struct pty *p = w->relay->pty;
	struct wake wake = { .armed = false };
	int hold = -1;

	relay_suspend(w->relay);
	if (!stop_is_undone() ||
	    (w->timer.armed && wake_arm(&wake, &w->timer.at) < 0)) {
		kill(w->pid, SIGCONT);
		return;
	}
	pty_restore(p);
	if (w->plan->tree_kill == TREE_CGROUP)
		hold = cgroup_hold(cg);
	/* STOP, not TSTP: TSTP is blocked here (read from the signalfd). */
	kill(0, SIGSTOP);
	wake_disarm(&wake);
	/* Woken for the deadline: its signal goes out while the leaf is
	 * still frozen and the monitor stopped, so nothing of the command
	 * runs before it does. */
	on_timer(w);
	cgroup_unhold(cg, hold);
	relay_resume(w->relay);
	pty_raw(p);
	pty_sync_size(p);
	progress_resumed(&w->progress);
	kill(w->pid, SIGCONT);
}

static void on_child_change(struct watch *w)
{
	siginfo_t si;

	si.si_pid = 0;
	if (waitid(P_PID, (id_t)w->pid, &si, WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == w->pid && si.si_code == CLD_STOPPED)
		suspend_session(w);
}

/* Signals that only matter with a pty; true when SIG was one of them. */
static bool on_terminal_signal(struct watch *w, int sig)
{
	switch (sig) {
	case SIGWINCH: pty_sync_size(w->relay->pty); return true;
	/* Told to stop from outside: the monitor stops the command, then
	 * itself, and we follow (suspend_session). */
	case SIGTSTP: kill(w->pid, SIGTSTP); return true;
	case SIGCONT:
		relay_resume(w->relay);
		pty_raw(w->relay->pty);
		pty_sync_size(w->relay->pty);
		return true;
	}
	return false;
}

/* Pending signals, up to MAX, with sender and si_code: from the
 * signalfd, one read for them all, or, where there is none (a seccomp
 * profile refusing signalfd4), taken one by one with a zero sigtimedwait:
 * the loop then wakes every 100 ms.  Fewer than MAX: none is left. */
static int next_signals(struct watch *w, struct signalfd_siginfo *si,
			int max)
{
	const struct timespec zero = { 0, 0 };
	siginfo_t one;
	int n = 0;

	if (w->sfd >= 0) {
		ssize_t got = read(w->sfd, si, (size_t)max * sizeof *si);
		return got > 0 ? (int)((size_t)got / sizeof *si) : 0;
	}
	for (; n < max && sigtimedwait(w->handled, &one, &zero) > 0; n++)
		si[n] = (struct signalfd_siginfo){ .ssi_signo = (uint32_t)one.si_signo,
			.ssi_pid = (uint32_t)one.si_pid, .ssi_code = one.si_code };
	return n;
}

/* One signal.  ALRM from outside counts as expiry; SIGCHLD is the
 * subreaper's and the pty's when there are, else a wake-up only. */
static void on_signal(struct watch *w, int sig, pid_t from, int code)
{
	/* Our own group signals, and SIGPIPE from our own -v line on a
	 * closed pipe: passing them on would breed more. */
	if (from == w->self)
		return;
	if (sig == SIGCHLD) {
		if (w->plan->subreaper)
			reaper_child_signal(&w->reaper, from, code);
		if (w->relay)
			on_child_change(w);
		return;         /* else only a wake-up: the waiter tells */
	}
	if (w->relay && on_terminal_signal(w, sig))
		return;
	/* Ignored by the caller: dropped, as GNU's SIG_IGN drops it. */
	if (!must_handle(sig, w->plan->term_signal) && sigign_is(sig))
		return;
	if (sig == SIGALRM) {
		expire(w);
		return;
	}
	if (sigismember(&w->plan->end_signals, sig)) {
		/* util-linux su passes TERM on, whichever of its signals it
		 * caught; HUP, the pty's end signal, not util-linux's, goes on
		 * as itself: an interactive shell ignores TERM, not a hangup. */
		int fwd = w->plan->end_forward && sig != SIGHUP ?
			  w->plan->end_forward : sig;

		deliver(w, fwd, TALLY_FORWARDED);
		end_session(w, sig);
	} else if (!sigismember(&w->to_group, sig)) {
		deliver(w, sig, TALLY_FORWARDED);
	}
}

/* Source: the signals, a batch at a time; a batch that is not full took
 * all there was, so a wake-up for one signal reads once. */
#define SIGNAL_BATCH 4

static void on_signals(struct watch *w)
{
	struct signalfd_siginfo si[SIGNAL_BATCH];
	int n;

	do {
		n = next_signals(w, si, SIGNAL_BATCH);
		for (int i = 0; i < n; i++)
			on_signal(w, (int)si[i].ssi_signo, (pid_t)si[i].ssi_pid,
				  si[i].ssi_code);
	} while (n == SIGNAL_BATCH);
}

/* One source of the loop: an fd, what to wait for, what to do. */
struct source {
	struct pollfd pfd;
	void (*ready)(struct watch *w, short revents);
};

static void on_signals_src(struct watch *w, short revents)
{
	(void)revents;
	on_signals(w);
}

static void on_timer_src(struct watch *w, short revents)
{
	(void)revents;
	on_timer(w);
}

static void on_term_src(struct watch *w, short revents)
{
	(void)revents;
	relay_from_term(w->relay);
	/* The caller's terminal is gone: so is the session. */
	if (w->relay->hung_up)
		end_session(w, SIGHUP);
}

static void on_out_src(struct watch *w, short revents)
{
	(void)revents;
	relay_to_term(w->relay);
}

static void on_waiter_src(struct watch *w, short revents)
{
	(void)revents;
	waiter_ready(&w->waiter);
}

static void on_master_src(struct watch *w, short revents)
{
	relay_from_master(w->relay, revents);
}

static void on_progress_src(struct watch *w, short revents)
{
	(void)revents;
	on_progress(w);
}

static void on_pipe_src(struct watch *w, short revents)
{
	(void)revents;
	pipes_from_command(w->pipes, 0);
}

static void on_pipe2_src(struct watch *w, short revents)
{
	(void)revents;
	pipes_from_command(w->pipes, 1);
}

static void on_sink_src(struct watch *w, short revents)
{
	(void)revents;
	pipes_to_sink(w->pipes, 0);
}

static void on_sink2_src(struct watch *w, short revents)
{
	(void)revents;
	pipes_to_sink(w->pipes, 1);
}

#define NSOURCES 11

/* The table, in order: signals first, so a deadline or a signal is
 * never starved by a busy pty. */
static int sources(const struct watch *w, struct source *s)
{
	int n = 0;

	s[n++] = (struct source){ { w->sfd, POLLIN, 0 }, on_signals_src };
	s[n++] = (struct source){ { w->timer.fd, POLLIN, 0 }, on_timer_src };
	/* Once it told the exit, a pidfd stays readable: off the table. */
	s[n++] = (struct source){ { w->waiter.exited ? -1 : w->waiter.fd,
				    POLLIN, 0 }, on_waiter_src };
	if (w->relay) {
		s[n++] = (struct source){ relay_term_poll(w->relay), on_term_src };
		s[n++] = (struct source){ relay_master_poll(w->relay), on_master_src };
		s[n++] = (struct source){ relay_out_poll(w->relay), on_out_src };
	}
	for (unsigned i = 0; w->pipes && i < w->pipes->n; i++) {
		s[n++] = (struct source){ pipes_in_poll(w->pipes, i),
					  i ? on_pipe2_src : on_pipe_src };
		s[n++] = (struct source){ pipes_out_poll(w->pipes, i),
					  i ? on_sink2_src : on_sink_src };
	}
	/* Last: it reads what the relays saw in this round. */
	if (!w->waiter.exited)
		s[n++] = (struct source){ { progress_fd(&w->progress), POLLIN, 0 },
					  on_progress_src };
	return n;
}

#define SIGNAL_POLL_MS 100
/* How often a tree left behind by the command is looked at. */
#define LEFTOVER_POLL_MS 20

static int poll_ms(const struct watch *w)
{
	int a = timer_wait_ms(&w->timer), b = waiter_interval_ms(&w->waiter);
	int ms = a < 0 ? b : b < 0 || a < b ? a : b;
	int c = w->waiter.exited ? -1 : progress_wait_ms(&w->progress);

	ms = c < 0 ? ms : ms < 0 || c < ms ? c : ms;

	/* No signalfd: pending signals are looked for at every wake-up. */
	if (w->sfd < 0 && !w->plan->in_host && (ms < 0 || ms > SIGNAL_POLL_MS))
		ms = SIGNAL_POLL_MS;
	/* The command is gone, its tree is awaited (leftovers_await_kill). */
	if (w->waiter.exited && (ms < 0 || ms > LEFTOVER_POLL_MS))
		ms = LEFTOVER_POLL_MS;
	return ms;
}

/* Is anything of the command's tree alive but the command? */
static bool tree_alive(struct watch *w)
{
	const struct plan *p = w->plan;
	unsigned n = 0;

	if (p->tree_kill == TREE_CGROUP)
		return cgroup_populated(&p->cg) == 1;
	if (p->tree_kill == TREE_SUBREAPER)
		return reaper_signal(&w->reaper, 0, 0, &n) == 0 && n > 0;
	return false;
}

/* The command ended after the deadline (or an end signal), its tree has
 * not: what is left still gets the KILL when it is due, as the command
 * would have, and leash waits for that, not longer. */
static bool leftovers_await_kill(struct watch *w)
{
	return (w->timed_out || w->ended_by) && w->kill_armed &&
	       !w->sent_kill_after && tree_alive(w);
}

/* One round of the loop: poll the sources for at most MS (-1: the
 * loop's own bound, poll_ms), dispatch what is ready.  1: done. */
int supervise_step(struct watch *w, int ms)
{
	struct source src[NSOURCES];
	struct pollfd pfd[NSOURCES];
	int n, own;

	if (waiter_exited(&w->waiter) && !leftovers_await_kill(w))
		return 1;
	n = sources(w, src);
	for (int i = 0; i < n; i++)
		pfd[i] = src[i].pfd;
	own = poll_ms(w);
	if (ms < 0 || (own >= 0 && own < ms))
		ms = own;
	/* poll skips negative fds: a source may be idle for now. */
	if (poll(pfd, (nfds_t)n, ms) < 0 && errno != EINTR)
		return -1;
	for (int i = 0; i < n; i++)
		if (pfd[i].revents && src[i].ready)
			src[i].ready(w, pfd[i].revents);
	/* No timerfd, no signalfd: the clock and the pending signals are
	 * polled. */
	if (w->timer.fd < 0)
		on_timer(w);
	if (w->progress.on && w->progress.timer.fd < 0 && !w->waiter.exited)
		on_progress(w);
	if (w->sfd < 0 && !w->plan->in_host)
		on_signals(w);
	/* SIGSYS from outside: lib/signal/sigsys.c counted it, then woke us
	 * with a SIGCHLD, read above. */
	if (!w->plan->in_host && sigsys_take())
		on_signal(w, SIGSYS, 0, SI_USER);
	return waiter_exited(&w->waiter) && !leftovers_await_kill(w);
}

/* One process the command left running, for the report and -v. */
static void left_running(pid_t pid, const char *name, void *tally)
{
	tally_left_add(tally, pid, name);
}

/* --kill-leftovers without a leaf: the command has exited, what it left
 * behind dies now, walked again until nobody is left. */
static void kill_leftovers(struct watch *w)
{
	unsigned n = 0;

	w->tally->left_seen = true;
	if (reaper_kill_all(&w->reaper, &n, left_running, w->tally) < 0)
		tally_failed(w, SIGKILL, errno, "tree");
	w->tally->leftovers = n;
	if (n)
		tally_sent(w, SIGKILL, TALLY_LEFTOVERS, n);
}

/* Without a leaf, for the report and -v: what the command left running,
 * found from leash as subreaper; after a signal, what it reached gets
 * 100 ms to finish dying, so only what outlives it is named. */
static void list_leftovers(struct watch *w)
{
	w->tally->left_seen = reaper_list(&w->reaper, w->tally->nsent ? 100 : 0,
					  left_running, w->tally) >= 0;
}

/* For the report: the last output and CPU progress --idle and --stall
 * saw, since leash started. */
static void progress_outcome(struct watch *w, struct outcome *out)
{
	const struct plan *p = w->plan;

	feed_output(w);
	out->watched_output = !duration_is_zero(&p->idle);
	out->watched_cpu = !duration_is_zero(&p->stall);
	out->last_output = timespec_left(&w->progress.last_out, &p->started);
	out->last_cpu = timespec_left(&w->progress.last_cpu, &p->started);
}

static void watch_open(struct watch *w, const struct sigstate *ss)
{
	const struct plan *p = w->plan;

	sigemptyset(&w->to_group);
	w->self = p->self;
	w->mine = ss->handled;
	/* One signalfd for all, SIGCHLD among them. */
	if (p->subreaper)
		reaper_open(&w->reaper, w->self, w->pid);
	w->handled = &w->mine;
	/* In a host the signals are the host's: no signalfd, nothing read. */
	w->sfd = p->in_host ? -1 :
		 signalfd(-1, &w->mine, SFD_CLOEXEC | SFD_NONBLOCK);
	if (w->sfd < 0 && !p->in_host) {
		int err = errno;

		fallback_take(FALLBACK_SIGNALFD, err, "signals are polled");
		/* SIGCHLD is among them: adopted zombies wait 100 ms at most. */
		if (p->subreaper)
			fallback_take(FALLBACK_SIGNALFD, err, "adopted processes "
				      "are reaped when signals are polled");
	}
	if (timer_open(&w->timer) < 0)
		fallback_take(FALLBACK_TIMERFD, errno, "the deadline polls the clock");
	if (!duration_is_zero(&p->deadline))
		timer_arm_at(&w->timer, &p->deadline);
	w->pipes = p->pipes;
	progress_open(&w->progress, p);
}

void supervise_begin(struct watch *w, const struct plan *plan,
		     const struct sigstate *ss, enum waiter_kind kind,
		     struct child *c, struct outcome *out)
{
	memset(w, 0, offsetof(struct watch, waiter));
	w->plan = plan;
	w->pid = c->pid;
	w->pidfd = c->pidfd;
	w->next_signal = plan->term_signal;
	w->kill_after = plan->kill_after;
	w->tally = &out->tally;
	*out = (struct outcome){ 0 };
	watch_open(w, ss);
	if (plan->pty && plan->pty->master >= 0) {
		relay_init(&w->relay_own, plan->pty);
		w->relay = &w->relay_own;
	}
	/* Wake at the deadline, not up to 50 us (the default slack) after.
	 * Set only now: fork and exec pass the slack on to the command.
	 * Not in a host: the slack is its thread's. */
	if (!plan->in_host)
		prctl(PR_SET_TIMERSLACK, 1UL);
	if (c->by_thread)
		w->waiter.pid = c->pid;
	else if (waiter_start(&w->waiter, kind, c->pid, c->pidfd,
			      plan->in_host) < 0)
		fallback_take(kind == WAITER_THREAD ? FALLBACK_THREAD :
			      FALLBACK_PIDFD, errno, "the exit is polled");
}

int supervise_signal(struct watch *w, int sig, bool tree)
{
	if (waiter_exited(&w->waiter))
		return errno = ESRCH, -1;
	if (tree) {
		deliver(w, sig, TALLY_FORWARDED);
		return 0;
	}
	if (child_kill(w, sig) < 0)
		return -1;
	tally_sent(w, sig, TALLY_FORWARDED, 1);
	return 0;
}

/* The kernel's exit status of a child the host reaped first, through
 * its pidfd (PIDFD_GET_INFO with PIDFD_INFO_EXIT, Linux >= 6.15): the
 * pidfd was made with the child, before anyone could reap it. */
struct pidfd_info_v0 {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid;
	uint32_t fsuid, fsgid;
	int32_t exit_code;
};
#define PIDFD_INFO_EXIT_BIT (1ULL << 3)
#define PIDFD_GET_INFO_NR _IOWR(0xFF, 11, struct pidfd_info_v0)

static int reap_recover(int pidfd, siginfo_t *si)
{
	struct pidfd_info_v0 info = { .mask = PIDFD_INFO_EXIT_BIT };
	int st;

	if (ioctl(pidfd, PIDFD_GET_INFO_NR, &info) < 0 ||
	    !(info.mask & PIDFD_INFO_EXIT_BIT))
		return -1;
	st = info.exit_code;
	si->si_code = WIFEXITED(st) ? CLD_EXITED :
		      WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
	si->si_status = WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st);
	return 0;
}

/* The one reap.  Through the pidfd where there is one (only our child,
 * whatever the host reaps), with the child's rusage (the kernel's
 * waitid takes a fifth argument); ECHILD there: the host reaped it,
 * its status read back, else the outcome says lost (without a pidfd,
 * always: a status made up from ECHILD would be a wrong one). */
static int reap(struct watch *w, struct outcome *out, siginfo_t *si)
{
	struct rusage ru;
	long rc;

	if (w->pidfd < 0) {
		while (waitid(P_PID, (id_t)w->pid, si, WEXITED) < 0) {
			/* A host took it (no pidfd: no status to read back). */
			if (errno == ECHILD && w->plan->in_host)
				return out->lost = true, 0;
			if (errno != EINTR)
				return -1;
		}
		return 0;
	}
	while ((rc = syscall(SYS_waitid, P_PIDFD, w->pidfd, si, WEXITED,
			     &ru)) < 0 && errno == EINTR)
		;
	if (rc == 0) {
		out->have_rusage = true;
		out->ru_user_us = (long long)ru.ru_utime.tv_sec * 1000000 +
				  ru.ru_utime.tv_usec;
		out->ru_system_us = (long long)ru.ru_stime.tv_sec * 1000000 +
				    ru.ru_stime.tv_usec;
		return 0;
	}
	if (errno != ECHILD)
		return -1;
	if (reap_recover(w->pidfd, si) == 0)
		out->recovered = true;
	else
		out->lost = true;
	return 0;
}

int supervise_end(struct watch *w, struct child *c, struct outcome *out)
{
	const struct plan *plan = w->plan;
	siginfo_t si;

	/* The command is gone: what it wrote last still reaches the caller,
	 * within a bound that no leftover or stalled terminal can stretch. */
	if (w->relay)
		relay_finish(w->relay, w->timer.armed ? &w->timer.at : NULL,
			     w->sent_kill || w->sent_kill_after);
	if (w->pipes)
		pipes_finish(w->pipes, w->timer.armed ? &w->timer.at : NULL,
			     w->sent_kill || w->sent_kill_after);
	progress_outcome(w, out);
	/* Still unreaped, so every descendant is still found from it. */
	if (plan->subreaper && plan->cg.kill_leftovers)
		kill_leftovers(w);
	else if (plan->subreaper && plan->account)
		list_leftovers(w);
	waiter_stop(&w->waiter);
	timer_close(&w->timer);
	progress_close(&w->progress);
	if (w->sfd >= 0)
		close(w->sfd);
	w->sfd = -1;
	/* The one reap: from here on the pid is no longer ours. */
	si.si_code = 0;
	si.si_status = 0;
	if (reap(w, out, &si) < 0)
		return -1;
	c->pid = 0;
	if (plan->subreaper)
		reaper_close(&w->reaper, plan->cg.kill_leftovers);
	out->code = si.si_code;
	out->status = si.si_status;
	out->timed_out = w->timed_out;
	out->sent_kill = w->sent_kill;
	out->sent_kill_after = w->sent_kill_after;
	out->ended_by = w->ended_by;
	out->fired = w->fired;
	return 0;
}

