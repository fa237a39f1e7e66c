/* SPDX-License-Identifier: ISC */
/* sysname: the name of a system call leash makes ("timerfd_create"). */
#ifndef LEASH_SYSNAME_H
#define LEASH_SYSNAME_H

#include <stddef.h>

/* NULL for a number leash has no name for. */
const char *sysname(long nr);

#endif
