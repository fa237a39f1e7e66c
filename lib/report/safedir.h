/* SPDX-License-Identifier: ISC */
/* safedir: a report's directory opened only when nobody but root and
 * leash's own user could change what its path leads to. */
#ifndef LEASH_SAFEDIR_H
#define LEASH_SAFEDIR_H

enum safedir_refusal {
	SAFEDIR_OK,
	SAFEDIR_DIR,            /* others may write DIR itself */
	SAFEDIR_ABOVE,          /* or a directory above it, or own a link */
};

/* An O_PATH descriptor of directory DIR, walked from / (a relative DIR
 * from the working directory's absolute name) one component at a time,
 * as systemd's CHASE_SAFE walks: every directory on the way, / included,
 * owned by root or leash's user and writable by nobody else (its mode
 * bits, and the named entries of a POSIX access ACL, as the kernel
 * grants them), except that a directory above the last may be writable
 * by others when it is sticky (they cannot move an entry of ours); a
 * symbolic link on the way is followed only when root or leash's user
 * owns it.  -1 with errno; EPERM with *WHY saying where when some
 * component fails the check. */
int safedir_open(const char *dir, enum safedir_refusal *why);

#endif
