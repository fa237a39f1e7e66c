/* SPDX-License-Identifier: ISC */
/* run: launch commands cheaply and alike for every row. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Every environment made here lives until env_free_all at the end. */
static void *env_made[128];
static size_t env_count;

static void env_keep(void *p)
{
	if (env_count < sizeof env_made / sizeof env_made[0])
		env_made[env_count++] = p;
}

void env_free_all(void)
{
	while (env_count)
		free(env_made[--env_count]);
}

char **env_with_in(char **base, const char *name, const char *value)
{
	size_t n = 0, k = 0, len = strlen(name);
	char **env, *item;

	while (base[n])
		n++;
	env = calloc(n + 2, sizeof *env);
	item = malloc(len + strlen(value) + 2);
	if (!env || !item)
		abort();
	env_keep(env);
	env_keep(item);
	for (size_t i = 0; i < n; i++)
		if (strncmp(base[i], name, len) || base[i][len] != '=')
			env[k++] = base[i];
	strcpy(item, name);
	item[len] = '=';
	strcpy(item + len + 1, value);
	env[k++] = item;
	env[k] = NULL;
	return env;
}

char **env_with(const char *name, const char *value)
{
	return env_with_in(environ, name, value);
}

void cmd_set(struct cmd *c, const char *key, const char *label, ...)
{
	va_list ap;
	int i = 0;
	const char *a;

	memset(c, 0, sizeof *c);
	c->key = key;
	c->label = label;
	va_start(ap, label);
	while ((a = va_arg(ap, const char *)) && i < CMD_ARGS - 1)
		c->argv[i++] = a;
	va_end(ap);
	c->argv[i] = NULL;
	if (!c->argv[0]) {
		c->skip = true;
		strcpy(c->why, "not installed");
	}
}

/* vfork + execve C with descriptors 0, 1, 2 (and 3 when FD3 >= 0).
 * vfork, as posix_spawn does: the harness's page tables are not copied,
 * so its own cost is small and the same for every row.  (<spawn.h> is
 * shadowed by lib/spawn/spawn.h on the include path.)  Signals stay blocked
 * across vfork so that no handler runs in the borrowed memory. */
static pid_t spawn_fds(const struct cmd *c, int in, int out, int err, int fd3)
{
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0) {
		sigset_t none;

		if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 ||
		    (fd3 >= 0 && dup2(fd3, 3) < 0))
			_exit(127);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve(c->argv[0], (char **)c->argv,
		       c->envp ? c->envp : environ);
		_exit(127);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

pid_t cmd_spawn(const struct cmd *c, int devnull, int errfd, int pipefd)
{
	return spawn_fds(c, devnull, devnull, errfd >= 0 ? errfd : devnull,
			 pipefd);
}

static volatile sig_atomic_t overdue;

static void on_alarm(int sig)
{
	(void)sig;
	overdue = 1;
}

void watchdog_init(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, NULL);      /* no SA_RESTART: wait4 returns */
}

int wait_bounded(pid_t pid, int *status, struct rusage *ru, unsigned secs)
{
	overdue = 0;
	alarm(secs);
	while (wait4(pid, status, 0, ru) < 0) {
		if (errno != EINTR) {
			alarm(0);
			return -1;
		}
		if (overdue) {
			fprintf(stderr, "bench: %d still running after %u s: "
				"killed\n", (int)pid, secs);
			kill(pid, SIGKILL);
			overdue = 0;
		}
	}
	alarm(0);
	return 0;
}

int cmd_wait(pid_t pid, int *status)
{
	return wait_bounded(pid, status, NULL, WATCHDOG_S);
}

int cmd_time(const struct cmd *c, int devnull, int64_t *ns, int64_t *cpu)
{
	int64_t t0 = now_ns();
	struct rusage ru;
	int status;
	pid_t pid = cmd_spawn(c, devnull, -1, -1);

	if (pid < 0)
		return -1;
	if (wait_bounded(pid, &status, &ru, WATCHDOG_S) < 0)
		return -1;
	*ns = now_ns() - t0;
	/* user + system time of the command and what it reaped itself */
	if (cpu)
		*cpu = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		       1000000000 + ((int64_t)ru.ru_utime.tv_usec +
				     ru.ru_stime.tv_usec) * 1000;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Describe a failed try: its status and the first line it printed. */
static void why_failed(struct cmd *c, int status, int errfd)
{
	char line[120] = "";
	ssize_t n = pread(errfd, line, sizeof line - 1, 0);

	line[n > 0 ? n : 0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (WIFEXITED(status))
		snprintf(c->why, sizeof c->why, "exit %d: %s",
			 WEXITSTATUS(status), line);
	else
		snprintf(c->why, sizeof c->why, "signal %d: %s",
			 WTERMSIG(status), line);
}

void cmd_preflight(struct cmd *c, int devnull, int want_status)
{
	int status = 0;

	if (c->skip)
		return;
	if (access(c->argv[0], X_OK) < 0) {
		c->skip = true;
		snprintf(c->why, sizeof c->why, "%s: not found", c->argv[0]);
		return;
	}
	for (int i = 0; i < 3; i++) {
		int errfd = memfd_create("bench-err", MFD_CLOEXEC);
		pid_t pid = cmd_spawn(c, devnull, errfd, -1);

		if (pid < 0 || cmd_wait(pid, &status) < 0) {
			snprintf(c->why, sizeof c->why, "spawn: %s",
				 strerror(errno));
			close(errfd);
			break;
		}
		if (want_status < 0 || (WIFEXITED(status) &&
					 WEXITSTATUS(status) == want_status)) {
			close(errfd);
			return;
		}
		why_failed(c, status, errfd);
		close(errfd);
	}
	c->skip = true;
}

static bool readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) > 0;
}

void run_capture(const char *const *argv, char *buf, size_t len)
{
	struct cmd c = { .key = "capture" };
	int p[2], status, devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	buf[0] = '\0';
	memcpy(c.argv, argv, sizeof(char *) * 4);
	if (access(argv[0], X_OK) < 0 || pipe2(p, O_CLOEXEC) < 0)
		goto out;
	pid = spawn_fds(&c, devnull, p[1], devnull, -1);
	close(p[1]);
	/* a version string comes at once: give up after 5 s */
	while (pid > 0 && got < len - 1 && readable(p[0], 5000) &&
	       (n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	close(p[0]);
	if (pid > 0 && kill(pid, SIGKILL) == 0)
		cmd_wait(pid, &status);
out:
	if (devnull >= 0)
		close(devnull);
}

/* A close-on-exec pipe above the standard descriptors and 3, so dup2 to
 * 3 in the child never meets its own source. */
int pipe_high(int p[2])
{
	int q[2];

	if (pipe2(q, O_CLOEXEC) < 0)
		return -1;
	p[0] = fcntl(q[0], F_DUPFD_CLOEXEC, 10);
	p[1] = fcntl(q[1], F_DUPFD_CLOEXEC, 10);
	close(q[0]);
	close(q[1]);
	return p[0] < 0 || p[1] < 0 ? -1 : 0;
}

void cmd_wait_env(struct cmd *c, const char *wait)
{
	static const char *const notes[] = {
		"LEASH_WAIT=thread", "LEASH_WAIT=pidfd", "LEASH_WAIT=poll"
	};

	c->envp = env_with("LEASH_WAIT", wait);
	c->env_note = wait;
	for (int i = 0; i < 3; i++)
		if (!strcmp(notes[i] + 11, wait))
			c->env_note = notes[i];
}

pid_t cmd_spawn_out(const struct cmd *c, int devnull, int outfd)
{
	return spawn_fds(c, devnull, outfd, 2, -1);
}
