/* SPDX-License-Identifier: ISC */
/* host-loop: a host with a main loop and child watches of its own, as a
 * GLib program has (GLib >= 2.74 watches a child by its pidfd and reaps
 * it with waitpid(pid)).  Its own children and libleash's runs share one
 * poll loop; each run is one more fd, dispatched when readable.  The
 * host's watches have a lower priority (as GLib's sources may): its
 * children wait as zombies until the runs are done, and any waitpid(-1)
 * meanwhile would take them.  Every
 * status must be the right one: the host's (the library reaps none of
 * them) and the runs'.  With "leaf": each run in a cgroup leaf of its
 * own, and a setsid'd grandchild holding the host's pipe dies at the
 * deadline, so the host's read reaches EOF. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

#define NOWN 4
#define NRUN 3

struct own { pid_t pid; int pidfd; int status; bool done; };

static void own_start(struct own *o, int code)
{
	char cmd[32];

	snprintf(cmd, sizeof cmd, "exit %d", code);
	o->pid = fork();
	if (o->pid == 0) {
		execl(SH, "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	o->pidfd = (int)syscall(SYS_pidfd_open, o->pid, 0);
	o->done = false;
}

/* The host's watch fired: it reaps its own child, by pid. */
static void own_reap(struct own *o)
{
	int st;

	CHECK(waitpid(o->pid, &st, 0) == o->pid,
	      "host's waitpid(%d): %s (the library took it)", (int)o->pid,
	      strerror(errno));
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	close(o->pidfd);
	o->done = true;
}

static int loop_plain(void)
{
	struct own own[NOWN];
	leash_run_t *run[NRUN];
	bool run_done[NRUN] = { false };
	char *argv[NRUN][4] = {
		{ "sh", "-c", "exit 3", NULL },
		{ "sh", "-c", "sleep 10", NULL },
		{ "sh", "-c", "trap '' TERM; sleep 10", NULL },
	};
	long deadline[NRUN] = { 0, 300, 300 }, kill[NRUN] = { 0, 0, 300 };
	struct leash_outcome o;
	int left = NOWN + NRUN;

	for (int i = 0; i < NOWN; i++)
		own_start(&own[i], 10 + i);
	for (int i = 0; i < NRUN; i++) {
		leash_attr_t *a = attr_deadline(deadline[i], kill[i], 0);
		int rc = leash_spawn(&run[i], SH, argv[i], NULL, a);

		leash_attr_destroy(a);
		if (rc < 0) {
			printf("FAIL: leash_spawn: %s\n", strerror(-rc));
			return 1;
		}
	}
	while (left > 0) {
		struct pollfd p[NOWN + NRUN];

		bool runs = left > NOWN;

		for (int i = 0; i < NOWN; i++)
			p[i] = (struct pollfd){ own[i].done || runs ? -1 :
						own[i].pidfd, POLLIN, 0 };
		for (int i = 0; i < NRUN; i++)
			p[NOWN + i] = (struct pollfd){ run_done[i] ? -1 :
				leash_run_fd(run[i]), POLLIN, 0 };
		if (poll(p, NOWN + NRUN, 5000) <= 0) {
			printf("FAIL: the loop waited 5 s for nothing\n");
			return 1;
		}
		for (int i = 0; i < NOWN; i++)
			if (p[i].revents && !own[i].done && (own_reap(&own[i]), 1))
				left--;
		for (int i = 0; i < NRUN; i++)
			if (p[NOWN + i].revents && !run_done[i] &&
			    leash_run_dispatch(run[i]) == 1) {
				run_done[i] = true;
				left--;
			}
	}
	for (int i = 0; i < NOWN; i++)
		CHECK(own[i].status == 10 + i, "host's child %d: status %d", i,
		      own[i].status);
	outcome_of(run[0], &o);
	CHECK(o.result == LEASH_EXITED && o.status == 3,
	      "run 0: %s %d", leash_result_name(o.result), o.status);
	CHECK(o.tree == LEASH_TREE_GROUP, "run 0: tree %d", o.tree);
	outcome_of(run[1], &o);
	CHECK(o.result == LEASH_TIMEOUT && o.status == SIGTERM &&
	      o.nsignals == 1 && o.sent[0].sig == SIGTERM &&
	      o.sent[0].why == LEASH_WHY_DEADLINE,
	      "run 1: %s %d, %u signals", leash_result_name(o.result),
	      o.status, o.nsignals);
	outcome_of(run[2], &o);
	CHECK(o.result == LEASH_KILLED_AFTER && o.status == SIGKILL &&
	      o.nsignals == 2 && o.sent[1].why == LEASH_WHY_KILL_AFTER,
	      "run 2: %s %d, %u signals", leash_result_name(o.result),
	      o.status, o.nsignals);
	for (int i = 0; i < NRUN; i++)
		leash_run_free(run[i]);
	return 0;
}

/* A run in its leaf: its setsid'd grandchild holds the write end of the
 * host's pipe; the deadline's KILL reaches it through the leaf, so the
 * host's read sees EOF, the tree counted in the outcome. */
static int loop_leaf(void)
{
	leash_attr_t *a = attr_deadline(1000, 300, 0);
	char *argv[] = { "sh", "-c", "setsid sh -c 'trap \"\" TERM; "
			 "sleep 30' & sleep 30", NULL };
	struct leash_outcome o;
	leash_run_t *r;
	int fds[2], rc;
	char buf[64];
	ssize_t n;

	if (leash_attr_set_cgroup(a, LEASH_CGROUP_TRACK, getenv("LEASH_CGROUP_ROOT")) < 0 ||
	    pipe(fds) < 0)
		return printf("FAIL: setup\n"), 1;
	/* The pipe's write end is the command's stdout. */
	rc = spawn_stdout(&r, fds[1], SH, argv, a);
	close(fds[1]);
	leash_attr_destroy(a);
	if (rc < 0)
		return printf("FAIL: leash_spawn: %s\n", strerror(-rc)), 1;
	rc = leash_run_wait(r, 10000);
	CHECK(rc == 1, "wait: %d", rc);
	/* Every writer is dead: EOF, at once (5 s: a writer lives). */
	struct pollfd pfd = { fds[0], POLLIN, 0 };
	n = poll(&pfd, 1, 5000) == 1 ? read(fds[0], buf, sizeof buf) : -1;
	CHECK(n == 0, "read after the run: %zd (a writer lives)", n);
	outcome_of(r, &o);
	CHECK(o.tree == LEASH_TREE_CGROUP, "tree %d", o.tree);
	/* The command dies of TERM; what it left ignores TERM and gets the
	 * KILL when it is due (a grandchild slow to set its trap dies of
	 * the TERM already: no KILL then). */
	CHECK(o.result == LEASH_TIMEOUT && o.status == SIGTERM, "result %s %d",
	      leash_result_name(o.result), o.status);
	CHECK(o.nsignals < 2 || (o.sent[1].sig == SIGKILL && o.sent[1].procs >= 1),
	      "the KILL reached %u processes", o.nsignals >= 2 ? o.sent[1].procs : 0);
	CHECK(o.flags & LEASH_OUT_CPU_CGROUP, "CPU not from the leaf");
	/* The leaf's counters read, its leftovers looked for; each one
	 * listed is named (sh or sleep), as --report lists them. */
	CHECK((o.flags & (LEASH_OUT_MEASURED | LEASH_OUT_LEFT_SEEN | LEASH_OUT_SIGNAL)) ==
	      (LEASH_OUT_MEASURED | LEASH_OUT_LEFT_SEEN | LEASH_OUT_SIGNAL),
	      "flags %#x", o.flags);
	for (unsigned i = 0; i < o.leftovers_seen && i < LEASH_OUT_MAX_LEFT; i++)
		CHECK(o.left[i].pid > 0 && (!strcmp(o.left[i].name, "sh") ||
					    !strcmp(o.left[i].name, "sleep")),
		      "leftover %u: %d %.16s", i, (int)o.left[i].pid,
		      o.left[i].name);
	leash_run_free(r);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = argc > 1 && !strcmp(argv[1], "leaf") ? loop_leaf() :
		 loop_plain();
	siginfo_t si;

	/* Nothing of ours is left to reap: no zombie, no stranger. */
	si.si_pid = 0;
	CHECK(waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0 && errno == ECHILD,
	      "a child is left (pid %d)", (int)si.si_pid);
	if (rc || failures)
		return 1;
	printf("ok\n");
	return 0;
}
