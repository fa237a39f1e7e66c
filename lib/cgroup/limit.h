/* SPDX-License-Identifier: ISC */
/* limit: the spellings of --memory-max, --pids-max and --cpu-max, read
 * strictly and turned into what the kernel's memory.max, pids.max and
 * cpu.max take.  Pure: no I/O.  Each returns NULL with OUT filled, or
 * the grammar to say after "invalid --OPTION 'VALUE': ". */
#ifndef LEASH_LIMIT_H
#define LEASH_LIMIT_H

#include <stddef.h>

/* Enough for every value written: "max 1000000", 20 digits. */
#define LIMIT_VALUE_MAX 48

/* BYTES, or BYTES with K, M, G, T, P or E (powers of 1024, as systemd's
 * MemoryMax=; lowercase too, as the kernel's memory.max), or max /
 * infinity.  Written in bytes, or "max". */
const char *limit_memory(const char *s, char out[LIMIT_VALUE_MAX]);
/* N, 1..4194304 (the kernel's PID_MAX_LIMIT; the command is one), or
 * max / infinity. */
const char *limit_pids(const char *s, char out[LIMIT_VALUE_MAX]);
/* QUOTA[/PERIOD], or "QUOTA PERIOD" as cpu.max reads: QUOTA is microseconds of CPU per PERIOD (1000 or
 * more), P% (P per cent of one CPU per PERIOD, as systemd's CPUQuota=;
 * over 100 for more than one CPU; rounded down to whole microseconds),
 * or max; PERIOD is microseconds, 1000..1000000 (default 100000, the
 * kernel's).  Written as cpu.max takes it: "QUOTA PERIOD". */
const char *limit_cpu(const char *s, char out[LIMIT_VALUE_MAX]);

#endif
