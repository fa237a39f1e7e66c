/* SPDX-License-Identifier: ISC */
/* small: qsort and strstr for the static build, a fraction of musl's
 * size (its smoothsort is 2 KiB, its two-way strstr 1.3 KiB and 2 KiB
 * of stack): leash sorts a few group and process lists and looks for
 * short needles in short lines.  LEASH_SMALL_LIBC (configure, static
 * links) makes them libc's qsort and strstr; tests/sortcmp.c compares
 * them with the libc's. */
#include "sys/small.h"

#include <string.h>

static void swap_bytes(char *a, char *b, size_t n)
{
	while (n--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Sift element ROOT of the heap of N elements down to its place. */
static void sift_down(char *base, size_t size, size_t root, size_t n,
		      int (*cmp)(const void *, const void *))
{
	size_t child;

	for (; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n &&
		    cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap_bytes(base + root * size, base + child * size, size);
	}
}

/* Heapsort: in place, O(n log n) at worst, no recursion. */
void small_sort(void *base, size_t n, size_t size,
		int (*cmp)(const void *, const void *))
{
	char *b = base;

	if (n < 2 || !size)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, size, i, n, cmp);
	for (size_t end = n - 1; end > 0; end--) {
		swap_bytes(b, b + end * size, size);
		sift_down(b, size, 0, end, cmp);
	}
}

/* The first NEEDLE in HAY: the plain search, quadratic only in what
 * leash never searches (long needles with long partial matches). */
char *small_strstr(const char *hay, const char *needle)
{
	size_t k = strlen(needle);

	if (!k)
		return (char *)hay;
	for (; (hay = strchr(hay, *needle)); hay++)
		if (!strncmp(hay, needle, k))
			return (char *)hay;
	return NULL;
}

#if defined LEASH_SMALL_LIBC && !defined __GLIBC__
void qsort(void *base, size_t n, size_t size,
	   int (*cmp)(const void *, const void *))
{
	small_sort(base, n, size, cmp);
}

char *strstr(const char *hay, const char *needle)
{
	return small_strstr(hay, needle);
}
#endif
