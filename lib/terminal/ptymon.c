/* SPDX-License-Identifier: ISC */
/* ptymon: the session leader between a pty and its command, which leads
 * a group of its own in the pty's foreground.  A session leader's own
 * group has its parent (leash) in another session, so the kernel treats
 * it as orphaned and drops ^Z; the command's group under a monitor is
 * not orphaned, so ^Z stops any program, not only a shell with job
 * control of its own.  The monitor relays that stop to leash by stopping
 * itself, and leash's signals to the command's group. */
#define _GNU_SOURCE
#include "terminal/ptymon.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "signal/signal.h"

/* End as the command ended, so leash sees its status as the command's. */
static _Noreturn void monitor_exit(int status)
{
	if (WIFSIGNALED(status))
		sigdie(WTERMSIG(status));
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 125);
}

/* The command stopped (^Z, `kill -STOP $$`): stop ourselves, so leash
 * gives the caller its terminal back and stops its own job.  Once leash
 * continues us (`fg`), the group that had the pty's foreground gets it
 * again and the command continues. */
static void monitor_follow_stop(pid_t cmd, int tty)
{
	pid_t fg = tcgetpgrp(tty);

	/* kill, not raise: this process was not made by libc's fork. */
	kill(getpid(), SIGSTOP);
	if (fg > 0)
		tcsetpgrp(tty, fg);
	kill(-cmd, SIGCONT);
}

static _Noreturn void ptymon_run(pid_t cmd, int tty)
{
	sigset_t all;
	siginfo_t si;
	int status;

	/* Everything blocked: Linux never discards a blocked signal, even
	 * one the caller left ignored, so each is taken here (libc's own
	 * 32-34 too: leash may send them, sigraw.h). */
	sigraw_fill(&all);
	sigraw_mask(SIG_SETMASK, &all, NULL);
	/* Also in the command; whichever runs first, it is done. */
	setpgid(cmd, cmd);
	for (;;) {
		int sig = sigwaitinfo(&all, &si);

		if (sig == SIGCHLD) {
			pid_t r;
			while ((r = waitpid(cmd, &status, WUNTRACED | WNOHANG)) == cmd) {
				if (!WIFSTOPPED(status))
					monitor_exit(status);
				monitor_follow_stop(cmd, tty);
			}
			if (r < 0 && errno == ECHILD)
				_exit(125);
			continue;
		}
		if (sig < 0)
			continue;
		/* leash stops a session with TSTP (it cannot be ignored
		 * there: STOP); the rest is the command's to act on. */
		if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
			sig = SIGSTOP;
		kill(-cmd, sig);
	}
}

int ptymon_start(int tty, int cmd_only, pid_t *monitor)
{
	sigset_t ttou, old;
	pid_t pid;

	*monitor = getpid();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		close(cmd_only);
		ptymon_run(pid, tty);
	}
	/* The command: a group of its own, the pty's foreground.  TTOU is
	 * blocked while a background group takes the terminal. */
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	if (setpgid(0, 0) < 0 || sigprocmask(SIG_BLOCK, &ttou, &old) < 0)
		return -1;
	if (tcsetpgrp(tty, getpid()) < 0)
		return -1;
	return sigprocmask(SIG_SETMASK, &old, NULL);
}
