/* SPDX-License-Identifier: ISC */
/* watch: every uid change on the host into its uid's group, as the
 * kernel patch's automatic per-uid task groups did at set_user().
 *
 * Promises.  A process whose real uid (or, by_euid, effective uid)
 * changed to a uid of the ranges given is moved into the same uid_<uid>
 * group leash -u uses (cgroup_watch_group), whoever started it.  Its
 * children forked before the move follow it (the fork rule: a parent
 * moved after a fork's timestamp takes the child along, also when the
 * parent is already gone, so a double fork's grandchild cannot slip
 * out); lost events (ENOBUFS) and a stop (SIGCONT) lead to a rescan of
 * /proc, as does the periodic audit; a pid is checked by its start
 * time and a pidfd around the move, so a recycled pid's new owner is
 * classified on its own.
 *
 * Never.  It never moves kernel threads, pid 1, itself or its
 * ancestors, zombies, real-time tasks, a uid outside the ranges (root
 * only when 0 is in them), nor a process whose group (in the cpu
 * hierarchy, and in cgroup2 on a hybrid host) is outside the allow-list
 * of sources: the root group, systemd's session scopes, leash's own
 * uid groups, and the patterns given.  Another manager's group (a
 * container, a delegated unit, Android's uid_X/pid_Y, a live leash
 * leaf) is never a source.  It never exits or prints: messages go
 * through the note callback; errors come back as -1 and one line. */
#ifndef LEASH_WATCH_H
#define LEASH_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup/cgroup.h"

#define WATCH_MAX_RANGES 64
#define WATCH_MAX_FROM 16

struct watch_range { uid_t lo, hi; };

struct watch_opts {
	struct cgroup_plan cg;          /* root, weight, verbose, note */
	struct watch_range uids[WATCH_MAX_RANGES];
	int nuids;                      /* 0: UID_MIN and up (cmd/ fills) */
	bool by_euid;
	const char *from[WATCH_MAX_FROM];  /* more sources (sys/glob.h) */
	int nfrom;
	unsigned audit_s;               /* 0: no periodic audit */
	bool verbose;
	/* Lines without the program prefix (diag_warn); -v moves only. */
	void (*note)(const char *fmt, ...)
		__attribute__((format(printf, 1, 2)));
};

enum watch_reason { WATCH_UID, WATCH_FORK, WATCH_SCAN, WATCH_NREASONS };

struct watch_stats {
	uint64_t events, forks, execs, uid_events, other;
	uint64_t moves[WATCH_NREASONS];
	uint64_t in_place;              /* already in its group */
	uint64_t denied;                /* source outside the allow-list */
	uint64_t fork_caught;           /* children taken by the fork rule */
	uint64_t dead_recorded;         /* gone before the move: recorded */
	uint64_t reused;                /* pid recycled around a move */
	uint64_t errors;                /* writes the kernel refused */
	uint64_t enobufs, stops, audits, rescans;
	uint64_t write_p50_us, write_p99_us;  /* cgroup.procs writes */
	uint64_t lat_p50_us, lat_p99_us;      /* uid change to moved */
};

struct watch;

/* Refuse where it cannot work (not root, not in the initial user, pid
 * and cgroup namespaces, no proc connector or no events from it,
 * Android's cpuctl without --cgroup-root, no cpu hierarchy), subscribe,
 * and scan /proc once.  -1 with *WHAT one line.  The returned watch is
 * static: one per process. */
struct watch *watch_open(const struct watch_opts *o, const char **what);

/* Until TERM or INT: 0.  -1 with *WHAT on a failure of the loop. */
int watch_run(struct watch *w, const char **what);

/* The counters so far (latencies computed on the call). */
void watch_stats(struct watch *w, struct watch_stats *s);
const char *watch_reason_name(enum watch_reason r);

/* "47035,47070-47080" into O's ranges: -1 with errno (EINVAL, E2BIG). */
int watch_parse_uids(struct watch_opts *o, const char *s);

#endif
