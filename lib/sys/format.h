/* SPDX-License-Identifier: ISC */
/* format: printf without floating point (see format.c). */
#ifndef LEASH_FORMAT_H
#define LEASH_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* vsnprintf for the conversions format.c lists; -1 with errno EINVAL
 * for any other, EOVERFLOW past INT_MAX bytes. */
int format_vsn(char *buf, size_t size, const char *fmt, va_list ap);

#endif
