/* SPDX-License-Identifier: ISC */
/* arena: leash's malloc.  A leash process allocates a few KiB once (stdio
 * buffers for /etc/passwd, the command's environment, libcap's sets) and
 * then only waits: a bump allocator over an array in .bss serves that
 * from pages beside the binary's own, under page tables that already
 * exist.  musl's malloc maps fresh pages elsewhere (mmap, a randomized
 * brk); on a VM the first touch of such a region costs 0.2-0.6 ms, more
 * than all of leash's own work in a launch.  Untouched arena pages cost
 * no memory.  A block that does not fit comes from mmap and goes back to
 * it on free.
 *
 * Used from the main thread only: the waiter thread never allocates, nor
 * does a child before its exec (lib/spawn/spawn.c), which may share our
 * memory (vfork-style) while the main thread runs on.
 * Only with musl, which lets a program replace malloc by defining these
 * four functions; glibc and sanitizer builds keep the C library's. */

/* First: the C library's headers say which library it is. */
#include <errno.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sys/bss.h"

#if !defined(__GLIBC__) && !defined(__BIONIC__) && !defined(__SANITIZE_ADDRESS__)

#define ARENA_SIZE (256 * 1024)
#define ALIGN 16

/* ALIGN bytes before every block, also where size_t has 4 bytes, so
 * every block is aligned as malloc's must be. */
struct block {
	alignas(ALIGN) size_t size;     /* usable bytes */
	size_t mapped;          /* 1: from mmap, size is what was asked */
};
_Static_assert(sizeof(struct block) == ALIGN, "a header is one ALIGN unit");

/* The counters among the small variables a launch touches anyway (the
 * link sorts them together, bss.h): the first block's page is then
 * written first, one fault, not read first (the zero page mapped) and
 * then written (a copy: a second). */
static struct {
	size_t top;             /* first free byte */
	size_t dirty;           /* bytes ever handed out: above, still zero */
} arena;
static BSS_PAGE unsigned char arena_mem[ARENA_SIZE];

static size_t round_up(size_t n)
{
	return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

static struct block *block_of(void *p)
{
	return (struct block *)p - 1;
}

static int is_last(const struct block *b)
{
	return (const unsigned char *)(b + 1) + b->size == arena_mem + arena.top;
}

static struct block *map_block(size_t n)
{
	if (n > SIZE_MAX - sizeof(struct block))
		return errno = ENOMEM, NULL;
	struct block *b = mmap(NULL, n + sizeof *b, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return errno = ENOMEM, NULL;
	b->size = n;
	b->mapped = 1;
	return b;
}

/* Hand out N more bytes at the top; the high-water mark follows. */
static void arena_take(size_t n)
{
	arena.top += n;
	if (arena.top > arena.dirty)
		arena.dirty = arena.top;
}

static struct block *alloc_block(size_t n)
{
	if (n > ARENA_SIZE ||
	    sizeof(struct block) + round_up(n) > ARENA_SIZE - arena.top)
		return map_block(n);
	struct block *b = (struct block *)(arena_mem + arena.top);
	b->size = round_up(n);
	b->mapped = 0;
	arena_take(sizeof *b + b->size);
	return b;
}

void *malloc(size_t n)
{
	struct block *b = alloc_block(n);

	return b ? b + 1 : NULL;
}

/* Only the newest block goes back to the arena: leash frees little, and
 * mostly in the reverse order of allocation. */
void free(void *p)
{
	if (!p)
		return;
	struct block *b = block_of(p);
	if (b->mapped)
		munmap(b, b->size + sizeof *b);
	else if (is_last(b))
		arena.top = (size_t)((unsigned char *)b - arena_mem);
}

void *calloc(size_t m, size_t n)
{
	if (n && m > SIZE_MAX / n)
		return errno = ENOMEM, NULL;
	size_t len = m * n, dirty = arena.dirty;
	struct block *b = alloc_block(len);
	if (!b)
		return NULL;
	/* Bytes never handed out before, and mmap pages, are zero already. */
	size_t at = (size_t)((unsigned char *)(b + 1) - arena_mem);
	if (!b->mapped && at < dirty)
		memset(b + 1, 0, dirty - at < len ? dirty - at : len);
	return b + 1;
}

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	struct block *b = block_of(p);
	if (!b->mapped) {
		if (n <= b->size)
			return p;
		/* The newest block grows in place. */
		size_t more = round_up(n) - b->size;
		if (n <= ARENA_SIZE && is_last(b) &&
		    more <= ARENA_SIZE - arena.top) {
			arena_take(more);
			b->size += more;
			return p;
		}
	} else if (n <= b->size) {
		return p;
	}
	void *q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, b->size < n ? b->size : n);
	free(p);
	return q;
}

#else
/* ISO C wants something in a translation unit. */
typedef int arena_unused;
#endif
