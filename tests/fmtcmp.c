/* SPDX-License-Identifier: ISC */
/* fmtcmp: lib/sys/format.c's format_vsn against the libc's vsnprintf, on a
 * table of edge cases and on random formats of the grammar format.c
 * takes, at several buffer sizes: the bytes written and the return value
 * must agree.  Also checks that what format.c refuses fails with EINVAL.
 *
 * usage: fmtcmp [ROUNDS]     prints "fmtcmp: N formats agree" or the first
 *                            difference, and exits 1 on one */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libc's vfprintf here, not format.c's: it is the reference. */
#undef LEASH_SMALL_LIBC
#include "sys/format.c"

static unsigned long long seed = 0x9e3779b97f4a7c15ULL;

static unsigned long long rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static int ours(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = format_vsn(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static const size_t sizes[] = { 0, 1, 2, 7, 300, 600 };
static long checked;

/* Both ways at every buffer size; the arguments are the same va_list
 * words, so one format string is run with one argument list. */
#define SAME(fmt, ...) do { \
	for (size_t i_ = 0; i_ < sizeof sizes / sizeof *sizes; i_++) { \
		char a_[600], b_[600]; \
		memset(a_, 'x', sizeof a_); \
		memset(b_, 'x', sizeof b_); \
		int na_ = snprintf(a_, sizes[i_], fmt, __VA_ARGS__); \
		int nb_ = ours(b_, sizes[i_], fmt, __VA_ARGS__); \
		checked++; \
		/* a refused format: musl writes nothing, format.c what came \
		 * before it; neither is a message */ \
		if (na_ == -1 && nb_ == -1) \
			continue; \
		if (na_ != nb_ || memcmp(a_, b_, sizeof a_)) { \
			printf("fmtcmp: \"%s\" size %zu: libc %d \"%.*s\", format.c %d \"%.*s\"\n", \
			       fmt, sizes[i_], na_, na_ > 0 ? na_ : 0, a_, nb_, \
			       nb_ > 0 ? nb_ : 0, b_); \
			return 1; \
		} \
	} \
} while (0)

static const char *volatile no_string;
/* Not a literal: gcc warns about the ignored 0 flag, which is the case. */
static const char *zero_and_precision = "%.3d|%08.3d|%-8.3d|%.10lld";

static int table(void)
{
	SAME("%s", "plain");
	SAME("%d %i %u", INT_MIN, INT_MAX, UINT_MAX);
	SAME("%ld %lu %lld %llu", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX);
	SAME("%jd %zu %td %zd", INTMAX_MIN, SIZE_MAX, (ptrdiff_t)-5, (ssize_t)-1);
	SAME("%hhd %hhu %hd %hu", 300, 300, 70000, 70000);
	SAME("%x %X %#x %#X %o %#o", 0xbeefu, 0xbeefu, 0xbeefu, 0u, 8u, 0u);
	SAME("%05d|%-5d|%+d|% d|%+05d|%-+5d", -5, -5, 5, 5, 5, 5);
	SAME("%.0d|%.0u|%+.0d|%#.0o|%#.0x|%5.0d|", 0, 0u, 0, 0u, 0u, 0);
	SAME(zero_and_precision, -7, -7, -7, -1LL);
	SAME("%*d|%-*d|%*d|%.*d|%.*d", 6, 1, 6, 2, -6, 3, -1, 0, 3, 4);
	SAME("%.*s|%.3s|%10.2s|%-10s|%s", 2, "abcdef", "abcdef", "xyz", "l", "");
	SAME("%c%c|%5c|%-3c|", 'a', 0, 'b', 'c');
	SAME("100%% %s%%", "done");
	SAME("%02ld.%06ld|%02lld.%06lld", 3L, 14L, 0LL, 999999LL);
	SAME("%s", no_string);
	SAME("%.*s", 3, "ab");          /* a precision longer than the string */
	SAME("%s", "a string longer than the smallest buffers, longer than "
	     "two hundred and fifty-six bytes, so that the internal buffer of "
	     "format.c is flushed in the middle of a conversion and the "
	     "truncation to the caller's size happens at each of the sizes "
	     "this test tries: 0, 1, 2, 7, 300 and 600; the last takes it all, "
	     "which is the case of every message leash prints today.");
	SAME("%300d|%-290x|", 1, 2u);
	return 0;
}

/* One random conversion: the format in F, and the call to both. */
static int one(void)
{
	static const char *const lens[] = { "", "hh", "h", "l", "ll", "j", "z", "t" };
	static const char convs[] = "diouxXcs";
	char f[64], *p = f;
	int w = 0, prec = 0, has_w = 0, has_p = 0, star_w = 0, star_p = 0;
	char c = convs[rnd() % (sizeof convs - 1)];
	const char *len = c == 'c' || c == 's' ? "" : lens[rnd() % 8];

	if (rnd() % 16 == 0)
		p += sprintf(p, "%s", "%%");
	*p++ = '<';
	*p++ = '%';
	for (const char *fl = "-+ #0"; *fl; fl++)
		if (rnd() % 4 == 0)
			*p++ = *fl;
	switch (rnd() % 3) {
	case 1: has_w = 1; w = (int)(rnd() % 25); p += sprintf(p, "%d", w); break;
	case 2: star_w = 1; w = (int)(rnd() % 51) - 25; *p++ = '*'; break;
	}
	switch (rnd() % 4) {
	case 1: has_p = 1; prec = (int)(rnd() % 25); p += sprintf(p, ".%d", prec); break;
	case 2: *p++ = '.'; break;
	case 3: star_p = 1; prec = (int)(rnd() % 31) - 5; p += sprintf(p, ".*"); break;
	}
	(void)has_w;
	(void)has_p;
	p += sprintf(p, "%s%c>", len, c);
	long long v = (long long)rnd();
	switch (rnd() % 4) {
	case 0: v = (long long)(rnd() % 21) - 10; break;
	case 1: v = (long long)(rnd() % 100000); break;
	case 2: v = rnd() % 2 ? LLONG_MIN : LLONG_MAX; break;
	}
	static const char *const strs[] = { "", "a", "leash", "a longer string here" };
	const char *s = strs[rnd() % 4];

	/* The argument's type follows the conversion and the length. */
#define CALL3(x) do { \
	if (star_w && star_p) SAME(f, w, prec, x); \
	else if (star_w) SAME(f, w, x); \
	else if (star_p) SAME(f, prec, x); \
	else SAME(f, x); \
} while (0)
	if (c == 's')
		CALL3(s);
	else if (c == 'c')
		CALL3((int)(v & 0x7f ? v & 0x7f : 'z'));
	else if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "t"))
		CALL3((long)v);
	else if (!strcmp(len, "ll") || !strcmp(len, "j"))
		CALL3(v);
	else
		CALL3((int)v);
	return 0;
}

/* What format.c refuses: -1 and EINVAL. */
static int refused(void)
{
	static const char *const bad[] = { "%f", "%g", "%Lf", "%n", "%p",
					   "%ls", "%lc", "%1$d", "%m", "end %", "%5%" };
	char buf[32];

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int v = 0;

		errno = 0;
		if (ours(buf, sizeof buf, bad[i], &v) != -1 || errno != EINVAL) {
			printf("fmtcmp: \"%s\" was not refused with EINVAL\n", bad[i]);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;

	if (table() || refused())
		return 1;
	for (long i = 0; i < rounds; i++)
		if (one())
			return 1;
	printf("fmtcmp: %ld formats agree\n", checked);
	return 0;
}
