/* SPDX-License-Identifier: ISC */
/* fail-threads: many libleash runs failing at once, from several
 * threads, each with a message of its own.  A white-box host: it links
 * lib/'s objects with their internal names (build/libobj, as the
 * archive has them) to read what a host cannot: the line a failed
 * cgroup step leaves (run_prepare's *what, which leash_spawn turns into
 * -errno).  Each thread asks for a cgroup root of its own name that is
 * not there, again and again, through run_prepare (leash_spawn's first
 * half) and through leash_spawn itself; every message must name that
 * thread's root and no other, every error must be ENOENT, nothing may
 * be printed (fd 2 is checked empty).  A static buffer on that path (a
 * quote, a message) shared by the threads mixes their roots: the roots
 * are long (about 800 bytes), so that copying one is slow enough for
 * another thread to overwrite it meanwhile.
 *   fail-threads [THREADS [ROUNDS]]    prints "ok", or FAIL lines */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "leash.h"
#include "spawn/attr.h"
#include "supervise/supervise.h"
#include "time/time.h"

static int rounds = 400;
static atomic_int failures;
static char base[64];

#define FAIL(...) do { \
	if (atomic_fetch_add(&failures, 1) < 10) { \
		printf("FAIL: " __VA_ARGS__); \
		printf("\n"); \
		fflush(stdout); \
	} \
} while (0)

/* Where the message differs from the one due: 40 bytes of each. */
static void say_differ(const char *got, const char *want)
{
	size_t at = 0;

	while (got[at] && got[at] == want[at])
		at++;
	at = at > 20 ? at - 20 : 0;
	FAIL("message differs at byte %zu: \"%.40s\", not \"%.40s\"", at,
	     got + (at < strlen(got) ? at : strlen(got)), want + at);
}

/* The first half of leash_spawn, as it makes it, with the message. */
static void by_prepare(const leash_attr_t *a, const char *want)
{
	struct leash_run *r = malloc(sizeof *r);
	const char *what = NULL;
	int rc;

	if (!r) {
		FAIL("no memory");
		return;
	}
	run_init(r, &r->own, WAITER_PIDFD);
	*r->plan = a->plan;
	r->plan->self = getpid();
	clock_now(LEASH_CLOCK, &r->plan->started);
	errno = 0;
	rc = run_prepare(r, &what);
	if (rc != -1 || errno != ENOENT)
		FAIL("run_prepare: %d, errno %d, not -1 ENOENT", rc, errno);
	else if (!what || strcmp(what, want))
		say_differ(what ? what : "", want);
	free(r);
}

static void *thread(void *arg)
{
	long n = (long)arg;
	char root[1024], want[1200], pad[256];
	char *argv[] = { "true", NULL };
	leash_attr_t *a;
	leash_run_t *run;

	memset(pad, 'a' + (int)(n % 26), 250);
	pad[250] = '\0';
	for (int i = 0; i < rounds; i++) {
		snprintf(root, sizeof root, "%s-t%ld-r%d/%s/%s/%s", base, n, i,
			 pad, pad, pad);
		snprintf(want, sizeof want, "--cgroup-root '%s' is not on a "
			 "cgroup filesystem: %s", root, strerror(ENOENT));
		if (leash_attr_init(&a) < 0 ||
		    leash_attr_set_cgroup(a, LEASH_CGROUP_REQUIRE, root) < 0) {
			FAIL("attr");
			return NULL;
		}
		by_prepare(a, want);
		run = NULL;
		int rc = leash_spawn(&run, "/bin/true", argv, NULL, a);
		if (rc != -ENOENT || run)
			FAIL("leash_spawn: %d, not -ENOENT (%d)", rc, -ENOENT);
		leash_attr_destroy(a);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t t[64];
	char err[] = "/tmp/leash-fail-threads.XXXXXX";
	int fd, saved;
	struct stat st;

	if (argc > 2)
		rounds = atoi(argv[2]);
	if (nthreads < 1 || nthreads > 64 || rounds < 1)
		return 2;
	/* The quotes as the C locale makes them. */
	setenv("LC_ALL", "C", 1);
	snprintf(base, sizeof base, "/tmp/leash-nx-%ld", (long)getpid());
	/* Whatever the library prints goes to this file. */
	fd = mkstemp(err);
	if (fd < 0)
		return 2;
	unlink(err);
	saved = dup(2);
	dup2(fd, 2);
	for (long i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, thread, (void *)i)) {
			FAIL("pthread_create");
			nthreads = (int)i;
			break;
		}
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	dup2(saved, 2);
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		char buf[200] = "";
		(void)!pread(fd, buf, sizeof buf - 1, 0);
		FAIL("the library printed %lld bytes: %s", (long long)st.st_size,
		     buf);
	}
	if (!atomic_load(&failures))
		printf("ok\n");
	return atomic_load(&failures) ? 1 : 0;
}
