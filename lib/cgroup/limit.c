/* SPDX-License-Identifier: ISC */
/* limit: the limits' spellings, read strictly (no sign, no blank, no
 * fraction: what is not in the grammar is refused, never rounded). */
#include "cgroup/limit.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The kernel's largest CFS quota, 2^44 - 1 us (MAX_BW). */
#define CPU_QUOTA_MAX ((1ULL << 44) - 1)
#define PIDS_MAX_LIMIT 4194304ULL

/* Leading decimal digits of S into *V; the rest in *END.  False when
 * there are none or the value passes UINT64_MAX. */
static bool digits(const char *s, uint64_t *v, const char **end)
{
	uint64_t n = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (n > (UINT64_MAX - d) / 10)
			return false;
		n = n * 10 + d;
	}
	*v = n;
	*end = p;
	return p != s;
}

static bool is_max(const char *s)
{
	return !strcmp(s, "max") || !strcmp(s, "infinity");
}

static const char memory_grammar[] =
	"use BYTES, or BYTES with K, M, G, T, P or E (1024-based), or max";

const char *limit_memory(const char *s, char out[LIMIT_VALUE_MAX])
{
	/* systemd's units, and the kernel's memparse lowercase ones. */
	static const char units[] = "KMGTPE", lower[] = "kmgtpe";
	const char *end, *u, *l;
	uint64_t v;
	long k;

	if (is_max(s)) {
		strcpy(out, "max");
		return NULL;
	}
	if (!digits(s, &v, &end))
		return memory_grammar;
	if (*end) {
		u = strchr(units, *end), l = strchr(lower, *end);
		k = u ? u - units + 1 : l ? l - lower + 1 : 0;
		if (end[1] || !k)
			return memory_grammar;
		for (; k > 0; k--) {
			if (v > UINT64_MAX / 1024)
				return "too large";
			v *= 1024;
		}
	}
	snprintf(out, LIMIT_VALUE_MAX, "%llu", (unsigned long long)v);
	return NULL;
}

const char *limit_pids(const char *s, char out[LIMIT_VALUE_MAX])
{
	const char *end;
	uint64_t v;

	if (is_max(s)) {
		strcpy(out, "max");
		return NULL;
	}
	if (!digits(s, &v, &end) || *end || v < 1 || v > PIDS_MAX_LIMIT)
		return "use 1..4194304 (the command is one), or max";
	snprintf(out, LIMIT_VALUE_MAX, "%llu", (unsigned long long)v);
	return NULL;
}

static const char cpu_grammar[] =
	"use QUOTA[/PERIOD] or cpu.max's 'QUOTA PERIOD': QUOTA in "
	"microseconds (1000 or more), P% of one CPU, or max; PERIOD in "
	"microseconds, 1000..1000000";

const char *limit_cpu(const char *s, char out[LIMIT_VALUE_MAX])
{
	const char *end = s;
	uint64_t q = 0, period = 100000;
	bool max = !strncmp(s, "max", 3), pct = false;

	if (max)
		end = s + 3;
	else if (!digits(s, &q, &end))
		return cpu_grammar;
	else if (*end == '%')
		pct = true, end++;
	/* One '/' (ours) or one space (the kernel's cpu.max). */
	if ((*end == '/' || *end == ' ') &&
	    (!digits(end + 1, &period, &end) || period < 1000 || period > 1000000))
		return cpu_grammar;
	if (*end)
		return cpu_grammar;
	if (pct)        /* at most 2^44 * 10^6: no overflow */
		q = q > CPU_QUOTA_MAX ? CPU_QUOTA_MAX + 1 : q * period / 100;
	if (!max && (q < 1000 || q > CPU_QUOTA_MAX))
		return pct ? "the quota it gives is below 1000 microseconds "
			     "or beyond the kernel's" : cpu_grammar;
	if (max)
		snprintf(out, LIMIT_VALUE_MAX, "max %llu",
			 (unsigned long long)period);
	else
		snprintf(out, LIMIT_VALUE_MAX, "%llu %llu",
			 (unsigned long long)q, (unsigned long long)period);
	return NULL;
}

const struct limit_row limit_rows[CGROUP_NLIMITS] = {
#define CGROUP_LIMIT_ROW(id, option, key, ctl, file, spell) \
	[CGROUP_LIMIT_##id] = { option, key, ctl, file, spell },
	CGROUP_LIMITS(CGROUP_LIMIT_ROW)
#undef CGROUP_LIMIT_ROW
};
