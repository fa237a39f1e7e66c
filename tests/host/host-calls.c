/* SPDX-License-Identifier: ISC */
/* host-calls: the calls one by one.  A command that cannot be run ends
 * as LEASH_FAILED with its stage and errno, nothing else; bad arguments
 * are -EINVAL and change nothing; as root, leash_attr_set_user runs the
 * command as that uid, gid and groups; a run freed while it runs is
 * killed and reaped; leash_run_signal reaches the command.  With
 * "paths": the fallbacks of a plain run, printed (see paths()). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

/* The directory of status_or_signal's cores, emptied and removed. */
static void unlink_core(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

static void failed_exec(void)
{
	char *argv[] = { "nowhere", NULL };
	struct leash_outcome o;
	leash_run_t *r;
	int rc = leash_spawn(&r, "/nonexistent/leash-test", argv, NULL, NULL);

	CHECK(rc == 0, "spawn: %d", rc);
	if (rc)
		return;
	CHECK(leash_run_wait(r, 5000) == 1, "wait");
	outcome_of(r, &o);
	CHECK(o.result == LEASH_FAILED && o.stage == LEASH_STAGE_EXEC &&
	      o.error == ENOENT, "missing file: %s stage %d error %d",
	      leash_result_name(o.result), o.stage, o.error);
	leash_run_free(r);
}

static void bad_arguments(void)
{
	leash_attr_t *a;
	struct timespec neg = { -1, 0 };

	leash_attr_init(&a);
	CHECK(leash_attr_set_deadline(a, 0, &neg, NULL) == -EINVAL, "negative");
	CHECK(leash_attr_set_deadline(a, SIGSTOP, NULL, NULL) == -EINVAL, "STOP");
	CHECK(leash_attr_set_flags(a, ~0u) == -EINVAL, "flags");
	CHECK(leash_attr_set_cgroup(a, (enum leash_cgroup)9, NULL) == -EINVAL,
	      "cgroup mode");
	CHECK(leash_attr_set_limit(a, LEASH_LIMIT_MEMORY_MAX, "lots") ==
	      -EINVAL, "limit");
	CHECK(leash_attr_set_cpu_weight(a, 10001) == -EINVAL, "weight");
	CHECK(leash_spawn(NULL, SH, NULL, NULL, a) == -EINVAL, "spawn");
	leash_attr_destroy(a);
}

/* As uid 65534, gid 65534, groups { 65534 }: what id says, read back. */
static void as_user(void)
{
	gid_t g = 65534;
	leash_attr_t *a;
	char *argv[] = { "sh", "-c", "echo $(id -u) $(id -g) $(id -G)", NULL };
	char buf[64] = "";
	struct leash_outcome o;
	leash_run_t *r;
	int fds[2], rc;
	ssize_t n;

	if (geteuid() != 0)
		return;
	leash_attr_init(&a);
	CHECK(leash_attr_set_user(a, 65534, 65534, 1, &g) == 0, "set_user");
	if (pipe(fds) < 0)
		return;
	rc = spawn_stdout(&r, fds[1], SH, argv, a);
	close(fds[1]);
	leash_attr_destroy(a);
	CHECK(rc == 0, "spawn as 65534: %d", rc);
	if (rc)
		return;
	CHECK(leash_run_wait(r, 5000) == 1, "wait");
	n = read(fds[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(!strcmp(buf, "65534 65534 65534\n"), "ids: %s", buf);
	outcome_of(r, &o);
	CHECK(o.result == LEASH_EXITED && o.status == 0, "%s %d",
	      leash_result_name(o.result), o.status);
	close(fds[0]);
	leash_run_free(r);
}

static void signal_and_free(void)
{
	/* exec: no sleep of dash's left holding the test's output for 30 s */
	char *argv[] = { "sh", "-c", "exec sleep 30", NULL };
	struct leash_outcome o;
	leash_run_t *r, *r2;
	siginfo_t si;

	CHECK(leash_spawn(&r, SH, argv, NULL, NULL) == 0, "spawn");
	CHECK(leash_run_signal(r, SIGUSR1, 0) == 0, "signal");
	CHECK(leash_run_wait(r, 5000) == 1, "wait after USR1");
	outcome_of(r, &o);
	CHECK(o.result == LEASH_SIGNALED && o.status == SIGUSR1 &&
	      o.nsignals == 1 && o.sent[0].why == LEASH_WHY_CALLER &&
	      (o.flags & (LEASH_OUT_SIGNAL | LEASH_OUT_CORE)) == LEASH_OUT_SIGNAL,
	      "USR1: %s %d flags %#x", leash_result_name(o.result), o.status,
	      o.flags);
	CHECK(leash_run_signal(r, SIGUSR1, 0) == -ESRCH, "signal after end");
	leash_run_free(r);
	/* Freed while it runs: killed, reaped, nothing left. */
	CHECK(leash_spawn(&r2, SH, argv, NULL, NULL) == 0, "spawn");
	CHECK(leash_run_dispatch(r2) == 0, "dispatch while it runs");
	leash_run_free(r2);
	si.si_pid = 0;
	CHECK(waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0 && errno == ECHILD,
	      "a child is left (pid %d)", (int)si.si_pid);
}

/* The fallback paths, forced: fork + pidfd_open (no clone3), and the
 * waiter thread (no pidfd): the same outcome, the fallback named. */
static void fallbacks(void)
{
	char *argv[] = { "sh", "-c", "exit 9", NULL };
	unsigned flags[] = { LEASH_NO_CLONE3, LEASH_NO_CLONE3 | LEASH_WAIT_THREAD };
	struct leash_outcome o;
	leash_run_t *r;

	for (int i = 0; i < 2; i++) {
		leash_attr_t *a = attr_deadline(0, 0, flags[i]);

		CHECK(leash_spawn(&r, SH, argv, NULL, a) == 0, "spawn");
		leash_attr_destroy(a);
		CHECK(leash_run_wait(r, 5000) == 1, "wait");
		outcome_of(r, &o);
		CHECK(o.result == LEASH_EXITED && o.status == 9 &&
		      (o.fallbacks & LEASH_FALLBACK_CLONE3),
		      "flags %#x: %s %d, fallbacks %#x", flags[i],
		      leash_result_name(o.result), o.status, o.fallbacks);
		leash_run_free(r);
	}
}

/* A script without "#!" and 100000 arguments, searched for as execvp
 * does: the /bin/sh fallback's copy of argv (800 KB) must not be made on
 * the 16 KiB a vfork-style child borrows from this thread's stack. */
#define LONG_ARGC 100000

static void long_argv(void)
{
	char dir[] = "/tmp/leash-host-XXXXXX", script[64];
	static char nums[LONG_ARGC][8];
	char **argv = calloc(LONG_ARGC + 2, sizeof *argv);
	leash_attr_t *a = attr_deadline(20000, 0, LEASH_SEARCH_PATH);
	struct leash_outcome o;
	leash_run_t *r;
	FILE *f;

	if (!argv || !mkdtemp(dir)) {
		CHECK(0, "calloc or mkdtemp");
		return;
	}
	snprintf(script, sizeof script, "%s/nosheb", dir);
	if ((f = fopen(script, "w"))) {
		fprintf(f, "[ $# = %d ] && [ \"${%d}\" = %d ]\n", LONG_ARGC,
			LONG_ARGC, LONG_ARGC);
		fclose(f);
	}
	chmod(script, 0755);
	argv[0] = script;
	for (int i = 1; i <= LONG_ARGC; i++) {
		snprintf(nums[i - 1], sizeof nums[0], "%d", i);
		argv[i] = nums[i - 1];
	}
	CHECK(leash_spawn(&r, script, argv, NULL, a) == 0, "spawn");
	CHECK(leash_run_wait(r, 20000) == 1, "wait");
	outcome_of(r, &o);
	CHECK(o.result == LEASH_EXITED && o.status == 0, "%d arguments: %s %d",
	      LONG_ARGC, leash_result_name(o.result), o.status);
	leash_run_free(r);
	leash_attr_destroy(a);
	free(argv);
	unlink(script);
	rmdir(dir);
}

/* Status or signal, as --report tells them apart: an exit after the
 * deadline's TERM is a status (no LEASH_OUT_SIGNAL), a death of it a
 * signal; a core dump is said (where the limit can be raised). */
static void status_or_signal(void)
{
	struct {
		const char *script;
		int result, status;
		unsigned flags;
	} c[] = {
		{ "exit 9", LEASH_EXITED, 9, 0 },
		{ "trap 'exit 3' TERM; sleep 5 & wait", LEASH_TIMEOUT, 3, 0 },
		{ "kill -TERM $$; sleep 5", LEASH_SIGNALED, SIGTERM,
		  LEASH_OUT_SIGNAL },
		{ "exec sleep 5", LEASH_TIMEOUT, SIGTERM, LEASH_OUT_SIGNAL },
		{ "ulimit -c unlimited 2>/dev/null || exit 99; kill -SEGV $$",
		  LEASH_SIGNALED, SIGSEGV, LEASH_OUT_SIGNAL | LEASH_OUT_CORE },
	};
	char dir[] = "/tmp/leash-host-calls.XXXXXX";
	struct leash_outcome o;
	leash_run_t *r;

	if (!mkdtemp(dir))
		return;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *argv[] = { "sh", "-c", (char *)c[i].script, NULL };
		leash_attr_t *a = attr_deadline(300, 0, 0);

		/* A core goes to the command's directory, one of ours. */
		leash_attr_set_cwd(a, dir);
		CHECK(leash_spawn(&r, SH, argv, NULL, a) == 0, "spawn");
		leash_attr_destroy(a);
		CHECK(leash_run_wait(r, 5000) == 1, "wait");
		outcome_of(r, &o);
		leash_run_free(r);
		if (o.result == LEASH_EXITED && o.status == 99)
			continue;       /* no core allowed here */
		/* Where the kernel wrote no core (a pattern it could not
		 * follow), it says so, as does the outcome. */
		if (c[i].flags & LEASH_OUT_CORE && !(o.flags & LEASH_OUT_CORE) &&
		    o.result == c[i].result && o.status == c[i].status)
			continue;
		CHECK(o.result == c[i].result && o.status == c[i].status &&
		      (o.flags & (LEASH_OUT_SIGNAL | LEASH_OUT_CORE)) == c[i].flags,
		      "%s: %s %d flags %#x", c[i].script,
		      leash_result_name(o.result), o.status, o.flags);
	}
	unlink_core(dir);
}

/* "paths": the path a plain run took, for library.bats to hold against
 * what the kernel (or the emulator) offers: one line, the result, the
 * status and the fallbacks the outcome names (none, or clone3: fork
 * then pidfd_open; pidfd: the waiter thread). */
static int paths(void)
{
	char *argv[] = { "sh", "-c", "exit 9", NULL };
	unsigned named = LEASH_FALLBACK_CLONE3 | LEASH_FALLBACK_PIDFD;
	struct leash_outcome o;
	leash_run_t *r;
	int rc = leash_spawn(&r, SH, argv, NULL, NULL);

	if (rc < 0)
		return printf("spawn: %s\n", strerror(-rc)), 1;
	leash_run_wait(r, 5000);
	outcome_of(r, &o);
	printf("%s %d fallbacks:%s%s%s", leash_result_name(o.result),
	       o.status, o.fallbacks ? "" : " none",
	       o.fallbacks & LEASH_FALLBACK_CLONE3 ? " clone3" : "",
	       o.fallbacks & LEASH_FALLBACK_PIDFD ? " pidfd" : "");
	if (o.fallbacks & ~named)
		printf(" %#x", o.fallbacks & ~named);
	printf("\n");
	leash_run_free(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "paths"))
		return paths();
	failed_exec();
	long_argv();
	fallbacks();
	status_or_signal();
	bad_arguments();
	as_user();
	signal_and_free();
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
