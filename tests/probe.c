/* SPDX-License-Identifier: ISC */
/* probe: print what a process started by leash sees, one key=value a
 * line; or set up a hostile caller state, run a command and report how
 * it ended.  A test tool: simple, static, no libcap.
 *
 * Report mode (no operands):
 *   probe [-e] [-k KEY] [-o FILE] [-q] [-m MARK] [-c SIGS [-l LOG] [-E]]
 *         [-t] [-s SECS] [-x CODE]
 *     -k KEY   print only KEY's value (env:NAME for one variable); exit 3
 *              when there is no such key
 *     -e       also print env:NAME=value for every environment variable
 *     -o FILE  write the report to FILE (via FILE.tmp and rename, so a
 *              test can wait for FILE to appear)
 *     -q       print nothing on stdout (-o still writes FILE)
 *     -m MARK  ignored: tags the command line so a test can find us
 *     -c SIGS  catch these signals (comma list of names or numbers) and
 *              carry on; -l LOG appends each one's name to LOG; -E exits
 *              with the -x code at the first one
 *     -t       same as -c TERM: a command that survives the signal
 *     -s SECS  sleep after printing (fractions and "inf" allowed)
 *     -x CODE  exit with CODE (default 0)
 *   Keys: argv0 pid ppid pgid sid tpgid ctty sigmask blocked sigign
 *   ignored CapInh CapPrm CapEff CapBnd CapAmb NoNewPrivs fds uid euid
 *   suid gid egid sgid groups cgroup cwd [env:NAME...].
 *
 * Run mode (operands after the options):
 *   probe [-b SIGS] [-i SIGS] [-d SIGS] [-C] [-P] [-W [-q] [-o FILE]]
 *         [-R] [-T SECS] -- CMD [ARG]...
 *     -b/-i/-d SIGS  block / ignore / reset to default these signals in
 *              the command (SIGS as for -c; CHLD allowed)
 *     -C       raise RLIMIT_CORE to its hard limit in the command
 *     -P       the command's stderr is a pipe nobody reads (EPIPE/SIGPIPE)
 *     -W       fork, run CMD, wait; print status=exit:N, or status=signal:N
 *              and core=0|1; exit with the shell's view of it (N or 128+N)
 *     -R       -W as a child subreaper: after CMD ends, wait up to 3 s
 *              (-G SECS) for descendants left behind to die, then print
 *              left=PID:COMM,... (still alive: killed now, or "none") and
 *              orphans=N (every orphaned descendant reaped, dead or alive)
 *     -T SECS  -W with a watchdog: kill CMD (and its group) after SECS,
 *              then every descendant left (as a subreaper), print
 *              watchdog=1 and exit 255
 *   Without -W, -R or -T the command is exec'd in place. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *const signames[] = {
	[1] = "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
	"KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT",
	"CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
	"XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
};
#define NSIGNAMES ((int)(sizeof signames / sizeof signames[0]))

static char out[65536];
static size_t outlen;

static void add(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(out + outlen, sizeof out - outlen, "%s=", key);
	if (n < 0 || (size_t)n >= sizeof out - outlen)
		return;
	outlen += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(out + outlen, sizeof out - outlen, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof out - outlen - 1) {
		out[outlen] = '\0';
		return;
	}
	outlen += (size_t)n;
	out[outlen++] = '\n';
	out[outlen] = '\0';
}

static int sig_parse(const char *s)
{
	char *end;
	long n;

	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int i = 1; i < NSIGNAMES; i++)
		if (strcasecmp(s, signames[i]) == 0)
			return i;
	n = strtol(s, &end, 10);
	if (end == s || *end || n < 1 || n > 64)
		return -1;
	return (int)n;
}

static void sig_list(unsigned long long set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 1; i <= 64; i++) {
		if (!(set & (1ULL << (i - 1))))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s", len ? "," : "");
		if (i < NSIGNAMES)
			len += (size_t)snprintf(buf + len, size - len, "%s", signames[i]);
		else
			len += (size_t)snprintf(buf + len, size - len, "%d", i);
		if (len >= size)
			break;
	}
	if (!buf[0])
		snprintf(buf, size, "none");
}

/* Copy "Name:\tvalue" lines of /proc/self/status that tests care about. */
static void add_status(void)
{
	static const char *const keys[] = { "SigBlk", "SigIgn", "CapInh",
		"CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs" };
	char line[512], list[512];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		*colon = '\0';
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, "\n")] = '\0';
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			if (strcmp(line, keys[i]) != 0)
				continue;
			if (i == 0 || i == 1) {
				sig_list(strtoull(v, NULL, 16), list, sizeof list);
				add(i == 0 ? "sigmask" : "sigign", "%s", v);
				add(i == 0 ? "blocked" : "ignored", "%s", list);
			} else {
				add(keys[i], "%s", v);
			}
		}
	}
	fclose(f);
}

/* Read the stat file PATH into BUF; returns the ')' that ends the comm
 * (the fields follow after a blank), or NULL. */
static char *read_stat(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strrchr(buf, ')');
}

static void add_stat(void)
{
	char buf[1024];
	char *p = read_stat("/proc/self/stat", buf, sizeof buf);
	int tty = 0, tpgid = -1;

	/* After the comm: state ppid pgrp session tty_nr tpgid ... */
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %d %d", &tty, &tpgid) == 2) {
		add("tpgid", "%d", tpgid);
		if (tty)
			add("ctty", "%u:%u", (unsigned)tty >> 8 & 0xfff,
			    ((unsigned)tty & 0xff) | ((unsigned)tty >> 12 & 0xfff00));
		else
			add("ctty", "none");
	}
}

static void add_fds(void)
{
	char list[4096];
	size_t len = 0;
	int fds[1024], n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	list[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && n < 1024) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
			continue;
		fds[n++] = atoi(e->d_name);
	}
	closedir(d);
	for (int i = 1; i < n; i++)	/* insertion sort: few fds */
		for (int j = i; j > 0 && fds[j - 1] > fds[j]; j--) {
			int t = fds[j];
			fds[j] = fds[j - 1];
			fds[j - 1] = t;
		}
	for (int i = 0; i < n && len < sizeof list - 16; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%d",
					i ? "," : "", fds[i]);
	add("fds", "%s", n ? list : "none");
}

static void add_ids(void)
{
	uid_t r, e, s;
	gid_t gr, ge, gs, g[NGROUPS_MAX];
	char list[8192];
	size_t len = 0;
	int n;

	if (getresuid(&r, &e, &s) == 0) {
		add("uid", "%u", (unsigned)r);
		add("euid", "%u", (unsigned)e);
		add("suid", "%u", (unsigned)s);
	}
	if (getresgid(&gr, &ge, &gs) == 0) {
		add("gid", "%u", (unsigned)gr);
		add("egid", "%u", (unsigned)ge);
		add("sgid", "%u", (unsigned)gs);
	}
	n = getgroups(NGROUPS_MAX, g);
	if (n < 0)
		return;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && g[j - 1] > g[j]; j--) {
			gid_t t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	list[0] = '\0';
	for (int i = 0; i < n && len < sizeof list - 16; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%u",
					i ? "," : "", (unsigned)g[i]);
	add("groups", "%s", n ? list : "none");
}

static void add_cgroup(void)
{
	char line[1024], all[4096];
	size_t len = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");

	all[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof line, f) && len < sizeof all - 1) {
		line[strcspn(line, "\n")] = '\0';
		len += (size_t)snprintf(all + len, sizeof all - len, "%s%s",
					len ? ";" : "", line);
	}
	fclose(f);
	add("cgroup", "%s", all);
}

static void report(const char *argv0, int with_env)
{
	char cwd[PATH_MAX];

	add("argv0", "%s", argv0);
	add("pid", "%d", (int)getpid());
	add("ppid", "%d", (int)getppid());
	add("pgid", "%d", (int)getpgid(0));
	add("sid", "%d", (int)getsid(0));
	add_stat();
	add_status();
	add_fds();
	add_ids();
	add_cgroup();
	add("cwd", "%s", getcwd(cwd, sizeof cwd) ? cwd : "?");
	if (with_env)
		for (char **e = environ; *e; e++) {
			char key[256];
			const char *eq = strchr(*e, '=');

			if (!eq || eq - *e > 200)
				continue;
			snprintf(key, sizeof key, "env:%.*s", (int)(eq - *e), *e);
			add(key, "%s", eq + 1);
		}
}

/* Value of KEY in the report, or NULL. */
static const char *lookup(const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);

	if (strncmp(key, "env:", 4) == 0) {
		const char *v = getenv(key + 4);
		if (v)
			snprintf(buf, size, "%s", v);
		return v ? buf : NULL;
	}
	for (char *l = out; *l; ) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (len > klen && strncmp(l, key, klen) == 0 && l[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1), l + klen + 1);
			return buf;
		}
		l += len + (nl ? 1 : 0);
	}
	return NULL;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void emit(const char *text, const char *file)
{
	char tmp[PATH_MAX];
	int fd;

	if (!file) {
		write_all(1, text, strlen(text));
		return;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(tmp);
		exit(2);
	}
	write_all(fd, text, strlen(text));
	close(fd);
	rename(tmp, file);
}

/* Caught signals: log the name to LOGFD, exit if asked. */
static int logfd = -1, exit_on_catch, exit_code;

static void on_catch(int sig)
{
	char buf[16];
	size_t n = 0;
	const char *name = sig < NSIGNAMES ? signames[sig] : NULL;

	if (logfd >= 0) {
		if (name) {
			while (name[n] && n < sizeof buf - 1) {
				buf[n] = name[n];
				n++;
			}
		} else {
			buf[n++] = (char)('0' + sig / 10);
			buf[n++] = (char)('0' + sig % 10);
		}
		buf[n++] = '\n';
		if (write(logfd, buf, n) < 0)
			_exit(2);
	}
	if (exit_on_catch)
		_exit(exit_code);
}

static void sleep_for(double secs)
{
	struct timespec end, now, left;

	if (isinf(secs)) {
		for (;;)
			pause();
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	end.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	/* A caught TERM interrupts the sleep: sleep on until the end. */
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = end.tv_sec - now.tv_sec;
		left.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000L;
		}
		if (left.tv_sec < 0)
			return;
		if (nanosleep(&left, NULL) == 0)
			return;
	}
}

/* HOW: 'b' block, 'i' ignore, 'd' default, 'c' catch. */
static int apply_sigs(const char *list, int how)
{
	char buf[512], *tok, *save = NULL;
	sigset_t set;

	sigemptyset(&set);
	snprintf(buf, sizeof buf, "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int sig = sig_parse(tok);
		struct sigaction sa = { .sa_handler = on_catch };

		if (sig < 0) {
			fprintf(stderr, "probe: bad signal '%s'\n", tok);
			return -1;
		}
		if (how == 'i')
			signal(sig, SIG_IGN);
		else if (how == 'd')
			signal(sig, SIG_DFL);
		else if (how == 'c')
			sigaction(sig, &sa, NULL);
		else
			sigaddset(&set, sig);
	}
	return how == 'b' ? sigprocmask(SIG_BLOCK, &set, NULL) : 0;
}

/* Children of ours (orphans reparented to us as a subreaper). ALIVE_ONLY
 * skips zombies. Fills LIST with PID:COMM entries; returns the count. */
static int scan_children(int alive_only, char *list, size_t size, pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t len = 0;
	int n = 0;

	if (list)
		list[0] = '\0';
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char path[300], buf[512], comm[64] = "?", *p;
		char state;
		int ppid;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		p = read_stat(path, buf, sizeof buf);
		if (!p || sscanf(p + 2, "%c %d", &state, &ppid) != 2 || ppid != getpid())
			continue;
		if (alive_only && state == 'Z')
			continue;
		if (strchr(buf, '(') && p > strchr(buf, '('))
			snprintf(comm, sizeof comm, "%.*s", (int)(p - strchr(buf, '(') - 1),
				 strchr(buf, '(') + 1);
		pids[n++] = atoi(e->d_name);
		if (list && len < size - 80)
			len += (size_t)snprintf(list + len, size - len, "%s%s:%s",
						len ? "," : "", e->d_name, comm);
	}
	closedir(d);
	return n;
}

/* Kill and reap every child we have until none is left: orphans keep
 * arriving while their parents die.  Returns how many were reaped. */
static int reap_all(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t pids[512];
	int reaped = 0;

	for (int round = 0; round < 1000; round++) {
		int n = scan_children(1, NULL, 0, pids, 512);
		pid_t r;

		for (int i = 0; i < n; i++)	/* ours and unreaped: pinned */
			kill(pids[i], SIGKILL);
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			reaped++;
		if (r < 0 && errno == ECHILD)
			break;
		nanosleep(&tick, NULL);
	}
	return reaped;
}

static void reap_orphans(double grace)
{
	char list[4096] = "";
	pid_t pids[512];
	int n = 0;
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	/* Give descendants that were signalled a moment to die. */
	for (int i = 0; i < (int)(grace * 50); i++) {
		n = scan_children(1, list, sizeof list, pids, 512);
		if (n == 0)
			break;
		nanosleep(&tick, NULL);
	}
	add("left", "%s", n ? list : "none");
	add("orphans", "%d", reap_all());
}

/* Run-mode settings, applied to the command only. */
static const char *opt_block, *opt_ignore, *opt_dfl, *opt_catch;
static int opt_core, opt_broken_stderr;

static int child_setup(void)
{
	if (opt_core) {
		struct rlimit rl;
		if (getrlimit(RLIMIT_CORE, &rl) == 0) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_CORE, &rl);
		}
	}
	if (opt_broken_stderr) {	/* stderr: a pipe nobody reads */
		int p[2];
		if (pipe(p) != 0 || dup2(p[1], 2) < 0)
			return -1;
		close(p[0]);
		if (p[1] != 2)
			close(p[1]);
	}
	/* Defaults first, so -d LIST -i SIG ignores SIG whatever LIST says. */
	if ((opt_dfl && apply_sigs(opt_dfl, 'd') < 0) ||
	    (opt_ignore && apply_sigs(opt_ignore, 'i') < 0) ||
	    (opt_block && apply_sigs(opt_block, 'b') < 0))
		return -1;
	return 0;
}

static void exec_cmd(char **cmd)
{
	if (child_setup() < 0)
		_exit(2);
	execvp(cmd[0], cmd);
	fprintf(stderr, "probe: exec %s: %s\n", cmd[0], strerror(errno));
	_exit(127);
}

static volatile sig_atomic_t watchdog_fired;

static void on_alarm(int sig)
{
	(void)sig;
	watchdog_fired = 1;
}

/* Wait for PID; after LIMIT seconds (0: never) kill it and its group. */
static int wait_child(pid_t pid, double limit, int *st)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { { 0, 0 }, { (time_t)limit,
		(suseconds_t)((limit - (double)(time_t)limit) * 1e6) } };

	if (limit > 0) {
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
	}
	while (waitpid(pid, st, 0) < 0) {
		if (errno != EINTR)
			return -1;
		if (watchdog_fired == 1) {
			/* Still unreaped, so the pid and its group are ours. */
			fprintf(stderr, "probe: watchdog: %s still running after %gs, killed\n",
				"command", limit);
			kill(pid, SIGKILL);
			if (getpgid(pid) == pid)
				kill(-pid, SIGKILL);
			watchdog_fired = 2;
		}
	}
	return 0;
}

static int run(char **cmd, int wait_it, int subreaper, int quiet,
	       double limit, double grace, const char *file)
{
	pid_t pid;
	int st, code;

	/* With a watchdog too: what it kills may leave descendants behind,
	 * which would hold a test's output pipe open. */
	if ((subreaper || limit > 0) && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		perror("probe: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	if (!wait_it && !subreaper && limit <= 0)
		exec_cmd(cmd);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0)
		exec_cmd(cmd);
	if (wait_child(pid, limit, &st) < 0)
		return 2;
	if (WIFEXITED(st)) {
		add("status", "exit:%d", WEXITSTATUS(st));
		code = WEXITSTATUS(st);
	} else {
		add("status", "signal:%d", WTERMSIG(st));
		add("core", "%d", WCOREDUMP(st) ? 1 : 0);
		code = 128 + WTERMSIG(st);
	}
	if (watchdog_fired) {
		add("watchdog", "1");
		code = 255;
	}
	if (subreaper)
		reap_orphans(watchdog_fired ? 0 : grace);
	else if (watchdog_fired)
		reap_all();
	if (!quiet || file)
		emit(out, file);
	return code;
}

int main(int argc, char **argv)
{
	const char *key = NULL, *file = NULL, *logfile = NULL;
	int with_env = 0, quiet = 0, wait_it = 0, subreaper = 0;
	double secs = 0, limit = 0, grace = 3;
	int c;

	while ((c = getopt(argc, argv, "+b:c:Cd:eEG:i:k:l:m:o:PqRs:tT:Wx:")) != -1) {
		switch (c) {
		case 'b': opt_block = optarg; break;
		case 'c': opt_catch = optarg; break;
		case 'C': opt_core = 1; break;
		case 'd': opt_dfl = optarg; break;
		case 'e': with_env = 1; break;
		case 'G': grace = strtod(optarg, NULL); break;
		case 'E': exit_on_catch = 1; break;
		case 'i': opt_ignore = optarg; break;
		case 'k': key = optarg; break;
		case 'l': logfile = optarg; break;
		case 'm': break;
		case 'o': file = optarg; break;
		case 'P': opt_broken_stderr = 1; break;
		case 'q': quiet = 1; break;
		case 'R': subreaper = 1; break;
		case 's': secs = strtod(optarg, NULL); break;
		case 't': opt_catch = "TERM"; break;
		case 'T': limit = strtod(optarg, NULL); break;
		case 'W': wait_it = 1; break;
		case 'x': exit_code = atoi(optarg); break;
		default:
			return 2;
		}
	}
	if (optind < argc)
		return run(argv + optind, wait_it, subreaper, quiet, limit, grace, file);

	if (logfile) {
		logfd = open(logfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (logfd < 0) {
			perror(logfile);
			return 2;
		}
	}
	/* Report mode applies the signal settings to itself. */
	if (child_setup() < 0 || (opt_catch && apply_sigs(opt_catch, 'c') < 0))
		return 2;
	report(argv[0], with_env);
	if (key) {
		char buf[8192];
		const char *v = lookup(key, buf, sizeof buf);

		if (!v)
			return 3;
		snprintf(out, sizeof out, "%s\n", v);
	}
	if (!quiet || file)
		emit(out, file);
	if (secs > 0)
		sleep_for(secs);
	return exit_code;
}
