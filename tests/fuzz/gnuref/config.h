/* SPDX-License-Identifier: ISC */
/* config.h for the few gnulib and coreutils files of Debian's coreutils
 * source that build-aux/gnuref.sh compiles (cl_strtod, c_strtod,
 * dtotimespec, sig2str, operand2sig): what their configure finds on
 * glibc, for those files only.  Inline functions are static here, so no
 * file has to provide their out-of-line copies. */
#define _GL_CONFIG_H_INCLUDED 1
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdbool.h>

#define _GL_INLINE_HEADER_BEGIN
#define _GL_INLINE_HEADER_END
#define _GL_INLINE static inline
#define _GL_EXTERN_INLINE static inline
#define _GL_ATTRIBUTE_CONST __attribute__((__const__))
#define _GL_ATTRIBUTE_PURE __attribute__((__pure__))
#define _GL_ATTRIBUTE_MALLOC __attribute__((__malloc__))
#define _GL_ATTRIBUTE_NODISCARD
#define _GL_ATTRIBUTE_MAYBE_UNUSED __attribute__((__unused__))
#define _GL_ATTRIBUTE_NONNULL(args) __attribute__((__nonnull__ args))
#define _GL_ATTRIBUTE_RETURNS_NONNULL __attribute__((__returns_nonnull__))
#define _GL_ATTRIBUTE_DEALLOC(f, i)
#define _GL_ARG_NONNULL(params) __attribute__((__nonnull__ params))
#define _GL_CMP(n1, n2) (((n1) > (n2)) - ((n1) < (n2)))

/* glibc has strtod_l and nl_langinfo: c_strtod reads in a C locale_t. */
#define HAVE_STRTOD_L 1
#define HAVE_NL_LANGINFO 1
