/* SPDX-License-Identifier: ISC */
/* bss: where a large zeroed static goes.  A launch touches a few bytes
 * of many small statics (libc's and leash's) and the heads of a few big
 * buffers; each page it touches first is a fault.  The link sorts input
 * sections by alignment (configure), so a buffer marked BSS_PAGE comes
 * before every small variable, on pages of its own: its head does not
 * straddle two pages, and the small variables end up together on a page
 * or two, not one page each between the buffers.  A buffer left unmarked
 * costs a fault or two per launch, nothing else. */
#ifndef LEASH_BSS_H
#define LEASH_BSS_H

#define BSS_PAGE _Alignas(4096)

#endif
