/* SPDX-License-Identifier: ISC */
/* fuzz limit: limit_memory, limit_pids and limit_cpu against a second
 * reading written straight from the grammar in limit.h (one pass over
 * the bytes, 128-bit arithmetic: no overflow to get right), on any
 * string.  Input: one byte picks the option, the rest is the value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cgroup/limit.h"

typedef unsigned __int128 big;

#define TOO_BIG ((big)1 << 70)          /* any digit string past 2^64 */
#define U64_MAX ((big)UINT64_MAX)

/* S's leading digits as a number (saturated at TOO_BIG), their count
 * in *N. */
static big number(const char *s, size_t *n)
{
	big v = 0;

	for (*n = 0; s[*n] >= '0' && s[*n] <= '9'; ++*n)
		v = v > TOO_BIG ? TOO_BIG : v * 10 + (big)(s[*n] - '0');
	return v;
}

/* The reference's answer: the value as the cgroup file takes it, "" for
 * a refusal. */
static void ref_memory(const char *s, char *out)
{
	static const char units[] = "KMGTPEkmgtpe";
	size_t n;
	big v = number(s, &n);
	const char *u = strchr(units, s[n]);

	*out = '\0';
	if (!strcmp(s, "max") || !strcmp(s, "infinity")) {
		strcpy(out, "max");
		return;
	}
	if (!n || v > U64_MAX || (s[n] && (!u || !*u || s[n + 1])))
		return;
	for (int k = s[n] ? (int)(u - units) % 6 + 1 : 0; k > 0; k--)
		v *= 1024;
	if (v <= U64_MAX)
		snprintf(out, LIMIT_VALUE_MAX, "%llu", (unsigned long long)v);
}

static void ref_pids(const char *s, char *out)
{
	size_t n;
	big v = number(s, &n);

	*out = '\0';
	if (!strcmp(s, "max") || !strcmp(s, "infinity"))
		strcpy(out, "max");
	else if (n && !s[n] && v >= 1 && v <= 4194304)
		snprintf(out, LIMIT_VALUE_MAX, "%llu", (unsigned long long)v);
}

static void ref_cpu(const char *s, char *out)
{
	size_t n = 0, m;
	int max = !strncmp(s, "max", 3), pct;
	big q = max ? 0 : number(s, &n), period = 100000;
	const char *p = s + (max ? 3 : n);

	*out = '\0';
	if (!max && !n)
		return;
	pct = !max && *p == '%';
	p += pct;
	if (*p == '/' || *p == ' ') {
		period = number(p + 1, &m);
		if (!m || period < 1000 || period > 1000000)
			return;
		p += 1 + m;
	}
	if (*p || q > U64_MAX)
		return;
	if (pct)
		q = q * period / 100;
	if (max)
		snprintf(out, LIMIT_VALUE_MAX, "max %llu", (unsigned long long)period);
	else if (q >= 1000 && q < (big)1 << 44)
		snprintf(out, LIMIT_VALUE_MAX, "%llu %llu", (unsigned long long)q,
			 (unsigned long long)period);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *(*const parse[])(const char *, char *) = {
		limit_memory, limit_pids, limit_cpu,
	};
	static void (*const ref[])(const char *, char *) = {
		ref_memory, ref_pids, ref_cpu,
	};
	char got[LIMIT_VALUE_MAX], want[LIMIT_VALUE_MAX];
	unsigned which;
	char *s;
	const char *err;

	if (!size)
		return 0;
	which = data[0] % 3;
	s = fuzz_cstr(data + 1, size - 1);
	err = parse[which](s, got);
	ref[which](s, want);
	if ((err != NULL) != !*want || (!err && strcmp(got, want))) {
		fprintf(stderr, "fuzz: limit %u '%s': leash %s, reference '%s'\n",
			which, s, err ? err : got, want);
		FUZZ_ASSERT(!"the grammar of limit.h");
	}
	/* What leash writes it reads back the same (cpu.max's spelling). */
	if (!err) {
		char again[LIMIT_VALUE_MAX];

		FUZZ_ASSERT(!parse[which](got, again) && !strcmp(again, got));
	}
	free(s);
	return 0;
}
