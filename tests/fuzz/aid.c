/* SPDX-License-Identifier: ISC */
/* fuzz aid: Android user and group names, and the names of ids. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ident/aid.h"
#include "common.h"

/* aid_name into a buffer of exactly SIZE bytes (ASan sees overruns). */
static int name_of(unsigned long id, size_t size, char *out, size_t outsize)
{
	char *buf = malloc(size);
	int rc = aid_name(id, buf, size);

	if (rc == 0) {
		FUZZ_ASSERT(memchr(buf, '\0', size) != NULL);
		FUZZ_ASSERT(strlen(buf) < outsize);
		strcpy(out, buf);
	} else {
		FUZZ_ASSERT(rc == -1 && (errno == ENOENT || errno == ERANGE));
	}
	free(buf);
	return rc;
}

/* A name bionic prints for ID reads back as ID. */
static void check_round_trip(unsigned long id)
{
	char name[64];
	uid_t u;
	gid_t g;

	if (name_of(id, sizeof name, name, sizeof name) < 0)
		return;
	FUZZ_ASSERT(aid_user_by_name(name, &u) == 0 && u == id);
	FUZZ_ASSERT(aid_group_by_name(name, &g) == 0 && g == id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), name[64];
	uid_t u;
	gid_t g;

	if (aid_user_by_name(s, &u) == 0) {
		check_round_trip(u);
		/* Every user name is a group name too, for the same id. */
		FUZZ_ASSERT(aid_group_by_name(s, &g) == 0 && g == u);
	} else {
		FUZZ_ASSERT(errno == ENOENT);
	}
	if (aid_group_by_name(s, &g) < 0)
		FUZZ_ASSERT(errno == ENOENT);
	if (size >= 9) {
		unsigned long id;

		memcpy(&id, data + 1, sizeof id);
		/* Small ranges too, where names exist. */
		if (data[0] & 1)
			id %= 100100000UL;
		check_round_trip(id);
		name_of(id, 1 + data[0] % 16, name, sizeof name);
	}
	free(s);
	return 0;
}
