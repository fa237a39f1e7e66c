/* SPDX-License-Identifier: ISC */
/* caps: capabilities for the switch (libcap, and capget/capset alone
 * where nothing is kept); see caps.h for the policy. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* strncasecmp, cap names */
#endif
#include "ident/caps.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CAP_NAME_MAX 64

static int parse_one(const char *item, size_t len, uint64_t *mask)
{
	char name[CAP_NAME_MAX];
	cap_value_t v;
	size_t off = 0;

	if (len == 0 || len + 4 >= sizeof name)
		return -1;
	if (len < 4 || strncasecmp(item, "cap_", 4) != 0) {
		memcpy(name, "cap_", 4);
		off = 4;
	}
	for (size_t i = 0; i < len; i++) {
		/* cap_from_name stops at a delimiter: "cap_net_raw+ep" or
		 * "cap_net_raw bogus" must not pass as cap_net_raw. */
		if (!isalnum((unsigned char)item[i]) && item[i] != '_')
			return -1;
		name[off + i] = (char)tolower((unsigned char)item[i]);
	}
	name[off + len] = '\0';
	/* Names only: cap_from_name also takes numbers, which hide typos. */
	if (isdigit((unsigned char)item[0]) || cap_from_name(name, &v) < 0 ||
	    v < 0 || v > 63 || !CAP_IS_SUPPORTED(v))
		return -1;
	*mask |= UINT64_C(1) << v;
	return 0;
}

int caps_parse(const char *list, uint64_t *mask, const char **bad)
{
	const char *p = list;

	*mask = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (parse_one(p, len, mask) < 0) {
			if (bad)
				*bad = p;
			errno = EINVAL;
			return -1;
		}
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

int caps_keep_begin(void)
{
	return prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L);
}

/* A cap_t with MASK in the flags FLAGS..., ended by -1. */
static cap_t caps_from_mask(uint64_t mask, const cap_flag_t *flags, int nflags)
{
	cap_t c = cap_init();

	for (cap_value_t v = 0; c && v < 64; v++) {
		if (!(mask & (UINT64_C(1) << v)))
			continue;
		for (int i = 0; i < nflags; i++)
			if (cap_set_flag(c, flags[i], 1, &v, CAP_SET) < 0) {
				cap_free(c);
				return NULL;
			}
	}
	return c;
}

static const cap_flag_t pie_flags[] = { CAP_PERMITTED, CAP_INHERITABLE, CAP_EFFECTIVE };

/* Permitted and inheritable = MASK; effective too when EFF. */
static int set_proc_mask(uint64_t mask, bool eff)
{
	cap_t c = caps_from_mask(mask, pie_flags, eff ? 3 : 2);
	int rc = c ? cap_set_proc(c) : -1;

	if (c)
		cap_free(c);
	return rc;
}

/* Ambient bits through an IAB vector.  libcap 2.66 raises CAP_SETPCAP
 * while it sets ambient bits, so the caller keeps it permitted here. */
static int set_ambient(uint64_t mask)
{
	cap_iab_t iab;
	int rc = 0;

	if (mask == 0)
		return cap_reset_ambient();
	iab = cap_iab_init();
	if (!iab)
		return -1;
	for (cap_value_t v = 0; rc == 0 && v < 64; v++)
		if (mask & (UINT64_C(1) << v))
			rc = cap_iab_set_vector(iab, CAP_IAB_INH, v, CAP_SET) |
			     cap_iab_set_vector(iab, CAP_IAB_AMB, v, CAP_SET);
	if (rc == 0)
		rc = cap_iab_set_proc(iab);
	cap_free(iab);
	return rc;
}

/* Read back: inheritable, permitted, effective and ambient exactly MASK. */
static int caps_verify(uint64_t mask)
{
	cap_t want = caps_from_mask(mask, pie_flags, 3), have = cap_get_proc();
	int rc = want && have && cap_compare(want, have) == 0 ? 0 : -1;

	/* Ambient is within permitted and inheritable: with both verified
	 * empty it is empty too, no need to read every bit. */
	for (cap_value_t v = 0; rc == 0 && mask && v < cap_max_bits(); v++)
		if (cap_get_ambient(v) != !!(mask & (UINT64_C(1) << v)))
			rc = -1;
	cap_free(want);
	cap_free(have);
	if (rc < 0)
		errno = EPERM;
	return rc;
}

#define SETPCAP_BIT (UINT64_C(1) << CAP_SETPCAP)

/* The three sets of the calling thread, straight from the kernel: no
 * cap_t to allocate, no version probe first (libcap's cap_get_proc and
 * cap_set_proc make two calls each).  Version 3: 64 bits in two words. */
static int proc_caps(int set, struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(set ? SYS_capset : SYS_capget, &h, d);
}

int caps_limit(uint64_t mask)
{
	struct __user_cap_data_struct none[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

	/* Nothing kept: one capset empties the three sets, and ambient with
	 * them (the kernel keeps it within permitted and inheritable);
	 * PR_SET_KEEPCAPS was never set (exec cleared it for leash). */
	if (!mask)
		return proc_caps(1, none);
	/* PR_SET_KEEPCAPS did its work in setresuid; exec would clear it. */
	if (prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L) < 0)
		return -1;
	if (cap_reset_ambient() < 0)
		return -1;
	return set_proc_mask(mask | SETPCAP_BIT, false);
}

/* Nothing kept: the three sets read back empty (ambient with them). */
static int caps_verify_none(void)
{
	struct __user_cap_data_struct d[2];

	if (proc_caps(0, d) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable)
			return errno = EPERM, -1;
	return 0;
}

int caps_raise(uint64_t mask)
{
	if (!mask)
		return caps_verify_none();
	if (set_proc_mask(mask | SETPCAP_BIT, true) < 0 ||
	    set_ambient(mask) < 0 || set_proc_mask(mask, true) < 0)
		return -1;
	return caps_verify(mask);
}

uint64_t caps_effective(void)
{
	struct __user_cap_data_struct d[2];

	if (proc_caps(0, d) < 0)
		return 0;
	return (uint64_t)d[1].effective << 32 | d[0].effective;
}
