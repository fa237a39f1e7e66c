/* SPDX-License-Identifier: ISC */
/* wloop: watch_open (the refusals, the subscription, the first scan),
 * the loop (signals, events, the audit timer) and the counters. */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/cn_proc.h>

#include "sys/sys.h"

static BSS_PAGE struct watch the_watch;

static void w_event(struct watch *w, const struct w_event *e)
{
	const struct w_rec *r;

	w->st.events++;
	if (e->ts > w->newest_ts)
		w->newest_ts = e->ts;
	switch (e->what) {
	case PROC_EVENT_FORK:
		w->st.forks++;
		/* A thread is no process of its own; an unrecorded parent
		 * costs a lookup, no /proc read. */
		if (e->pid == e->tgid && (r = w_rec_find(w, e->ptgid)) &&
		    r->at > e->ts) {
			struct w_rec parent = *r;

			w_follow(w, e->tgid, &parent, e->ts);
		}
		break;
	case PROC_EVENT_EXEC:
		w->st.execs++;
		break;
	case PROC_EVENT_UID:
		w->st.uid_events++;
		uid_t uid = w->o.by_euid ? e->euid : e->ruid;

		if (w_uid_wanted(w, uid))
			w_consider(w, e->tgid, WATCH_UID, e->ts, uid);
		break;
	default:
		w->st.other++;
	}
}

/* Only our probe child's FORK counts; the rest is before the scan. */
static pid_t w_probe_child;
static bool w_probe_seen;

static void w_probe_event(struct watch *w, const struct w_event *e)
{
	if (e->what == PROC_EVENT_FORK && e->ptgid == w->self &&
	    e->tgid == w_probe_child)
		w_probe_seen = true;
}

/* CONFIG_CONNECTOR without CONFIG_PROC_EVENTS, or a listener the kernel
 * ignores, binds fine and hears nothing: a fork of ours must be heard. */
static int w_probe(struct watch *w, const char **what)
{
	struct pollfd p = { w->sock, POLLIN, 0 };
	uint64_t until;

	w_probe_child = fork();
	if (w_probe_child < 0)
		return *what = "cannot fork", -1;
	if (w_probe_child == 0)
		_exit(0);
	waitpid(w_probe_child, NULL, 0);
	until = w_now() + 2000000000ULL;
	while (!w_probe_seen && w_now() < until) {
		if (poll(&p, 1, 100) > 0 && w_cn_read(w, w_probe_event) < 0 &&
		    errno != ENOBUFS)
			break;
	}
	if (w_probe_seen)
		return 0;
	*what = "the proc connector sends no events here (CONFIG_PROC_EVENTS?)";
	return -1;
}

/* The initial namespaces have fixed inode numbers (PROC_*_INIT_INO in
 * include/linux/proc_ns.h); pid 1 itself may be in a namespace of its
 * own (this VM's is in another cgroup namespace), so no comparison. */
static bool w_initial_ns(const char *ns, const char *ino)
{
	char path[48], link[64], want[64];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/self/ns/%s", ns);
	snprintf(want, sizeof want, "%s:[%s]", ns, ino);
	n = readlink(path, link, sizeof link - 1);
	if (n < 0)
		return errno == ENOENT;  /* a kernel without that namespace */
	link[n] = '\0';
	return !strcmp(link, want);
}

/* The connector ignores listeners outside the initial user and pid
 * namespaces; another cgroup namespace is a container's view. */
static const char *w_refuse(void)
{
	if (geteuid() != 0)
		return "must be run as root";
	if (!w_initial_ns("user", "4026531837"))
		return "not in the initial user namespace (a container?): "
		       "the proc connector ignores listeners there";
	if (!w_initial_ns("pid", "4026531836"))
		return "not in the initial pid namespace (a container?): the "
		       "proc connector ignores listeners there";
	if (!w_initial_ns("cgroup", "4026531835"))
		return "in a cgroup namespace of its own (a container?): the "
		       "host's groups are not its to move";
	return NULL;
}

/* Android's framework writes its own tids into cpuctl's groups at every
 * state change, undoing any move (watch.md 4): only a tree it does not
 * write, given by --cgroup-root. */
static bool w_android(const struct watch *w)
{
	return !w->o.cg.root && (access("/system/bin/app_process", F_OK) == 0 ||
				 access("/system/bin/app_process64", F_OK) == 0 ||
				 access("/dev/cpuctl/tasks", F_OK) == 0);
}

static int w_fds(struct watch *w, const char **what)
{
	sigset_t set;
	struct itimerspec it = { { w->o.audit_s, 0 }, { w->o.audit_s, 0 } };

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCONT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (w->sig = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		return *what = "cannot make a signalfd", -1;
	w->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (w->timer < 0 || timerfd_settime(w->timer, 0, &it, NULL) < 0)
		return *what = "cannot make the audit timer", -1;
	return 0;
}

static void w_lineage(struct watch *w)
{
	pid_t p = getppid();

	w->self = getpid();
	while (p > 1 && w->nancestors < 64) {
		char path[40], buf[512], *s;

		w->ancestors[w->nancestors++] = p;
		snprintf(path, sizeof path, "/proc/%d/stat", (int)p);
		if (readfile_at(AT_FDCWD, path, buf, sizeof buf) < 0 ||
		    !(s = strrchr(buf, ')')))
			break;
		p = (pid_t)strtol(s + 4, NULL, 10);
	}
}

static void w_clocks(struct watch *w)
{
	w->tick_ns = 1000000000L / sysconf(_SC_CLK_TCK);
}

struct watch *watch_open(const struct watch_opts *o, const char **what)
{
	struct watch *w = &the_watch;
	struct cgroup_plan cg;

	memset(w, 0, sizeof *w);
	w->o = *o;
	w->sock = w->sig = w->timer = -1;
	for (int i = 0; i < W_GROUPS; i++)
		w->groups[i].fd = -1;
	if ((*what = w_refuse()))
		return NULL;
	cg = o->cg;
	if (cgroup_watch_top(&cg, &w->top, what) < 0)
		return NULL;
	if (w_android(w))
		return *what = "on Android the framework moves tasks between "
			"its own cpu groups and undoes any move: give "
			"--cgroup-root a tree it does not write", NULL;
	w_lineage(w);
	w_clocks(w);
	if (w_cn_open(w, what) < 0 || w_probe(w, what) < 0 || w_fds(w, what) < 0)
		return NULL;
	/* Subscribed first, then the scan: nothing falls between. */
	w_rescan(w);
	w->st.rescans = 0;
	if (o->verbose)
		o->note("watching %d uid range%s by %s uid; groups in %s (v%d)",
			o->nuids, o->nuids == 1 ? "" : "s",
			o->by_euid ? "effective" : "real", w->top.rel,
			w->top.version);
	return w;
}

static int w_on_signal(struct watch *w)
{
	struct signalfd_siginfo si;
	int stop = 0, conts = 0;

	while (read(w->sig, &si, sizeof si) == sizeof si) {
		if (si.ssi_signo == SIGCONT)
			conts++;
		else
			stop = 1;
	}
	/* Stopped: the queue may hold seconds of events, and anything may
	 * have happened meanwhile: a rescan first.  (timeout(1) sends CONT
	 * after TERM: no stop then.) */
	if (conts && !stop) {
		w->st.stops++;
		w->need_rescan = true;
	}
	return stop;
}

static int w_on_socket(struct watch *w, const char **what)
{
	if (w_cn_read(w, w_event) == 0)
		return 0;
	if (errno != ENOBUFS)
		return *what = "cannot read the proc connector", -1;
	/* Lost events: what is queued is a part only; /proc is the whole. */
	w->st.enobufs++;
	w_cn_drain(w);
	w->need_rescan = true;
	return 0;
}

static void w_on_timer(struct watch *w)
{
	uint64_t n;

	if (read(w->timer, &n, sizeof n) == sizeof n) {
		w->st.audits++;
		w->need_rescan = true;
	}
}

int watch_run(struct watch *w, const char **what)
{
	struct pollfd p[3] = { { w->sig, POLLIN, 0 }, { w->sock, POLLIN, 0 },
			       { w->timer, POLLIN, 0 } };

	for (;;) {
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			return *what = "poll failed", -1;
		if ((p[0].revents & POLLIN) && w_on_signal(w))
			return 0;
		if (p[2].revents & POLLIN)
			w_on_timer(w);
		if (w->need_rescan)
			w_rescan(w);
		if ((p[1].revents & POLLIN) && w_on_socket(w, what) < 0)
			return -1;
		if (w->need_rescan)
			w_rescan(w);
		if (w->newest_ts > w->last_prune + W_REC_KEEP_NS) {
			w_rec_prune(w, w->newest_ts - W_REC_KEEP_NS);
			w->last_prune = w->newest_ts;
		}
	}
}

static int w_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static void w_pct(const unsigned *a, unsigned n, uint64_t *p50, uint64_t *p99)
{
	static BSS_PAGE unsigned tmp[W_SAMPLES];

	n = n < W_SAMPLES ? n : W_SAMPLES;
	*p50 = *p99 = 0;
	if (!n)
		return;
	memcpy(tmp, a, n * sizeof *a);
	small_sort(tmp, n, sizeof *tmp, w_cmp);
	*p50 = tmp[n / 2];
	*p99 = tmp[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
}

void watch_stats(struct watch *w, struct watch_stats *s)
{
	w->st.fork_caught = w->st.moves[WATCH_FORK];
	w_pct(w->write_us, w->nwrite, &w->st.write_p50_us, &w->st.write_p99_us);
	w_pct(w->lat_us, w->nlat, &w->st.lat_p50_us, &w->st.lat_p99_us);
	*s = w->st;
}
