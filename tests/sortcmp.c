/* SPDX-License-Identifier: ISC */
/* sortcmp: lib/sys/small.c's small_sort and small_strstr against the libc's
 * qsort and strstr: random arrays of several element sizes (with many
 * equal keys; compared under a total order, so the results must be the
 * same bytes), and random haystacks and needles over a small alphabet.
 *
 * usage: sortcmp [ROUNDS]    prints "sortcmp: N cases agree" or the first
 *                            difference, and exits 1 on one */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libc's qsort and strstr here: they are the reference. */
#undef LEASH_SMALL_LIBC
#include "sys/small.c"

static unsigned long long seed = 0x2545f4914f6cdd1dULL;

static unsigned rnd(unsigned n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed % n);
}

static size_t elem;     /* the element size of the current round */

/* A total order: the first byte (a key with many ties), then the rest. */
static int cmp_bytes(const void *a, const void *b)
{
	return memcmp(a, b, elem);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 1, 3, 4, 8, 24 };
	long rounds = argc > 1 ? atol(argv[1]) : 3000, cases = 0;
	static char a[4096 * 24], b[4096 * 24];

	for (long r = 0; r < rounds; r++, cases++) {
		size_t n = rnd(8) ? rnd(40) : rnd(4096);

		elem = sizes[rnd(5)];
		for (size_t i = 0; i < n * elem; i++)
			a[i] = (char)(i % elem ? rnd(256) : rnd(4));
		memcpy(b, a, n * elem);
		qsort(a, n, elem, cmp_bytes);
		small_sort(b, n, elem, cmp_bytes);
		if (memcmp(a, b, n * elem)) {
			printf("sortcmp: %zu elements of %zu bytes sort differently\n", n, elem);
			return 1;
		}
	}
	int v[] = { 5, -1, 3, 3, 0, 2147483647, -2147483647 - 1, 7 }, w[8];
	memcpy(w, v, sizeof v);
	qsort(v, 8, sizeof *v, cmp_int);
	small_sort(w, 8, sizeof *w, cmp_int);
	if (memcmp(v, w, sizeof v)) {
		printf("sortcmp: ints sort differently\n");
		return 1;
	}
	for (long r = 0; r < rounds * 10; r++, cases++) {
		char hay[64], needle[8];
		size_t hn = rnd(60), nn = rnd(6);

		for (size_t i = 0; i < hn; i++)
			hay[i] = "ab -"[rnd(4)];
		hay[hn] = '\0';
		for (size_t i = 0; i < nn; i++)
			needle[i] = "ab -"[rnd(4)];
		needle[nn] = '\0';
		if (strstr(hay, needle) != small_strstr(hay, needle)) {
			printf("sortcmp: strstr(\"%s\", \"%s\") differs\n", hay, needle);
			return 1;
		}
	}
	printf("sortcmp: %ld cases agree\n", cases);
	return 0;
}
