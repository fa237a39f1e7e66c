/* SPDX-License-Identifier: ISC */
/* host-threads: a multithreaded server that blocks SIGCHLD in every
 * thread (as sd-event asks of its hosts).  Eight threads run commands
 * through libleash at once, each with leash_run_wait; a design that
 * waited for SIGCHLD would never wake.  After them, the process is as
 * it was: its threads, its signal mask, ignored and caught signals, its
 * descriptors; no child is left.  One run in four takes the no-pidfd
 * path (LEASH_WAIT_THREAD: the one thread the library may start),
 * which must be gone again too. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

#define NTHREADS 8
#define NRUNS 6

static void *worker(void *arg)
{
	long t = (long)arg;

	for (int i = 0; i < NRUNS; i++) {
		bool late = (i + t) % 3 == 0;
		unsigned flags = (i + t) % 4 == 0 ? LEASH_WAIT_THREAD : 0;
		leash_attr_t *a = attr_deadline(late ? 200 : 10000, 0, flags);
		char code[16], *argv[] = { "sh", "-c", code, NULL };
		struct leash_outcome o;
		leash_run_t *r;
		int rc;

		snprintf(code, sizeof code, late ? "sleep 10" : "exit %d",
			 (int)(t * 10 + i));
		rc = leash_spawn(&r, SH, argv, NULL, a);
		leash_attr_destroy(a);
		CHECK(rc == 0, "spawn: %s", strerror(-rc));
		if (rc < 0)
			continue;
		rc = leash_run_wait(r, 20000);
		CHECK(rc == 1, "thread %ld run %d: wait %d", t, i, rc);
		outcome_of(r, &o);
		if (late)
			CHECK(o.result == LEASH_TIMEOUT && o.status == SIGTERM,
			      "thread %ld run %d: %s %d", t, i,
			      leash_result_name(o.result), o.status);
		else
			CHECK(o.result == LEASH_EXITED &&
			      o.status == (int)(t * 10 + i),
			      "thread %ld run %d: %s %d", t, i,
			      leash_result_name(o.result), o.status);
		leash_run_free(r);
	}
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

/* The dispositions and this thread's mask as the program itself reads
 * them: under qemu-user /proc/self/status is the emulator's (it catches
 * every signal itself), this is the guest's. */
struct view {
	void (*handler[65])(int);
	sigset_t mask;
};

static void view_of(struct view *v)
{
	for (int sig = 1; sig <= 64; sig++) {
		struct sigaction sa;

		/* libc keeps a few for itself (musl 32-34): not asked. */
		v->handler[sig] = sigaction(sig, NULL, &sa) < 0 ? NULL :
				  sa.sa_handler;
	}
	pthread_sigmask(SIG_BLOCK, NULL, &v->mask);
}

static void view_same(const struct view *a, const struct view *b)
{
	for (int sig = 1; sig <= 64; sig++)
		CHECK(a->handler[sig] == b->handler[sig], "signal %d's "
		      "disposition changed", sig);
	for (int sig = 1; sig <= 64; sig++)
		CHECK(sigismember(&a->mask, sig) == sigismember(&b->mask, sig),
		      "signal %d's blocked bit changed", sig);
}

static const char *const keys[] = { "Threads:", "SigBlk:", "SigIgn:",
				    "SigCgt:" };

int main(void)
{
	char before[4][256], after[4][256];
	struct view vbefore, vafter;
	pthread_t th[NTHREADS];
	sigset_t chld;
	siginfo_t si;
	int fds;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, NULL);
	/* A server has had threads already: glibc's first pthread_create
	 * installs a handler of its own (SIGSETXID), not the library's. */
	pthread_create(&th[0], NULL, nothing, NULL);
	pthread_join(th[0], NULL);
	for (int i = 0; i < 4; i++)
		status_line(keys[i], before[i], sizeof before[i]);
	view_of(&vbefore);
	fds = count_fds();
	for (long t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	/* Under qemu-user a guest thread's host thread ends a little after
	 * the guest's join returned (the emulator clears the guest's tid
	 * first): the count may settle, for a bounded while. */
	for (int i = 0; i < 500; i++) {
		status_line(keys[0], after[0], sizeof after[0]);
		if (!strcmp(before[0], after[0]))
			break;
		usleep(10000);
	}
	for (int i = 0; i < 4; i++) {
		if (i > 0)
			status_line(keys[i], after[i], sizeof after[i]);
		CHECK(!strcmp(before[i], after[i]), "changed: %.*s -> %s",
		      (int)strlen(before[i]) - 1, before[i], after[i]);
	}
	view_of(&vafter);
	view_same(&vbefore, &vafter);
	CHECK(count_fds() == fds, "descriptors: %d before, %d after", fds,
	      count_fds());
	si.si_pid = 0;
	CHECK(waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0 && errno == ECHILD,
	      "a child is left (pid %d)", (int)si.si_pid);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
