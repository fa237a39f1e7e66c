/* SPDX-License-Identifier: ISC */
/* budget: a command's deadline as an absolute time, passed down the
 * process tree in LEASH_DEADLINE, so that a nested leash (or timeout)
 * keeps to the earlier of its own deadline and its caller's.
 *
 * The value is SECONDS.NANOSECONDS@BOOT_ID: a time on LEASH_CLOCK
 * (clock.h; real time since boot, suspend included) and the kernel's
 * boot id, /proc/sys/kernel/random/boot_id, so that a value kept across
 * a reboot is known for what it is. */
#ifndef LEASH_BUDGET_H
#define LEASH_BUDGET_H

#include <stddef.h>
#include <time.h>

#define BUDGET_ENV "LEASH_DEADLINE"

enum budget_read {
	BUDGET_OK,
	BUDGET_MALFORMED,       /* not SECONDS.NANOSECONDS@BOOT_ID */
	BUDGET_OTHER_BOOT,      /* from another boot, or ours is unknown */
};

/* The kernel's boot id into ID: 0, or -1 with errno and ID "" when it
 * cannot be read (no /proc).  Read by the caller, once for both calls
 * below: a launch keeps no copy of it (no page of its own to fault in). */
#define BUDGET_ID_SIZE 37
int budget_boot_id(char id[BUDGET_ID_SIZE]);

/* VALUE (not NULL) as an absolute deadline into *AT; ID is ours ("":
 * unknown, so VALUE is from another boot for all we know). */
enum budget_read budget_parse(const char *value, const char *id,
			      struct timespec *at);

/* AT and ID (ours, not "") as a value into BUF (SIZE >= BUDGET_SIZE): 0,
 * or -1 with errno. */
#define BUDGET_SIZE 64
int budget_format(const struct timespec *at, const char *id, char *buf,
		  size_t size);

#endif
