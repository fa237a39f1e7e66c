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

/* The limits on the leaf, a row each.  A new limit (an --io-max, say)
 * is one row here and its spelling above: its option, the leaf's file,
 * the controller enabled down leash's path, the report's key and the -v
 * words all follow from the row (cmd/ makes its options from it too).
 * The columns: ID, option, report key, controller, file, spelling. */
#define CGROUP_LIMITS(X) \
	X(MEMORY, "--memory-max", "memory_max", "memory", "memory.max", limit_memory) \
	X(PIDS, "--pids-max", "pids_max", "pids", "pids.max", limit_pids) \
	X(CPU, "--cpu-max", "cpu_max", "cpu", "cpu.max", limit_cpu)

enum cgroup_limit {
#define CGROUP_LIMIT_ID(id, ...) CGROUP_LIMIT_##id,
	CGROUP_LIMITS(CGROUP_LIMIT_ID)
#undef CGROUP_LIMIT_ID
	CGROUP_NLIMITS
};

struct limit_row {
	const char *option;     /* "--memory-max" (getopt's name: &option[2]) */
	const char *key;        /* the report's key */
	const char *controller;
	const char *file;       /* the leaf's file the value is written to */
	const char *(*spell)(const char *s, char out[LIMIT_VALUE_MAX]);
};
extern const struct limit_row limit_rows[CGROUP_NLIMITS];

#endif
