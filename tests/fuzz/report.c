/* SPDX-License-Identifier: ISC */
/* fuzz report: report_escape on any bytes (argv, names, messages that
 * end up in the --report JSON).  The output must be the inside of a
 * valid JSON string: no raw control character, no lone quote or
 * backslash, valid UTF-8; the needed length is exact and a short
 * buffer is never overrun. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "report/report.h"

/* Length of the valid UTF-8 sequence at P (N bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		     (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	unsigned cp;

	if (!len || len > n)
		return 0;
	cp = len == 1 ? c : c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* S[0..N) is the inside of a JSON string. */
static void check_json(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '\\') {
			FUZZ_ASSERT(i + 1 < n);
			FUZZ_ASSERT(strchr("\"\\/bfnrtu", s[i + 1]) != NULL);
			i += s[i + 1] == 'u' ? 6 : 2;
			FUZZ_ASSERT(i <= n);
			continue;
		}
		FUZZ_ASSERT(s[i] != '"' && s[i] >= 0x20 && s[i] != 0x7f);
		size_t len = utf8_len(s + i, n - i);
		FUZZ_ASSERT(len > 0);
		i += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t need = report_escape(NULL, 0, (const char *)data, size);
	char *out = malloc(need ? need : 1);
	char *small;

	FUZZ_ASSERT(out != NULL);
	FUZZ_ASSERT(report_escape(out, need, (const char *)data, size) == need);
	check_json((const unsigned char *)out, need);
	/* A buffer one short: exactly CAP bytes written (ASan sees more). */
	if (need > 0) {
		small = malloc(need - 1 ? need - 1 : 1);
		FUZZ_ASSERT(report_escape(small, need - 1, (const char *)data,
					  size) == need);
		FUZZ_ASSERT(need < 2 || !memcmp(small, out, need - 1));
		free(small);
	}
	free(out);
	return 0;
}
