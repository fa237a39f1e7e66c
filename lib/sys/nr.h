/* SPDX-License-Identifier: ISC */
/* nr: the system call numbers leash uses that some C libraries' lists
 * lack, defined once.  From 424 on, every architecture shares one table
 * (asm-generic's unified numbering), so one number serves them all. */
#ifndef LEASH_NR_H
#define LEASH_NR_H

#include <sys/syscall.h>

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

#endif
