/* SPDX-License-Identifier: ISC */
/* caps: capabilities across the identity switch, through libcap (and
 * capget/capset alone when nothing is kept).
 * A switch to a non-root uid ends with empty inheritable, permitted,
 * effective and ambient sets, or exactly the kept ones in all four.  The
 * bounding set is left as it was (as su, runuser and setpriv do): it only
 * limits what files can grant, and emptying it would break setuid and
 * file-capability programs the command may rightly run (ping, sudo);
 * --no-new-privs is the switch that closes that door. */
#ifndef LEASH_CAPS_H
#define LEASH_CAPS_H

#include <stdbool.h>
#include <stdint.h>

/* A comma-separated list of capability names ("cap_net_raw", or
 * "net_raw"; case does not matter) as a bit mask.  -1 with errno EINVAL
 * (and *BAD pointing into LIST at the bad item, if BAD is not NULL). */
int caps_parse(const char *list, uint64_t *mask, const char **bad);

/* Before setresuid: keep the permitted set across the uid change, so
 * kept capabilities can be raised afterwards (PR_SET_KEEPCAPS). */
int caps_keep_begin(void);

/* After setresuid to a non-root uid, before the ids are checked:
 * permitted and inheritable = MASK, effective and ambient empty, so no
 * capability is in effect while the switch is verified (a caller's
 * SECBIT_NO_SETUID_FIXUP would otherwise keep them all). */
int caps_limit(uint64_t mask);

/* Then: effective and ambient = MASK as well, read back and compared
 * (all four sets exactly MASK).  -1 with errno (EPERM on a mismatch). */
int caps_raise(uint64_t mask);

/* The caller's effective set (bit N: capability N); 0 when it cannot be
 * read. */
uint64_t caps_effective(void);

#endif
