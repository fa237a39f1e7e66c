/* SPDX-License-Identifier: ISC */
/* fuzz passwd: /etc/passwd and /etc/group as the input says (bound over
 * the real files in a private mount namespace), looked up by name, by
 * uid and for the group list.  Input: one length byte and the name
 * asked for, two length bytes (big-endian) and the passwd file, the
 * rest is the group file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "passwd.h"

static int fd[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const files[] = { PASSWD_FILE, GROUP_FILE, NULL };

	(void)argc, (void)argv;
	fuzz_setup(files, fd);
	if (fd[0] < 0 || fd[1] < 0)
		fuzz_fail(__FILE__, __LINE__, "cannot overlay the passwd files");
	return 0;
}

/* A decimal query is a uid too; anything else a hash of it. */
static uid_t uid_of(const char *q)
{
	char *end;
	unsigned long v = strtoul(q, &end, 10);
	uid_t h = 0;

	if (*q && !*end)
		return (uid_t)v;
	for (; *q; q++)
		h = h * 31 + (unsigned char)*q;
	return h % 70000;
}

static void check_pwent(const struct pwent *pw)
{
	FUZZ_ASSERT(pw->name && pw->dir && pw->shell);
	/* As glibc's files backend: the shell is the rest of the line,
	 * colons included; the fields before it end at one. */
	FUZZ_ASSERT(!strchr(pw->name, ':') && !strchr(pw->dir, ':'));
	FUZZ_ASSERT(!strchr(pw->name, '\n') && !strchr(pw->shell, '\n'));
}

static void check_groups(const char *q, gid_t primary, size_t max)
{
	gid_t *g = NULL;
	size_t n = 0;
	int found = 0;

	if (group_list(q, primary, max, &g, &n) < 0) {
		FUZZ_ASSERT(errno == E2BIG || errno == ENOMEM);
		return;
	}
	/* initgroups(3): sorted, no duplicates, the primary included. */
	FUZZ_ASSERT(n >= 1 && n <= max);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(i == 0 || g[i - 1] < g[i]);
		found |= g[i] == primary;
	}
	FUZZ_ASSERT(found);
	free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *field;
	size_t len = fuzz_take(&data, &size, &field), plen;
	char *q = fuzz_cstr(field, len);
	struct pwent pw;
	uid_t uid = uid_of(q);
	gid_t gid, primary = uid;

	plen = size >= 2 ? (size_t)data[0] << 8 | data[1] : 0;
	data += size >= 2 ? 2 : size, size -= size >= 2 ? 2 : size;
	if (plen > size)
		plen = size;
	fuzz_put(fd[0], data, plen);
	fuzz_put(fd[1], data + plen, size - plen);

	if (passwd_by_name(q, &pw) == 0) {
		check_pwent(&pw);
		FUZZ_ASSERT(strcmp(pw.name, q) == 0);
		primary = pw.gid;
		pwent_free(&pw);
	} else {
		FUZZ_ASSERT(errno == ENOENT || errno == ENOMEM);
	}
	if (passwd_by_uid(uid, &pw) == 0) {
		check_pwent(&pw);
		FUZZ_ASSERT(pw.uid == uid);
		pwent_free(&pw);
	} else {
		FUZZ_ASSERT(errno == ENOENT || errno == ENOMEM);
	}
	if (group_by_name(q, &gid) < 0)
		FUZZ_ASSERT(errno == ENOENT || errno == ENOMEM);
	check_groups(q, primary, 65536);
	check_groups(q, primary, 1 + uid % 8);      /* E2BIG too */
	free(q);
	return 0;
}
