/* SPDX-License-Identifier: ISC */
/* sysname: a system call's name from its number, for a message.  The
 * calls leash itself makes (what a seccomp filter can refuse it), listed
 * in sysname.def; the numbers in one array, the names in one string. */
#include "sysname.h"

#include <sys/syscall.h>

/* Newer than some C libraries' lists; the same number everywhere. */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

static const unsigned short numbers[] = {
#define CALL(name) SYS_##name,
#include "sysname.def"
#undef CALL
};

/* "name\0name\0...", in the same order. */
static const char names[] =
#define CALL(name) #name "\0"
#include "sysname.def"
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
