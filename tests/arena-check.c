/* SPDX-License-Identifier: ISC */
/* arena-check: lib/sys/arena.c's malloc, calloc, realloc and free, checked
 * from inside (the library file is compiled in, so this helper's own
 * malloc is the arena).  Prints "ok" and exits 0, or names the first
 * broken property and exits 1; exits 77 where the C library keeps its
 * own malloc (glibc, sanitizers). */
#include "../lib/sys/arena.c"

#include <stdio.h>

#ifndef ARENA_SIZE
int main(void)
{
	puts("this C library keeps its own malloc");
	return 77;
}
#else

static int failed;

static void check(int ok, const char *what)
{
	if (!ok && !failed++)
		printf("broken: %s\n", what);
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(void)
{
	unsigned char *a = malloc(100), *b = malloc(1);
	check(a && b && (uintptr_t)a % ALIGN == 0 && (uintptr_t)b % ALIGN == 0,
	      "blocks are aligned to 16");
	check(b >= a + 100, "blocks do not overlap");
	/* volatile: a plain store before free() may be optimized away. */
	*(volatile unsigned char *)b = 0xff;
	free(b);
	b = calloc(4, 8);
	check(b && all_zero(b, 32), "calloc zeroes memory handed out before");
	/* The newest block grows in place; an older one moves, keeping data. */
	unsigned char *c = realloc(b, 64);
	check(c == b && all_zero(c, 32), "the newest block grows in place");
	unsigned char *e = malloc(1);
	check(e >= c + 64, "a block grown in place is not handed out again");
	memset(a, 7, 100);
	unsigned char *d = realloc(a, 300);
	check(d && d != a && d[0] == 7 && d[99] == 7, "realloc keeps the data");
	check(realloc(d, 10) == d, "shrinking keeps the block");
	/* Too big for the arena: mmap, zeroed, and munmap on free. */
	unsigned char *big = calloc(1, ARENA_SIZE + 1);
	check(big && (big < arena_mem || big >= arena_mem + ARENA_SIZE) &&
	      all_zero(big, ARENA_SIZE + 1),
	      "a block bigger than the arena comes from mmap, zeroed");
	big[ARENA_SIZE] = 1;
	unsigned char *bigger = realloc(big, 2 * ARENA_SIZE);
	check(bigger && bigger[ARENA_SIZE] == 1, "a mapped block grows by copy");
	free(bigger);
	/* volatile: the compiler must not see the sizes and refuse them. */
	volatile size_t half = SIZE_MAX / 2, max = SIZE_MAX;
	check(calloc(half, 4) == NULL && errno == ENOMEM,
	      "calloc's size overflow is ENOMEM");
	check(malloc(max) == NULL && errno == ENOMEM,
	      "an impossible size is ENOMEM");
	/* Filling the arena: the rest still comes, from mmap. */
	for (int i = 0; i < 100; i++) {
		unsigned char *p = malloc(ARENA_SIZE / 50);
		check(p != NULL, "allocations go on when the arena is full");
		if (p)
			p[ARENA_SIZE / 50 - 1] = 1;
	}
	if (!failed)
		puts("ok");
	return failed != 0;
}
#endif
