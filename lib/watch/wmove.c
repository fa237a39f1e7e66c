/* SPDX-License-Identifier: ISC */
/* wmove: the uid groups (opened once each), the records of recent moves
 * that the fork rule reads, and the move itself, guarded by the
 * process's start time and a pidfd. */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sys.h"

static unsigned w_hash(uint32_t k, unsigned slots)
{
	return (k * 2654435761u) & (slots - 1);
}

const struct w_rec *w_rec_find(const struct watch *w, pid_t tgid)
{
	for (unsigned i = w_hash((uint32_t)tgid, W_REC_SLOTS), n = 0;
	     n < W_REC_SLOTS && w->rec[i].tgid; i = (i + 1) & (W_REC_SLOTS - 1), n++)
		if (w->rec[i].tgid == tgid)
			return &w->rec[i];
	return NULL;
}

static void w_rec_put(struct watch *w, pid_t tgid, uid_t uid, uint64_t at)
{
	unsigned i = w_hash((uint32_t)tgid, W_REC_SLOTS);

	while (w->rec[i].tgid && w->rec[i].tgid != tgid)
		i = (i + 1) & (W_REC_SLOTS - 1);
	if (!w->rec[i].tgid)
		w->nrec++;
	w->rec[i] = (struct w_rec){ tgid, uid, at };
}

/* Rebuilt without the records moved before HORIZON: only a fork older
 * than the move reads a record, and events older than that are done. */
void w_rec_prune(struct watch *w, uint64_t horizon)
{
	static BSS_PAGE struct w_rec keep[W_REC_SLOTS];
	unsigned n = 0;

	if (!w->nrec)       /* the usual second: nothing moved, no page touched */
		return;
	for (unsigned i = 0; i < W_REC_SLOTS; i++)
		if (w->rec[i].tgid && w->rec[i].at >= horizon)
			keep[n++] = w->rec[i];
	memset(w->rec, 0, sizeof w->rec);
	w->nrec = 0;
	for (unsigned i = 0; i < n; i++)
		w_rec_put(w, keep[i].tgid, keep[i].uid, keep[i].at);
}

void w_rec_add(struct watch *w, pid_t tgid, uid_t uid, uint64_t at)
{
	if (w->nrec >= W_REC_SLOTS / 4 * 3) {
		w_rec_prune(w, w->newest_ts > W_REC_KEEP_NS ?
			    w->newest_ts - W_REC_KEEP_NS : 0);
		if (w->nrec >= W_REC_SLOTS / 2) {
			/* A fork flood of moved parents: forget, and let a
			 * rescan put by uid what the records would have. */
			w_rec_prune(w, UINT64_MAX);
			w->need_rescan = true;
		}
	}
	w_rec_put(w, tgid, uid, at);
}

/* uid's cgroup.procs, made at the uid's first move. */
static int w_group_fd(struct watch *w, uid_t uid)
{
	unsigned i = w_hash(uid, W_GROUPS), n = 0;
	struct cgroup_plan cg;
	const char *what;

	for (; n < W_GROUPS && w->groups[i].fd >= 0; i = (i + 1) & (W_GROUPS - 1), n++)
		if (w->groups[i].uid == uid)
			return w->groups[i].fd;
	if (n == W_GROUPS)
		return errno = EMFILE, -1;
	cg = w->o.cg;
	if (cgroup_watch_group(&cg, uid, &w->groups[i].fd, &what) < 0) {
		w->o.note("%s", what);
		return -1;
	}
	w->groups[i].uid = uid;
	return w->groups[i].fd;
}

static void w_sample(unsigned *a, unsigned *n, uint64_t ns)
{
	a[*n % W_SAMPLES] = (unsigned)(ns / 1000 > 0xffffffffu ? 0xffffffffu : ns / 1000);
	++*n;
}

static int w_write(struct watch *w, int fd, pid_t tgid)
{
	char s[16];
	int n = snprintf(s, sizeof s, "%d", (int)tgid);
	uint64_t t0 = w_now();
	ssize_t r = write(fd, s, (size_t)n);

	w_sample(w->write_us, &w->nwrite, w_now() - t0);
	return r == n ? 0 : -1;
}

static bool w_ended(int pfd)
{
	struct pollfd p = { pfd, POLLIN, 0 };

	return pfd >= 0 && poll(&p, 1, 0) == 1;
}

/* After the write: had the process ended, its pid may have been given
 * to another, which the write then moved: said, and counted. */
static void w_check_reuse(struct watch *w, pid_t tgid, int pfd,
			  const struct w_proc *p, uid_t uid)
{
	unsigned long long start;

	if (!w_ended(pfd))
		return;
	start = w_proc_start(tgid);
	if (!start || start == p->start)
		return;
	w->st.reused++;
	w->o.note("pid %d was recycled during its move: its new owner may "
		  "be in uid_%u", (int)tgid, (unsigned)uid);
}

/* 1 moved, 0 nothing to do, -1 not moved (counted). */
static int w_move(struct watch *w, pid_t tgid, int pfd, const struct w_proc *p,
		  uid_t uid, enum watch_reason why)
{
	const char *never = w_never(w, tgid, p);
	int fd;

	if (p->state == 'Z' || p->state == 'X')
		return errno = ESRCH, -1;   /* gone but for its status */
	if (never) {
		if (strstr(never, "allow-list"))
			w->st.denied++;
		if (w->o.verbose)
			w->o.note("not moved: %d (uid %u): %s", (int)tgid,
				  (unsigned)uid, never);
		return errno = EPERM, -1;
	}
	if (w_in_place(w, p, uid))
		return w->st.in_place++, 0;
	if ((fd = w_group_fd(w, uid)) < 0)
		return w->st.errors++, -1;
	if (w_ended(pfd) || w_write(w, fd, tgid) < 0) {
		if (w_ended(pfd) || errno == ESRCH)
			return errno = ESRCH, -1;
		w->st.errors++;
		w->o.note("cannot move %d into uid_%u: %s", (int)tgid,
			  (unsigned)uid, strerror(errno));
		return -1;
	}
	w_check_reuse(w, tgid, pfd, p, uid);
	w->st.moves[why]++;
	if (w->o.verbose)
		w->o.note("moved %d (uid %u, %s) from %s", (int)tgid,
			  (unsigned)uid, watch_reason_name(why), p->cpu);
	return 1;
}

/* A process that is gone still gets its record: its children, forked
 * before it died, follow it (a double fork's middle usually is gone). */
static void w_gone(struct watch *w, pid_t tgid, uid_t uid)
{
	if (!w_uid_wanted(w, uid))
		return;
	w->st.dead_recorded++;
	w_rec_add(w, tgid, uid, w_now());
}

void w_consider(struct watch *w, pid_t tgid, enum watch_reason why,
		uint64_t ts, uid_t hint)
{
	struct w_proc p;
	int pfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	int rc;

	if (pfd < 0 && errno == ESRCH) {
		if (why == WATCH_UID)
			w_gone(w, tgid, hint);
		return;
	}
	rc = w_proc_read(w, tgid, &p);
	if (rc != 0) {
		if (rc < 0 && why == WATCH_UID && errno == ESRCH)
			w_gone(w, tgid, hint);
		goto out;
	}
	uid_t uid = w->o.by_euid ? p.euid : p.ruid;

	rc = w_move(w, tgid, pfd, &p, uid, why);
	if (rc >= 0 || errno == ESRCH)
		w_rec_add(w, tgid, uid, w_now());
	if (rc > 0 && why == WATCH_UID && ts)
		w_sample(w->lat_us, &w->nlat, w_now() - ts);
out:
	if (pfd >= 0)
		close(pfd);
}

/* The fork rule: the child of a parent moved after the fork.  A child
 * already gone is recorded (its own children follow); a pid whose owner
 * started after the fork is another process: classified on its own
 * (by its uid, from where it is), never by the parent's record. */
void w_follow(struct watch *w, pid_t child, const struct w_rec *parent,
	      uint64_t ts)
{
	struct w_proc p;
	int pfd = (int)syscall(SYS_pidfd_open, child, 0);
	/* stat's start is in clock ticks of CLOCK_BOOTTIME: one tick late
	 * at most, never early. */
	uint64_t born = w_proc_start(child) * (uint64_t)w->tick_ns;
	int rc;

	if (!born) {            /* gone: its own children follow it */
		w_gone(w, child, parent->uid);
		goto out;
	}
	if (born > ts + w_boot_offset() + (uint64_t)w->tick_ns) {
		w->st.reused++;
		goto out;
	}
	rc = w_proc_read(w, child, &p);
	if (rc < 0 && errno == ESRCH)
		w_gone(w, child, parent->uid);
	if (rc == 0 && (w_move(w, child, pfd, &p, w->o.by_euid ? p.euid : p.ruid,
			       WATCH_FORK) >= 0 || errno == ESRCH))
		w_rec_add(w, child, w->o.by_euid ? p.euid : p.ruid, w_now());
out:
	if (pfd >= 0)
		close(pfd);
}
