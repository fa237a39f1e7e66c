/* SPDX-License-Identifier: ISC */
/* format: printf's integer, character and string conversions, without
 * the floating point that musl's vfprintf carries (10 KiB, and on arm64
 * the soft quad-precision arithmetic it needs).  The static build links
 * its vfprintf in place of libc's (musl's printf, fprintf, snprintf,
 * vsnprintf and sprintf are wrappers around vfprintf); other builds use
 * libc's and this file only provides format_vsn, which tests/fmtcmp.c
 * compares with the libc's vsnprintf.  Conversions: %% and d i u o x X c s
 * with the flags -+ #0, a width and a precision (or *), and the lengths
 * hh h l ll j z t.  Anything else (floating point, %p, %n, %1$, wide
 * characters) fails with EINVAL; tests/format.bats checks that no
 * format string of leash asks for it. */
#include "sys/format.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct out {
	char buf[256];
	size_t len;             /* bytes in buf */
	size_t total;           /* bytes produced so far */
	int (*flush)(struct out *o);
	void *to;               /* the FILE, or the caller's buffer */
	size_t room;            /* format_vsn: bytes left in the caller's buffer */
};

enum { F_MINUS = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };

static int out_bytes(struct out *o, const char *s, size_t n)
{
	while (n) {
		size_t k = sizeof o->buf - o->len;

		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		o->total += k;
		s += k;
		n -= k;
		if (o->len == sizeof o->buf && o->flush(o) < 0)
			return -1;
	}
	return 0;
}

static int out_pad(struct out *o, char c, size_t n)
{
	char run[32];

	memset(run, c, sizeof run);
	for (; n > sizeof run; n -= sizeof run)
		if (out_bytes(o, run, sizeof run) < 0)
			return -1;
	return out_bytes(o, run, n);
}

/* One field: PREFIX (sign, 0x), ZEROS leading zeros, then BODY, padded
 * to WIDTH on the side the flags say. */
static int out_field(struct out *o, int fl, size_t width, const char *prefix,
		     size_t zeros, const char *body, size_t len)
{
	size_t plen = strlen(prefix), n = plen + zeros + len;
	size_t pad = width > n ? width - n : 0;

	if (n + pad > (size_t)INT_MAX - o->total) {
		errno = EOVERFLOW;
		return -1;
	}

	if (!(fl & F_MINUS) && out_pad(o, ' ', pad) < 0)
		return -1;
	if (out_bytes(o, prefix, plen) < 0 || out_pad(o, '0', zeros) < 0 ||
	    out_bytes(o, body, len) < 0)
		return -1;
	return fl & F_MINUS ? out_pad(o, ' ', pad) : 0;
}

/* An integer conversion C of magnitude V (NEG: it was negative);
 * PREC < 0 when none was given. */
static int out_int(struct out *o, int fl, size_t width, int prec, char c,
		   uintmax_t v, int neg)
{
	char digits[3 * sizeof v + 1], *e = digits + sizeof digits, *p = e;
	const char *xd = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned base = c == 'o' ? 8 : c == 'x' || c == 'X' ? 16 : 10;
	const char *prefix = "";
	size_t len, zeros = 0;

	for (uintmax_t x = v; x; x /= base)
		*--p = xd[x % base];
	if (!v && prec < 0)     /* 0 has one digit, unless a precision is given */
		*--p = '0';
	len = (size_t)(e - p);
	if (c == 'd' || c == 'i')
		prefix = neg ? "-" : fl & F_PLUS ? "+" : fl & F_SPACE ? " " : "";
	else if ((fl & F_ALT) && v && base == 16)
		prefix = c == 'X' ? "0X" : "0x";
	if (prec >= 0) {
		zeros = (size_t)prec > len ? (size_t)prec - len : 0;
	} else if (fl & F_ZERO && !(fl & F_MINUS)) {
		size_t used = strlen(prefix) + len;
		zeros = width > used ? width - used : 0;
	}
	/* %#o: the first digit is a 0. */
	if (base == 8 && (fl & F_ALT) && !zeros && (!len || *p != '0'))
		zeros = 1;
	return out_field(o, fl, width, prefix, zeros, p, len);
}

/* The argument of an integer conversion, by its length modifier. */
static uintmax_t arg_int(va_list *ap, const char *len, char c, int *neg)
{
	intmax_t s;
	uintmax_t u;

	*neg = 0;
	if (c == 'd' || c == 'i') {
		if (!strcmp(len, "hh"))
			s = (signed char)va_arg(*ap, int);
		else if (!strcmp(len, "h"))
			s = (short)va_arg(*ap, int);
		else if (!strcmp(len, "l"))
			s = va_arg(*ap, long);
		else if (!strcmp(len, "ll"))
			s = va_arg(*ap, long long);
		else if (!strcmp(len, "j"))
			s = va_arg(*ap, intmax_t);
		else if (!strcmp(len, "z") || !strcmp(len, "t"))
			s = va_arg(*ap, ptrdiff_t);
		else
			s = va_arg(*ap, int);
		*neg = s < 0;
		/* -(INTMAX_MIN) overflows: negate as unsigned. */
		return *neg ? -(uintmax_t)s : (uintmax_t)s;
	}
	if (!strcmp(len, "hh"))
		u = (unsigned char)va_arg(*ap, unsigned);
	else if (!strcmp(len, "h"))
		u = (unsigned short)va_arg(*ap, unsigned);
	else if (!strcmp(len, "l"))
		u = va_arg(*ap, unsigned long);
	else if (!strcmp(len, "ll"))
		u = va_arg(*ap, unsigned long long);
	else if (!strcmp(len, "j"))
		u = va_arg(*ap, uintmax_t);
	else if (!strcmp(len, "z") || !strcmp(len, "t"))
		u = va_arg(*ap, size_t);
	else
		u = va_arg(*ap, unsigned);
	return u;
}

/* A number in a format (width or precision), or one taken by '*'. */
static int spec_num(const char **f, va_list *ap, int *v)
{
	if (**f == '*') {
		(*f)++;
		*v = va_arg(*ap, int);
		return 1;
	}
	if (**f < '0' || **f > '9')
		return 0;
	for (*v = 0; **f >= '0' && **f <= '9'; (*f)++) {
		if (*v > (INT_MAX - 9) / 10) {
			errno = EOVERFLOW;
			return -1;
		}
		*v = *v * 10 + (**f - '0');
	}
	return 1;
}

/* One conversion after its '%'; advances *F past it. */
static int out_spec(struct out *o, const char **f, va_list *ap)
{
	static const char flags[] = "-+ #0";
	int fl = 0, w = 0, prec = -1, neg;
	char len[3] = "";
	const char *q;

	for (; **f && (q = strchr(flags, **f)); (*f)++)
		fl |= 1 << (q - flags);
	if (spec_num(f, ap, &w) < 0)
		return -1;
	if (w < 0) {            /* a negative '*' width is the '-' flag */
		fl |= F_MINUS;
		w = w == INT_MIN ? INT_MAX : -w;
	}
	if (**f == '.') {       /* "." alone is 0; a negative '*' is none */
		(*f)++;
		prec = 0;
		if (spec_num(f, ap, &prec) < 0)
			return -1;
		if (prec < 0)
			prec = -1;
	}
	for (size_t i = 0; i < 2 && **f && strchr("hljzt", **f); i++)
		if (!i || (len[0] == **f && strchr("hl", **f)))
			len[i] = *(*f)++;
	char c = **f;
	if (!c || (len[0] && (c == 'c' || c == 's'))) {
		errno = EINVAL;
		return -1;
	}
	(*f)++;
	switch (c) {
	case 'c': {
		char ch = (char)va_arg(*ap, int);
		return out_field(o, fl, (size_t)w, "", 0, &ch, 1);
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		size_t n = 0;

		if (!s)
			s = "(null)";
		while ((prec < 0 || n < (size_t)prec) && s[n])
			n++;
		return out_field(o, fl, (size_t)w, "", 0, s, n);
	}
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
		uintmax_t v = arg_int(ap, len, c, &neg);
		return out_int(o, prec >= 0 ? fl & ~F_ZERO : fl, (size_t)w, prec,
			       c, v, neg);
	}
	default:
		errno = EINVAL;
		return -1;
	}
}

static int format_run(struct out *o, const char *fmt, va_list ap)
{
	va_list aq;
	int rc = 0;

	va_copy(aq, ap);
	while (*fmt && rc == 0) {
		const char *pct = strchr(fmt, '%');
		size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);

		rc = out_bytes(o, fmt, n);
		fmt += n;
		if (rc == 0 && pct && pct[1] == '%') {
			rc = out_bytes(o, "%", 1);
			fmt += 2;
		} else if (rc == 0 && pct) {
			fmt++;
			rc = out_spec(o, &fmt, &aq);
		}
	}
	va_end(aq);
	if (rc == 0)
		rc = o->flush(o);
	if (rc == 0 && o->total > INT_MAX) {
		errno = EOVERFLOW;
		rc = -1;
	}
	return rc < 0 ? -1 : (int)o->total;
}

/* format_vsn: what fits of the buffer goes to the caller's, always
 * NUL-terminated when SIZE > 0. */
static int flush_str(struct out *o)
{
	size_t k = o->len < o->room ? o->len : o->room;

	memcpy(o->to, o->buf, k);
	o->to = (char *)o->to + k;
	o->room -= k;
	*(char *)o->to = '\0';
	o->len = 0;
	return 0;
}

int format_vsn(char *buf, size_t size, const char *fmt, va_list ap)
{
	char dummy;
	struct out o = {
		.flush = flush_str, .to = size ? buf : &dummy,
		.room = size ? size - 1 : 0,
	};

	*(char *)o.to = '\0';
	return format_run(&o, fmt, ap);
}

#if defined LEASH_SMALL_LIBC && !defined __GLIBC__
static int flush_file(struct out *o)
{
	size_t n = o->len;

	o->len = 0;
	return n && fwrite(o->buf, 1, n, o->to) < n ? -1 : 0;
}

/* libc's vfprintf, for the conversions above: a static link takes this
 * definition, and no libc member that would bring musl's. */
int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
	struct out o = { .flush = flush_file, .to = f };

	return format_run(&o, fmt, ap);
}
#endif
