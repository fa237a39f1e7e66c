/* SPDX-License-Identifier: ISC */
/* durcmp: lib/duration.c's decimal_exact, the strtod-free reading of a
 * plain decimal, against the libc's strtod: whenever it takes a number,
 * the double (bit for bit) and the end must be strtod's.  Edge cases,
 * then random digit strings.  Also checks that it does take the common
 * durations, so a launch really skips strtod.
 *
 * usage: durcmp [ROUNDS]     prints "durcmp: N numbers agree" or the
 *                            first difference, and exits 1 on one */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.c"

/* duration.c's other caller of the locale, unused here. */
size_t decpoint_lookup(char buf[DECPOINT_MAX])
{
	(void)buf;
	return 0;
}

static long checked, taken;

static int same(const char *s)
{
	char *c_end;
	const char *f_end;
	double f, c = strtod(s, &c_end);

	checked++;
	if (!decimal_exact(s, &f, &f_end))
		return 0;
	taken++;
	if (memcmp(&f, &c, sizeof f) || f_end != c_end) {
		printf("durcmp: \"%s\": strtod %.17g (end +%d), decimal_exact %.17g (end +%d)\n",
		       s, c, (int)(c_end - s), f, (int)(f_end - s));
		return 1;
	}
	return 0;
}

static unsigned long long seed = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed % n);
}

int main(int argc, char **argv)
{
	static const char *const common[] = {
		"10", "0.5", "1.25", "300", "0.001", ".25", "1.", "2m", "1.5h", "7d",
	};
	static const char *const edge[] = {
		"0", "00", "0.0", "1e3", "1E3", "0x10", "0X1p3", "inf", "nan", ".",
		"..5", "1.2.3", "+1", "-1", " 1", "999999999999999", "9999999999999999",
		"0.0000000000000000000001", "0.00000000000000000000001",
		"123456789012345.6", "0.1", "0.2", "0.3", "0.7", "2.675", "1.0000000001",
		"4503599627370497", "000000000000000000000000001", "1x", "5s", "5sec",
	};
	long rounds = argc > 1 ? atol(argv[1]) : 100000;

	for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
		if (same(common[i]))
			return 1;
		if (FLT_EVAL_METHOD == 0 && taken != (long)i + 1) {
			printf("durcmp: \"%s\" is not taken without strtod\n", common[i]);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
		if (same(edge[i]))
			return 1;
	for (long r = 0; r < rounds; r++) {
		char s[48];
		int n = 1 + rnd(26), at = 0, point = rnd(3) ? (int)rnd((unsigned)n + 1) : -1;

		for (int i = 0; i < n; i++) {
			if (i == point)
				s[at++] = '.';
			s[at++] = (char)('0' + (rnd(4) ? rnd(10) : 0));
		}
		if (rnd(4) == 0)
			s[at++] = "smhde.x"[rnd(7)];
		s[at] = '\0';
		if (same(s))
			return 1;
	}
	printf("durcmp: %ld numbers agree (%ld read without strtod)\n", checked, taken);
	return 0;
}
