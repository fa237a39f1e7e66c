/* SPDX-License-Identifier: ISC */
/* supervise: one loop in the main thread waits for the child's exit, the
 * deadline or a signal to forward; signals are read from a signalfd, so
 * no handler ever runs asynchronously and nothing can act on a pid after
 * the single reap at the end. */
#define _GNU_SOURCE
#include "supervise.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "diag.h"
#include "duration.h"
#include "signals.h"
#include "sigign.h"

/* Every signal whose default action ends a process (GNU timeout 9.10's
 * list); leash forwards them to the command instead of dying. */
static const int term_signals[] = {
	SIGALRM, SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2,
	SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGXCPU, SIGXFSZ,
	SIGSYS, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
};

int supervise_prepare(struct sigstate *ss)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t ignored;

	/* An inherited SIG_IGN (or SA_NOCLDWAIT) would let the kernel reap
	 * the child behind our back and unpin its pid. */
	if (sigaction(SIGCHLD, &dfl, NULL) < 0)
		return -1;
	/* A background job reading the tty must not stop leash itself. */
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	sigign_read(&ignored);
	sigemptyset(&ss->handled);
	for (size_t i = 0; i < sizeof term_signals / sizeof *term_signals; i++)
		if (!sigismember(&ignored, term_signals[i]))
			sigaddset(&ss->handled, term_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (!sigismember(&ignored, sig))
			sigaddset(&ss->handled, sig);
	/* Signals ignored at start stay ignored: nohup keeps working. */
	return sigprocmask(SIG_BLOCK, &ss->handled, &ss->orig_mask);
}

struct watch {
	const struct plan *plan;
	pid_t pid;
	int next_signal;        /* what the next expiry sends */
	struct timespec kill_after;
	int alarm_armed;
	struct timespec alarm;  /* absolute, CLOCK_MONOTONIC */
	bool timed_out;
	bool sent_kill;
};

#define TIME_MAX ((time_t)(~0ULL >> 1))

/* Saturating: a clamped "forever" duration must not wrap. */
static void ts_add(struct timespec *t, const struct timespec *d)
{
	if (d->tv_sec >= TIME_MAX - t->tv_sec - 1) {
		t->tv_sec = TIME_MAX;
		t->tv_nsec = 0;
		return;
	}
	t->tv_sec += d->tv_sec;
	t->tv_nsec += d->tv_nsec;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

static void say_sending(const struct watch *w, int sig)
{
	char name[16];

	diag_warn("sending signal %s to command %s",
		  signal_name(sig, name, sizeof name),
		  diag_quote(w->plan->argv[0]));
}

/* Send SIG as GNU timeout does: the pid (it may lead its own group), the
 * group, then CONT so a stopped command sees it; then the cgroup leaf,
 * which also reaches descendants that left the group.  Only called while
 * the child is unreaped, so w->pid is still ours. */
static void deliver(struct watch *w, int sig)
{
	const struct plan *p = w->plan;

	if (!duration_is_zero(&w->kill_after)) {
		/* The KILL timer starts with the first signal, once. */
		w->next_signal = SIGKILL;
		clock_now(CLOCK_MONOTONIC, &w->alarm);
		ts_add(&w->alarm, &w->kill_after);
		w->alarm_armed = 1;
		w->kill_after = (struct timespec){ 0, 0 };
	}
	if (p->verbose)
		say_sending(w, sig);
	kill(w->pid, sig);
	/* --foreground: the command alone, as GNU does. */
	if (p->foreground)
		return;
	kill(-w->pid, sig);
	if (sig != SIGKILL && sig != SIGCONT) {
		kill(w->pid, SIGCONT);
		kill(-w->pid, SIGCONT);
	}
	if (sig == SIGKILL)
		w->sent_kill = true;
	if (!p->cg.active || sig == 0)
		return;
	if (sig == SIGKILL) {
		cgroup_kill(&p->cg);
		return;
	}
	cgroup_signal(&p->cg, sig);
	if (sig != SIGCONT)
		cgroup_signal(&p->cg, SIGCONT);
}

static void expire(struct watch *w)
{
	w->timed_out = true;
	w->alarm_armed = 0;
	deliver(w, w->next_signal);
}

/* Read every pending signal; ALRM from outside counts as expiry. */
static void drain_signals(struct watch *w, int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		/* Our own -v line hit a closed pipe: not a signal to pass on,
		 * or every message would breed the next one. */
		if ((int)si.ssi_signo == SIGPIPE && (pid_t)si.ssi_pid == getpid())
			continue;
		if ((int)si.ssi_signo == SIGALRM)
			expire(w);
		else
			deliver(w, (int)si.ssi_signo);
	}
}

/* How long ppoll may sleep: until the alarm, capped by the strategy's
 * polling interval.  NULL means forever. */
static struct timespec *wait_time(const struct watch *w,
				  const struct waiter *wt, struct timespec *out)
{
	int cap = waiter_interval_ms(wt);
	struct timespec now;

	if (!w->alarm_armed && cap < 0)
		return NULL;
	*out = (struct timespec){ cap / 1000, (cap % 1000) * 1000000L };
	if (!w->alarm_armed)
		return out;
	clock_now(CLOCK_MONOTONIC, &now);
	struct timespec left = { w->alarm.tv_sec - now.tv_sec,
				 w->alarm.tv_nsec - now.tv_nsec };
	if (left.tv_nsec < 0) {
		left.tv_sec--;
		left.tv_nsec += 1000000000;
	}
	if (left.tv_sec < 0)
		left = (struct timespec){ 0, 0 };
	if (cap < 0 || left.tv_sec < out->tv_sec ||
	    (left.tv_sec == out->tv_sec && left.tv_nsec < out->tv_nsec))
		*out = left;
	return out;
}

static int alarm_due(const struct watch *w)
{
	struct timespec now;

	if (!w->alarm_armed)
		return 0;
	clock_now(CLOCK_MONOTONIC, &now);
	return now.tv_sec > w->alarm.tv_sec ||
	       (now.tv_sec == w->alarm.tv_sec && now.tv_nsec >= w->alarm.tv_nsec);
}

static void watch_loop(struct watch *w, struct waiter *wt, int sfd)
{
	struct pollfd pfd[2] = { { sfd, POLLIN, 0 }, { wt->fd, POLLIN, 0 } };
	struct timespec ts;

	while (!waiter_exited(wt)) {
		int n = ppoll(pfd, wt->fd >= 0 ? 2 : 1, wait_time(w, wt, &ts), NULL);
		if (n < 0 && errno != EINTR)
			break;
		if (pfd[0].revents)
			drain_signals(w, sfd);
		if (alarm_due(w))
			expire(w);
	}
}

int supervise(const struct plan *plan, const struct sigstate *ss,
	      enum waiter_kind kind, struct child *c, struct outcome *out)
{
	struct watch w = { .plan = plan, .pid = c->pid,
			   .next_signal = plan->term_signal,
			   .kill_after = plan->kill_after };
	struct waiter wt;
	siginfo_t si;
	int sfd = signalfd(-1, &ss->handled, SFD_CLOEXEC | SFD_NONBLOCK);

	if (!duration_is_zero(&plan->duration)) {
		w.alarm = plan->started;
		ts_add(&w.alarm, &plan->duration);
		w.alarm_armed = 1;
	}
	/* Wake at the deadline, not up to 50 us (the default slack) after.
	 * Set only now: fork and exec pass the slack on to the command. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	waiter_start(&wt, kind, c->pid);
	watch_loop(&w, &wt, sfd);
	waiter_stop(&wt);
	if (sfd >= 0)
		close(sfd);
	/* The one reap: from here on the pid is no longer ours. */
	while (waitid(P_PID, (id_t)c->pid, &si, WEXITED) < 0)
		if (errno != EINTR)
			return -1;
	c->pid = 0;
	out->code = si.si_code;
	out->status = si.si_status;
	out->timed_out = w.timed_out;
	out->sent_kill = w.sent_kill;
	return 0;
}
