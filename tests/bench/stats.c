/* SPDX-License-Identifier: ISC */
/* stats: order statistics, the worst of several medians, and a small
 * random generator. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Linear interpolation between the closest ranks (sorted V). */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

void stats_of(double *v, size_t n, struct stats *s)
{
	s->n = n;
	if (n == 0) {
		s->med = s->p10 = s->p90 = s->min = s->max = 0.0 / 0.0;
		return;
	}
	qsort(v, n, sizeof *v, cmp_double);
	s->med = quantile(v, n, 0.5);
	s->p10 = quantile(v, n, 0.1);
	s->p90 = quantile(v, n, 0.9);
	s->min = v[0];
	s->max = v[n - 1];
}

/* The larger of WORST and V, where NaN means "none yet" (or "none"). */
double worst_of(double worst, double v)
{
	return isnan(worst) || v > worst ? v : worst;
}

uint32_t rand_next(void)
{
	static uint32_t x;

	if (!x)
		x = (uint32_t)time(NULL) * 2654435761u | 1;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

void shuffle(int *order, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rand_next() % (uint32_t)(i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}
