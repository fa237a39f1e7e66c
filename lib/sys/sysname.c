/* SPDX-License-Identifier: ISC */
/* sysname: a system call's name from its number, for a message.  The
 * calls leash itself makes (what a seccomp filter can refuse it), listed
 * in sysname.def; the numbers in one array, the names in one string. */
#include "sys/sysname.h"

#include "sys/nr.h"

static const unsigned short numbers[] = {
#define CALL(name) SYS_##name,
#include "sys/sysname.def"
#undef CALL
};

/* "name\0name\0...", in the same order. */
static const char names[] =
#define CALL(name) #name "\0"
#include "sys/sysname.def"
#undef CALL
	;

const char *sysname(long nr)
{
	const char *name = names;

	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		if (numbers[i] == nr)
			return name;
		while (*name++)
			;
	}
	return NULL;
}
