/* SPDX-License-Identifier: ISC */
/* small: qsort and strstr, smaller than musl's (see small.c). */
#ifndef LEASH_SMALL_H
#define LEASH_SMALL_H

#include <stddef.h>

void small_sort(void *base, size_t n, size_t size,
		int (*cmp)(const void *, const void *));
char *small_strstr(const char *hay, const char *needle);

#endif
