/* SPDX-License-Identifier: ISC */
/* watch/internal.h: what the watch files share.  Each file calls only
 * those above it here:
 *   wcn.c     the proc connector: socket, subscription, events
 *   wrule.c   the uid ranges, the never-move set, the allow-list
 *   wproc.c   one process as /proc shows it: ids, state, start, groups
 *   wmove.c   the uid groups, the moved records (the fork rule), a move
 *   wscan.c   the rescan of /proc
 *   wloop.c   open (refusals), the loop, the counters */
#ifndef LEASH_WATCH_INTERNAL_H
#define LEASH_WATCH_INTERNAL_H

#include "watch/watch.h"

#define W_REC_SLOTS 4096        /* moved records: power of two */
#define W_GROUPS 1024           /* uid groups open at once */
#define W_SAMPLES 4096          /* latency samples kept */
#define W_REC_KEEP_NS 1000000000ULL  /* a record outlives its move 1 s */

struct w_event {
	unsigned what;
	pid_t pid, tgid, ppid, ptgid;
	uid_t ruid, euid;
	uint64_t ts;                    /* CLOCK_MONOTONIC ns, the kernel's */
};

/* One process, read from /proc/PID/{stat,status,cgroup}. */
struct w_proc {
	char state;
	pid_t ppid;
	unsigned long flags;
	unsigned long long start;       /* clock ticks since boot */
	unsigned policy;
	uid_t ruid, euid;
	char cpu[512];                  /* group in the cpu hierarchy */
	char v2[512];                   /* cgroup2 group (hybrid), or "" */
};

struct w_rec { pid_t tgid; uid_t uid; uint64_t at; };
struct w_group { uid_t uid; int fd; };

struct watch {
	struct watch_opts o;
	struct cgroup_watch_top top;
	struct watch_stats st;
	int sock, sig, timer;
	pid_t self, ancestors[64];
	int nancestors;
	long tick_ns;                   /* one clock tick of /proc stat */
	uint64_t newest_ts;             /* the newest event handled */
	uint64_t last_prune;
	bool need_rescan;              /* records overflowed, or a loss */
	struct w_rec rec[W_REC_SLOTS];
	unsigned nrec;
	struct w_group groups[W_GROUPS];
	unsigned lat_us[W_SAMPLES], write_us[W_SAMPLES];
	unsigned nlat, nwrite;
};

/* wcn.c */
int w_cn_open(struct watch *w, const char **what);
/* Receive what is queued, calling FN for each event; 0 when drained,
 * -1 with errno (ENOBUFS: events were lost). */
int w_cn_read(struct watch *w, void (*fn)(struct watch *, const struct w_event *));
/* Drop what is queued (after ENOBUFS: a rescan follows). */
void w_cn_drain(struct watch *w);

/* wproc.c: 0; 1 when its uid is not watched (only the ids read);
 * -1 (ESRCH: gone). */
int w_proc_read(const struct watch *w, pid_t pid, struct w_proc *p);
unsigned long long w_proc_start(pid_t pid);
uint64_t w_now(void);
uint64_t w_boot_offset(void);

/* wrule.c */
bool w_uid_wanted(const struct watch *w, uid_t uid);
/* NULL when P may be moved, else why not (for -v). */
const char *w_never(const struct watch *w, pid_t pid, const struct w_proc *p);
/* P's cpu group is uid's: nothing to do. */
bool w_in_place(const struct watch *w, const struct w_proc *p, uid_t uid);

/* wmove.c */
const struct w_rec *w_rec_find(const struct watch *w, pid_t tgid);
void w_rec_add(struct watch *w, pid_t tgid, uid_t uid, uint64_t at);
void w_rec_prune(struct watch *w, uint64_t horizon);
/* Classify TGID (read from /proc) and move it when it qualifies. */
void w_consider(struct watch *w, pid_t tgid, enum watch_reason why,
		uint64_t ts, uid_t hint);
/* The fork rule for a child of a recorded parent. */
void w_follow(struct watch *w, pid_t child, const struct w_rec *parent,
	      uint64_t ts);

/* wscan.c */
void w_rescan(struct watch *w);

#endif
