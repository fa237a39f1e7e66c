/* SPDX-License-Identifier: ISC */
/* abi-client: built against one build's header, linked against the
 * next build's libleash.a (tests/library.bats builds it against
 * tests/host/abi/leash-1.h, the header of API version 1 as released),
 * it must link and run: every name it calls is still exported, the
 * attribute setters still take what they took, and leash_run_outcome
 * fills no more than the outcome it knew (a newer, longer one is
 * filled up to the library's own size, the rest left as the caller set
 * it). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The released header, not lib/leash.h. */
#ifndef ABI_HEADER
#define ABI_HEADER "abi/leash-1.h"
#endif
#include ABI_HEADER
#include <stddef.h>

struct newer_outcome {
	struct leash_outcome v1;
	long long from_the_future;
};

int main(void)
{
	char *argv[] = { "sh", "-c", "exit 5", NULL };
	struct timespec d = { 5, 0 };
	struct newer_outcome n;
	struct leash_outcome o;
	unsigned char tail[64];
	leash_attr_t *a;
	leash_run_t *r;
	int bad = 0;

	if (leash_version() < 1 || leash_attr_init(&a) < 0 ||
	    leash_attr_set_deadline(a, SIGTERM, &d, NULL) < 0 ||
	    leash_attr_set_flags(a, 0) < 0 ||
	    leash_spawn(&r, "/bin/sh", argv, NULL, a) < 0 ||
	    leash_run_wait(r, -1) != 1)
		return printf("FAIL: the calls of version 1\n"), 1;
	/* An older caller: exactly its size written, not a byte beyond. */
	memset(&o, 0xa5, sizeof o);
	memset(tail, 0xa5, sizeof tail);
	if (leash_run_outcome(r, &o, sizeof o) < 0 || o.size != sizeof o ||
	    o.result != LEASH_EXITED || o.status != 5)
		bad = printf("FAIL: outcome size %zu, %s %d\n", o.size,
			     leash_result_name(o.result), o.status);
	/* A newer caller: the library's fields, the rest untouched. */
	memset(&n, 0xa5, sizeof n);
	if (leash_run_outcome(r, &n.v1, sizeof n) < 0 ||
	    n.v1.size > sizeof n || n.v1.status != 5 ||
	    (n.v1.size <= offsetof(struct newer_outcome, from_the_future) &&
	     n.from_the_future != (long long)0xa5a5a5a5a5a5a5a5ULL))
		bad = printf("FAIL: a longer outcome: size %zu\n", n.v1.size);
	/* Unknown flag bits are refused, so a caller can test for one. */
	if (leash_attr_set_flags(a, 0x80000000u) != -22)
		bad = printf("FAIL: an unknown flag is accepted\n");
	leash_run_free(r);
	leash_attr_destroy(a);
	if (bad)
		return 1;
	printf("ok\n");
	return 0;
}
