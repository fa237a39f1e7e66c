/* SPDX-License-Identifier: ISC */
/* safedir: a directory walked from /, each step checked (CHASE_SAFE). */
#define _GNU_SOURCE
#include "report/safedir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* <linux/posix_acl_xattr.h>, kernel ABI: the access ACL as stored. */
#define ACL_XATTR_VERSION 2
#define ACL_TAG_USER 0x02
#define ACL_TAG_GROUP 0x08
#define ACL_TAG_MASK 0x10
#define ACL_WRITE 02
#define MAX_LINKS 40            /* the kernel's own bound */

static bool ours(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static bool our_group(gid_t gid)
{
	return gid == 0 || gid == getegid();
}

/* The access ACL of FD's directory, read through a descriptor of our own
 * (an O_PATH one has no xattrs), or by /proc when it cannot be read.
 * Its length; 0 when it has none; -1 when it cannot be told. */
static ssize_t read_acl(int fd, unsigned char *buf, size_t size)
{
	int rd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char path[40];
	ssize_t n;

	if (rd >= 0) {
		n = fgetxattr(rd, "system.posix_acl_access", buf, size);
		close(rd);
	} else {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		n = getxattr(path, "system.posix_acl_access", buf, size);
	}
	if (n < 0 && (errno == ENODATA || errno == ENOTSUP))
		return 0;
	return n;
}

/* Does a named entry of the ACL give write to someone not ours?  The
 * mask bounds named entries: without its write, none of them writes. */
static bool acl_lets_others_write(const unsigned char *acl, size_t n)
{
	bool others = false, mask = true;

	for (size_t i = 4; i + 8 <= n; i += 8) {
		uint16_t tag = (uint16_t)(acl[i] | acl[i + 1] << 8);
		uint16_t perm = (uint16_t)(acl[i + 2] | acl[i + 3] << 8);
		uint32_t id = (uint32_t)acl[i + 4] | (uint32_t)acl[i + 5] << 8 |
			      (uint32_t)acl[i + 6] << 16 | (uint32_t)acl[i + 7] << 24;

		if (tag == ACL_TAG_MASK)
			mask = perm & ACL_WRITE;
		else if (perm & ACL_WRITE && ((tag == ACL_TAG_USER && !ours(id)) ||
			 (tag == ACL_TAG_GROUP && !our_group(id))))
			others = true;
	}
	return others && mask;
}

/* May someone other than root and leash's user change the entries of
 * directory FD?  LAST: the directory the report goes in, where a
 * sticky bit does not help (others may still add names beside it). */
static bool others_may_write(int fd, const struct stat *st, bool last)
{
	unsigned char acl[512];
	ssize_t n;

	if (!ours(st->st_uid))
		return true;
	if (!last && st->st_mode & S_ISVTX)
		return false;
	if (st->st_mode & S_IWOTH ||
	    (st->st_mode & S_IWGRP && !our_group(st->st_gid)))
		return true;
	if ((n = read_acl(fd, acl, sizeof acl)) < 0)
		return true;    /* cannot tell: refused */
	if (n >= 4 && acl[0] != ACL_XATTR_VERSION)
		return true;
	return acl_lets_others_write(acl, (size_t)n);
}

/* The next component of *REST into NAME, *REST past it: 1, or 0 at
 * the end, -1 with errno for a name too long. */
static int next_name(const char **rest, char *name)
{
	const char *s = *rest + strspn(*rest, "/");
	size_t n = strcspn(s, "/");

	*rest = s;
	if (n == 0)
		return 0;
	if (n > NAME_MAX)
		return errno = ENAMETOOLONG, -1;
	memcpy(name, s, n);
	name[n] = '\0';
	*rest = s + n;
	return 1;
}

/* The link NAME in directory FD replaces itself in the path still to
 * walk, in BUF: "TARGET/REST".  -1 with errno. */
static int splice_link(int fd, const char *name, const char **rest,
		       char *buf, size_t size)
{
	char to[PATH_MAX], tail[PATH_MAX];
	ssize_t k = readlinkat(fd, name, to, sizeof to - 1);
	size_t r = strlen(*rest);

	if (k < 0)
		return -1;
	if ((size_t)k + r + 1 >= size || r >= sizeof tail)
		return errno = ENAMETOOLONG, -1;
	memcpy(tail, *rest, r + 1);
	memcpy(buf, to, (size_t)k);
	memcpy(buf + k, tail, r + 1);
	*rest = buf;
	return 0;
}

/* From directory *FD (checked) one step to NAME, checked in turn. */
static int step(int *fd, const char *name, bool last,
		enum safedir_refusal *why)
{
	int next = openat(*fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			  O_CLOEXEC);
	struct stat st;

	if (next < 0)
		return -1;
	close(*fd);
	*fd = next;
	if (fstat(next, &st) < 0)
		return -1;
	if (others_may_write(next, &st, last)) {
		*why = last ? SAFEDIR_DIR : SAFEDIR_ABOVE;
		return errno = EPERM, -1;
	}
	return 0;
}

/* Is nothing but slashes and "." left of REST? */
static bool at_end(const char *rest)
{
	return rest[strspn(rest, "/.")] == '\0' && !strstr(rest, "..");
}

int safedir_open(const char *dir, enum safedir_refusal *why)
{
	char buf[PATH_MAX], name[NAME_MAX + 1];
	const char *rest = dir;
	int fd = -1, links = 0, err, more;
	struct stat st;

	*why = SAFEDIR_OK;
	if (dir[0] != '/') {
		if (!getcwd(buf, sizeof buf) ||
		    strlen(buf) + strlen(dir) + 2 > sizeof buf)
			return -1;
		strcat(strcat(buf, "/"), dir);
		rest = buf;
	}
restart:
	if (fd >= 0)
		close(fd);
	if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (others_may_write(fd, &st, at_end(rest))) {
		*why = at_end(rest) ? SAFEDIR_DIR : SAFEDIR_ABOVE;
		errno = EPERM;
		goto fail;
	}
	while ((more = next_name(&rest, name)) > 0) {
		if (!strcmp(name, "."))
			continue;
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			goto fail;
		if (S_ISLNK(st.st_mode)) {
			/* In a checked directory, but a link of another's
			 * is not followed (CHASE_SAFE). */
			if (!ours(st.st_uid)) {
				*why = SAFEDIR_ABOVE;
				errno = EPERM;
				goto fail;
			}
			if (++links > MAX_LINKS) {
				errno = ELOOP;
				goto fail;
			}
			if (splice_link(fd, name, &rest, buf, sizeof buf) < 0)
				goto fail;
			if (rest[0] == '/')
				goto restart;
			continue;
		}
		if (step(&fd, name, at_end(rest), why) < 0)
			goto fail;
	}
	if (more < 0)
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	return errno = err, -1;
}
