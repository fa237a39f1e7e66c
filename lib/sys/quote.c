/* SPDX-License-Identifier: ISC */
/* quote: GNU's quote() in the C and UTF-8 locales, so a name holding a
 * newline or an escape sequence stays on one line and drives nothing. */
#include "sys/quote.h"

#include <string.h>

#define LQ_UTF8 "\xe2\x80\x98"
#define RQ_UTF8 "\xe2\x80\x99"

/* Length of the valid UTF-8 character at S (1..4) with *CP its code
 * point, or 0: overlong forms, surrogates, past U+10FFFF and cut-off
 * sequences are invalid, as glibc's mbrtowc has them. */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0xc0 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 :
		   s[0] < 0xf5 ? 4 : 0;
	unsigned c;

	if (!n)
		return 0;
	c = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Whether code point C (past ASCII) is printable, by the rule of musl's
 * iswprint; ours, since glibc's iswprint without setlocale() knows only
 * ASCII and leash never calls setlocale(). */
static bool utf8_printable(unsigned c)
{
	if (c < 0xa0)
		return false;
	if (c < 0x2028 || (c > 0x2029 && c < 0xd800) ||
	    (c >= 0xe000 && c < 0xfff9))
		return true;
	return c > 0xfffb && c <= 0x10ffff && (c & 0xfffe) != 0xfffe;
}

/* The escape GNU writes for control character C, or 0 for \ooo. */
static char c_escape(unsigned char c)
{
	static const char from[] = "\a\b\f\n\r\t\v\\", to[] = "abfnrtv\\";
	const char *p = c ? strchr(from, c) : NULL;

	return p ? to[p - from] : 0;
}

/* The shown form of the character at S into OUT (at most 17 bytes):
 * its length in S is returned, what was written in *OUTLEN. */
static size_t quote_char(const unsigned char *s, bool utf8, const char *rq,
			 char *out, size_t *outlen)
{
	size_t n = 1, k = 0, rqlen = strlen(rq);
	unsigned cp = s[0];
	bool printable = s[0] >= 0x20 && s[0] < 0x7f;
	char e = c_escape(s[0]);

	if (utf8 && s[0] >= 0x80 && (n = utf8_char(s, &cp)))
		printable = utf8_printable(cp);
	n = n ? n : 1;
	if (!strncmp((const char *)s, rq, rqlen))  /* the closing quote, inside */
		out[k++] = '\\';
	if (e) {
		out[k++] = '\\';
		out[k++] = e;
	} else {
		for (size_t i = 0; i < n; i++) {
			if (printable) {
				out[k++] = (char)s[i];
				continue;
			}
			out[k++] = '\\';
			out[k++] = (char)('0' + (s[i] >> 6));
			out[k++] = (char)('0' + ((s[i] >> 3) & 7));
			out[k++] = (char)('0' + (s[i] & 7));
		}
	}
	*outlen = k;
	return n;
}

char *quote_to(char *buf, size_t size, const char *s, bool utf8)
{
	const char *lq = utf8 ? LQ_UTF8 : "'", *rq = utf8 ? RQ_UTF8 : "'";
	size_t lqlen = strlen(lq), rqlen = strlen(rq), k = 0;
	const unsigned char *p = (const unsigned char *)s;
	char one[24];

	if (size < lqlen + rqlen + 1) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	memcpy(buf, lq, lqlen);
	k = lqlen;
	while (*p) {
		size_t len, used = quote_char(p, utf8, rq, one, &len);
		if (k + len + rqlen + 1 > size)
			break;
		memcpy(buf + k, one, len);
		k += len;
		p += used;
	}
	memcpy(buf + k, rq, rqlen + 1);
	return buf;
}
