/* SPDX-License-Identifier: ISC */
/* run: the story every personality ends in. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "time/time.h"
#include "cgroup/cgroup.h"
#include "sys/sys.h"
#include "ident/ident.h"
#include "cmd.h"
#include "diag/diag.h"
#include "supervise/supervise.h"
#include "signal/signal.h"
#include "terminal/terminal.h"
#include "leash.h"

#define PTY_END_GRACE_S 2

/* The pty step of the story: for a session of another uid that has a
 * terminal, a pty of its own (interactive, or output only when standard
 * input is not that terminal, or leash runs in the background: the
 * target never holds a descriptor of the caller's terminal, which it
 * could read typed lines from).  --pty asks for one also without a uid
 * change, when standard input is a terminal; with one, any terminal
 * among the standard descriptors still calls for it.  None to be had: a
 * session without a terminal, its terminal descriptors /dev/null, and
 * one warning; never the caller's terminal shared. */
static struct timespec started;

void run_clock_start(void)
{
	clock_now(LEASH_CLOCK, &started);
}

const struct timespec *run_started(void)
{
	return &started;
}

static void terminal_prepare(struct plan *plan, struct sigstate *ss, uid_t uid)
{
	static struct pty pty;
	const char *step;
	bool other = ident_changes_uid(&plan->id);

	if (plan->pty_mode == PTY_NEVER || !plan->pty_candidate)
		return;
	if (plan->pty_mode == PTY_AUTO || other || plan->pty_idle ?
	    !pty_any_terminal() : !isatty(0))
		return;
	plan->new_session = true;
	if (pty_open(&pty, uid, &step) < 0) {
		plan->tty_to_null = other;
		diag_warn_errno(errno, "cannot allocate a pseudo-terminal (%s): "
				"running without a terminal%s", step,
				other ? ", /dev/null in its place" : "");
		return;
	}
	if (supervise_watch_terminal(ss) < 0) {
		pty_close(&pty);
		plan->tty_to_null = other;
		diag_warn_errno(errno, "cannot watch the terminal: running "
				"without a terminal%s",
				other ? ", /dev/null in its place" : "");
		return;
	}
	plan->pty = &pty;
	/* The caller's terminal gone (or HUP from outside): the session
	 * has the grace to end, then it is killed, whatever it ignores. */
	sigaddset(&plan->end_signals, SIGHUP);
	if (duration_is_zero(&plan->end_grace))
		plan->end_grace = (struct timespec){ PTY_END_GRACE_S, 0 };
	if (plan->verbose)
		diag_warn("the command gets a pseudo-terminal of its own");
}

/* --idle: the output the pty does not carry goes through pipes leash
 * relays, so that leash sees it come.  -1 with errno. */
static int output_prepare(struct plan *plan)
{
	static struct pipes pipes;

	if (duration_is_zero(&plan->idle))
		return 0;
	if (pipes_open(&pipes, plan->pty ? plan->pty->std_mask : 0) < 0)
		return -1;
	plan->pipes = pipes.n ? &pipes : NULL;
	return 0;
}

/* The caller's terminal as it was, the pty and the pipes closed: on
 * every path. */
static void terminal_close(struct plan *plan)
{
	if (plan->pty)
		pty_close(plan->pty);
	if (plan->pipes)
		pipes_close(plan->pipes);
	plan->pipes = NULL;
}

/* After the fork: the parent's side of the pty and the pipes. */
static void terminal_after_fork(struct plan *plan)
{
	int err_sink;

	if (plan->pipes) {
		/* leash's own lines to a relayed stderr wait no more than
		 * its bytes do. */
		if ((err_sink = pipes_err_sink(plan->pipes)) >= 0)
			diag_use_fd(err_sink, RELAY_LINE_WAIT_MS,
				    RELAY_LINE_TRIES);
	}
	if (!plan->pty)
		return;
	pty_after_fork(plan->pty);
	/* leash's own lines to that terminal wait for it no more than
	 * the relay's bytes do: a stalled terminal loses them, never
	 * holds leash (a failed copy: standard error, as before). */
	if (plan->pty->std_mask & 4)
		diag_use_fd(plan->pty->wr, RELAY_LINE_WAIT_MS,
			    RELAY_LINE_TRIES);
	/* After the signals are blocked: no signal can end us while
	 * the caller's terminal is raw. */
	pty_raw(plan->pty);
}

/* The subreaper finds the tree by walking /proc: with no procfs there
 * (a chroot, an image being built) the walk would see no process and
 * report none.  --kill-leftovers, which promises the tree, refuses to
 * start; otherwise it is a fallback (-v, the report's fallbacks), and
 * each failed walk says so (kills_failed, leftovers null). */
static void tree_check_walk(const struct plan *plan)
{
	if (proc_check() == 0)
		return;
	if (plan->cg.kill_leftovers)
		diag_die(EXIT_CANCELED, "--kill-leftovers: no procfs on /proc "
			 "to find the command's tree, and no cgroup leaf");
	/* The report's fallbacks and -v name it as a subreaper refused. */
	fallback_take(FALLBACK_SUBREAPER, errno, "no procfs on /proc: "
		      "signals reach the process group only");
}

/* How a signal reaches the whole tree: the leaf, else (native) leash as
 * a child subreaper, set before the fork so no orphan goes elsewhere;
 * timeout and su keep GNU's and util-linux's process group. */
static void tree_prepare(struct plan *plan)
{
	bool leaf = plan->cg.active && plan->cg.leaf[0];

	plan->subreaper = false;
	plan->tree_kill = plan->foreground ? TREE_NONE : leaf ? TREE_CGROUP :
			  plan->lead_group || plan->new_session ? TREE_GROUP :
			  TREE_NONE;
	if (!plan->tree_kill_wanted || leaf ||
	    (plan->foreground && !plan->cg.kill_leftovers))
		return;
	if (reaper_enable() < 0) {
		/* A fallback, said under -v (and in the report) as the others
		 * are; a word always when --kill-leftovers asked for it. */
		fallback_note(FALLBACK_SUBREAPER);
		if (plan->verbose || plan->cg.kill_leftovers)
			fallback_say(FALLBACK_SUBREAPER, errno, "signals reach "
				     "the process group only");
		return;
	}
	plan->subreaper = true;
	if (!plan->foreground)
		plan->tree_kill = TREE_SUBREAPER;
	tree_check_walk(plan);
}

/* An option that asked for a cgroup is never dropped without a word.
 * REFUSED: auto dropped the group after a refused join (mode now off). */
static void cgroup_say_dropped(const struct plan *plan, bool refused)
{
	const struct cgroup_plan *cg = &plan->cg;
	const char *why = plan->cg_why_none && *plan->cg_why_none ?
			  plan->cg_why_none : "no usable cgroup";

	if ((cg->mode != CGROUP_AUTO && !refused) || cg->active)
		return;
	if (cg->weight)
		diag_warn("--cpu-weight %u not applied: %s", cg->weight, why);
	if (plan->cg_root_asked)
		diag_warn("--cgroup-root %s not used: %s", diag_quote(cg->root),
			  why);
}

/* After the reap, before the leaf goes: the caller's terminal back. */
static void run_after_reap(struct leash_run *r)
{
	terminal_close(r->plan);
}

/* The last launch: its outcome is what --report says of the run. */
static BSS_PAGE struct leash_run run;

int run_outcome(struct leash_outcome *o)
{
	if (!run.plan)
		return -1;
	return leash_run_outcome(&run, o, sizeof *o);
}

/* One launch through the library's run (supervise/run.h): its first
 * half (the cgroup), leash's process-wide steps (the tree's reach, the
 * signals, the pty, --idle's pipes), its second half (spawn, watch),
 * then leash_run_wait as any host would. */
static int run_once(struct plan *plan, struct outcome *out,
		    struct spawn_error *err, struct sigstate *ss)
{
	enum waiter_kind kind;
	const char *what = "cgroup";
	int rc;

	err->stage = 0;
	plan->started = *run_started();
	plan->self = getpid();
	if (waiter_kind_from_env(&kind) < 0) {
		diag_warn("invalid LEASH_WAIT %s: use thread, pidfd or poll",
			  diag_quote(getenv("LEASH_WAIT")));
		return -1;
	}
	uid_t uid = plan->id.have_uid ? plan->id.uid : getuid();
	run_init(&run, plan, kind);
	run.after_reap = run_after_reap;
	if (run_prepare(&run, &what) < 0) {
		diag_warn("%s", what);
		return -1;
	}
	cgroup_say_dropped(plan, false);
	tree_prepare(plan);
	if (supervise_prepare(plan, &run.ss) < 0) {
		diag_warn_errno(errno, "cannot set up signals");
		cgroup_release(&plan->cg);
		return -1;
	}
	*ss = run.ss;
	terminal_prepare(plan, &run.ss, uid);
	*ss = run.ss;
	if (output_prepare(plan) < 0) {
		diag_warn_errno(errno, "cannot relay the output for --idle");
		terminal_close(plan);
		cgroup_release(&plan->cg);
		return -1;
	}
	if (run_start(&run) < 0) {
		diag_warn_errno(errno, "fork system call failed");
		terminal_close(plan);
		cgroup_release(&plan->cg);
		return -1;
	}
	terminal_after_fork(plan);
	rc = leash_run_wait(&run, -1);
	*out = run.out;
	*err = run.err;
	if (rc < 0) {
		diag_warn_errno(-rc, "error waiting for command");
		return -1;
	}
	return 0;
}

/* auto: a join the kernel refused (SELinux, a group not ours) is a group
 * not ours to write, as DESIGN.md says: the command, which never
 * started, runs once more without a group, unless something happened
 * meanwhile (a signal, the deadline).  The first try's mask and timer
 * slack are undone, so the second child starts as the first did. */
static bool run_again_without_cgroup(struct plan *plan,
				     const struct outcome *out,
				     const struct spawn_error *err,
				     const struct sigstate *ss)
{
	if (err->stage != SPAWN_CGROUP || out->timed_out || out->tally.nsent ||
	    !cgroup_join_refused(&plan->cg, err->step, err->err))
		return false;
	cgroup_say_dropped(plan, true);
	plan->pty = NULL;       /* closed: the second try opens its own */
	sigprocmask(SIG_SETMASK, &ss->orig_mask, NULL);
	prctl(PR_SET_TIMERSLACK, 0UL);
	return true;
}

/* The deadline step of the story: -t's, or the caller's LEASH_DEADLINE
 * when that comes first (a budget that nests), and, native, the one that
 * rules handed on to the command.  A value that cannot be trusted is
 * ignored, with one warning. */
static int deadline_prepare(struct plan *plan)
{
	const char *v = getenv(BUDGET_ENV);
	struct timespec inherited;
	char id[BUDGET_ID_SIZE] = "", buf[BUDGET_SIZE];

	plan->deadline = (struct timespec){ 0, 0 };
	if (!duration_is_zero(&plan->duration)) {
		plan->deadline = *run_started();
		timespec_add(&plan->deadline, &plan->duration);
	}
	/* The boot id, read once: for the value inherited, the one passed on. */
	if (v || (plan->export_deadline && !duration_is_zero(&plan->deadline)))
		budget_boot_id(id);
	switch (v ? budget_parse(v, id, &inherited) : BUDGET_OK) {
	case BUDGET_MALFORMED:
		diag_warn("ignoring %s %s: not SECONDS.NANOSECONDS@BOOT_ID",
			  BUDGET_ENV, diag_quote(v));
		break;
	case BUDGET_OTHER_BOOT:
		diag_warn("ignoring %s %s: not from this boot", BUDGET_ENV,
			  diag_quote(v));
		break;
	case BUDGET_OK:
		if (v && (duration_is_zero(&plan->deadline) ||
			  timespec_before(&inherited, &plan->deadline))) {
			plan->deadline = inherited;
			plan->deadline_inherited = true;
		}
	}
	if (plan->verbose && plan->deadline_inherited)
		diag_warn("the deadline is the caller's (%s)", BUDGET_ENV);
	/* No boot id (no /proc): nothing a nested leash could trust. */
	if (!plan->export_deadline || duration_is_zero(&plan->deadline) ||
	    !*id || budget_format(&plan->deadline, id, buf, sizeof buf) < 0)
		return 0;
	return plan->envp ? env_set(&plan->envp, BUDGET_ENV, buf)
			  : setenv(BUDGET_ENV, buf, 1);
}

/* --warn: a deadline in force to warn before, and each warning within
 * it, else one line and nothing started. */
static int warn_check(const struct plan *plan)
{
	struct timespec left;

	if (!plan->nwarn)
		return 0;
	if (duration_is_zero(&plan->deadline)) {
		diag_warn("--warn %s needs a deadline: -t DURATION, or %s",
			  diag_quote(plan->warn[0].arg), BUDGET_ENV);
		return -1;
	}
	left = timespec_left(&plan->deadline, run_started());
	for (unsigned i = 0; i < plan->nwarn; i++) {
		if (timespec_before(&plan->warn[i].before, &left))
			continue;
		diag_warn("--warn %s: not before the deadline, which is %ld.%03ld s "
			  "away%s", diag_quote(plan->warn[i].arg),
			  (long)left.tv_sec, left.tv_nsec / 1000000,
			  plan->deadline_inherited ? " (" BUDGET_ENV ")" : "");
		return -1;
	}
	return 0;
}

int run_plan(struct plan *plan, struct outcome *out, struct spawn_error *err)
{
	struct sigstate ss;
	bool kill_leftovers = plan->cg.kill_leftovers;
	int rc;

	if (deadline_prepare(plan) < 0) {
		diag_warn_errno(errno, "cannot pass the deadline on");
		return -1;
	}
	if (warn_check(plan) < 0)
		return -1;
	rc = run_once(plan, out, err, &ss);

	if (rc == 0 && run_again_without_cgroup(plan, out, err, &ss)) {
		/* The first try's fallbacks stay in the report: leash's own. */
		fallback_taken |= run.fallbacks;
		plan->cg.kill_leftovers = kill_leftovers;
		rc = run_once(plan, out, err, &ss);
	}
	return rc;
}

void spawn_error_report(struct plan *plan, const struct spawn_error *e)
{
	switch (e->stage) {
	case SPAWN_SESSION:
		if (e->step == 1)
			diag_warn_errno(e->err, "cannot put /dev/null in place "
					"of the terminal");
		else if (e->step == 2)
			diag_warn_errno(e->err, "cannot put the pipes --idle "
					"watches in place");
		else
			diag_warn_errno(e->err, "cannot start a new session "
					"or process group");
		break;
	case SPAWN_CGROUP:
		diag_warn("%s", cgroup_join_error(&plan->cg, e->step, e->err));
		break;
	case SPAWN_IDENT:
		diag_warn_errno(e->err, "cannot switch identity: %s",
				ident_step_name((enum ident_step)e->step));
		break;
	case SPAWN_PDEATHSIG:
		diag_warn_errno(e->err, "cannot tie the command to leash's life");
		break;
	case SPAWN_CHDIR:
		diag_warn_errno(e->err, "cannot change directory to %s",
				diag_quote(plan->chdir));
		break;
	default:
		diag_warn_errno(e->err, "cannot prepare the command");
	}
}

int outcome_decide(const struct plan *plan, const struct outcome *out)
{
	bool preserve = plan->preserve_status;
	int status = out->status;

	if (out->code != CLD_EXITED) {
		int sig = out->status;
		if (out->code == CLD_DUMPED)
			diag_warn("the monitored command dumped core");
		/* KILL is reported as 137 even on a time-out (GNU 9.1+). */
		if (out->timed_out && sig == SIGKILL)
			preserve = true;
		status = 128 + sig;
	}
	if (out->sent_kill && !plan->signal_as_status)
		return 128 + SIGKILL;
	return out->timed_out && !preserve ? EXIT_TIMEDOUT : status;
}

bool outcome_reraises(const struct plan *plan, const struct outcome *out)
{
	return out->code != CLD_EXITED && !out->timed_out &&
	       !plan->signal_as_status;
}

void outcome_die(const struct plan *plan, const struct outcome *out)
{
	if (outcome_reraises(plan, out))
		sigdie(out->status);
	/* GNU timeout shares its group with the command, so the KILL it
	 * sends there ends timeout too: the caller sees a KILL death, and
	 * what is left of the group dies with us (held back until now so
	 * that the reap and the leaf's removal came first). */
	if (out->sent_kill && !plan->signal_as_status) {
		prctl(PR_SET_DUMPABLE, 0);
		kill(plan->lead_group ? 0 : plan->self, SIGKILL);
	}
}

int outcome_status(const struct plan *plan, const struct outcome *out)
{
	int status = outcome_decide(plan, out);

	outcome_die(plan, out);
	return status;
}

void exit_after_output(int failure)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_warn_errno(errno, "write error");
		exit(failure);
	}
	exit(0);
}

int run_decide(struct plan *plan, struct outcome *out, bool *ran)
{
	struct spawn_error err;

	*ran = false;
	if (run_plan(plan, out, &err) < 0)
		return EXIT_CANCELED;
	if (err.stage == SPAWN_EXEC) {
		diag_warn_errno(err.err, "failed to run command %s",
				diag_quote(plan->argv[0]));
		return err.err == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
	}
	if (err.stage)
		return spawn_error_report(plan, &err), EXIT_CANCELED;
	*ran = true;
	return outcome_decide(plan, out);
}

/* run_plan, then the status as GNU timeout reports it (leash, timeout). */
int run_to_status(struct plan *plan)
{
	struct outcome out;
	bool ran;
	int status = run_decide(plan, &out, &ran);

	if (ran)
		outcome_die(plan, &out);
	return status;
}
