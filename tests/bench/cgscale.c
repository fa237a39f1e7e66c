/* SPDX-License-Identifier: ISC */
/* cgscale: the cost of the per-uid cgroup step as the number of uid
 * groups grows (1, 100, 1000 existing groups), and a stress run of many
 * launches over many uids, 8 at a time: failures, leaves left behind.
 *
 * Groups are made under the leash root of every cpu hierarchy found
 * (<v1 cpu mount>/leash and <cgroup2 mount>/leash), for uids in ranges
 * no real user has; everything the bench made is removed at the end. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define SCALE_UID 3700000000u   /* the uid launched by the scale rows */
#define FILL_UID 3800000000u    /* empty sibling groups made by the bench */
#define STRESS_UID 3900000000u  /* the 100 uids of the stress run */
#define STRESS_UIDS 100

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

static bool has_token(const char *list, const char *tok)
{
	size_t len = strlen(tok);

	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, tok, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

void find_roots(struct roots *r)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], mnt[512], fstype[64], opts[512];

	memset(r, 0, sizeof *r);
	while (f && fgets(line, sizeof line, f)) {
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %511s", fstype, opts) != 2)
			continue;
		unescape(mnt);
		if (!strcmp(fstype, "cgroup") && has_token(opts, "cpu") &&
		    !r->dir[0][0])
			snprintf(r->dir[0], PATH_MAX, "%s/leash", mnt);
		if (!strcmp(fstype, "cgroup2") && !r->dir[1][0])
			snprintf(r->dir[1], PATH_MAX, "%s/leash", mnt);
	}
	if (f)
		fclose(f);
}

static void group_path(char *buf, const struct roots *r, int h, unsigned uid)
{
	snprintf(buf, PATH_MAX, "%.4000s/uid_%u", r->dir[h], uid);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Subdirectories of DIR (leaves), removing them when REMOVE. */
static int count_subdirs(const char *dir, bool remove)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			char p[PATH_MAX];

			n++;
			snprintf(p, sizeof p, "%.3000s/%s", dir, e->d_name);
			if (remove)
				rmdir(p);
		}
	if (d)
		closedir(d);
	return n;
}

static int count_uid_groups(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, "uid_", 4);
	if (d)
		closedir(d);
	return n;
}

/* Remove a uid group the bench caused, after its leftover leaves. */
static void drop_group(const struct roots *r, unsigned uid, const bool *had)
{
	char p[PATH_MAX];

	for (int h = 0; h < 2; h++) {
		if (!r->dir[h][0] || had[h])
			continue;
		group_path(p, r, h, uid);
		count_subdirs(p, true);
		if (rmdir(p) < 0 && errno != ENOENT)
			printf("  note: cannot remove %s: %s\n", p,
			       strerror(errno));
	}
}

static void snapshot(const struct roots *r, unsigned uid, bool *had)
{
	char p[PATH_MAX];

	for (int h = 0; h < 2; h++) {
		group_path(p, r, h, uid);
		had[h] = r->dir[h][0] && is_dir(p);
	}
}

static bool filled[2][1000];

/* Make empty sibling groups until N exist in each hierarchy's root. */
static void fill_to(const struct roots *r, int n)
{
	char p[PATH_MAX];

	for (int h = 0; h < 2; h++)
		for (int i = 0; r->dir[h][0] && i < n && i < 1000; i++) {
			if (filled[h][i])
				continue;
			group_path(p, r, h, FILL_UID + (unsigned)i);
			filled[h][i] = mkdir(p, 0755) == 0;
		}
}

static void unfill(const struct roots *r)
{
	char p[PATH_MAX];

	for (int h = 0; h < 2; h++)
		for (int i = 999; i >= 0; i--)
			if (filled[h][i]) {
				group_path(p, r, h, FILL_UID + (unsigned)i);
				if (rmdir(p) == 0)
					filled[h][i] = false;
			}
}

struct step {
	struct stats cg, off, diff, cpu;    /* cpu: paired CPU-time step */
	int fails;
};

/* One interleaved pair, in random order: 0 when both ran. */
static int one_pair(const struct setup *s, const struct cmd *rows,
		    int64_t *ns, int64_t *cpu)
{
	int first = (int)(rand_next() & 1), bad = 0;

	for (int j = 0; j < 2; j++) {
		int i = j ^ first;

		bad |= cmd_time(&rows[i], s->devnull, &ns[i], &cpu[i]) < 0;
	}
	return bad ? -1 : 0;
}

/* Interleaved pairs: the same launch with and without the cgroup. */
static void measure_step(const struct setup *s, const struct cmd *rows,
			 int rounds, struct step *st)
{
	double *v = calloc(4 * (size_t)rounds, sizeof(double));
	double *off = v + rounds, *d = off + rounds, *c = d + rounds;
	int n = 0;

	st->fails = 0;
	for (int k = -3; k < rounds && !bench_stop; k++) {
		int64_t ns[2], cpu[2];

		if (one_pair(s, rows, ns, cpu) < 0) {
			st->fails += k >= 0;
			continue;
		}
		if (k < 0)
			continue;
		v[n] = (double)ns[0] / 1000.0;
		off[n] = (double)ns[1] / 1000.0;
		d[n] = v[n] - off[n];
		c[n++] = (double)(cpu[0] - cpu[1]) / 1000.0;
	}
	stats_of(v, (size_t)n, &st->cg);
	stats_of(off, (size_t)n, &st->off);
	stats_of(d, (size_t)n, &st->diff);
	stats_of(c, (size_t)n, &st->cpu);
	free(v);
}

static void scale_skip(const char *why)
{
	printf("  skipped: %s\n", why);
	json_bool("skipped", true);
	json_str("why", why);
	json_end();
}

static void scale_row(const struct roots *r, int want, const struct step *st,
		      int i)
{
	int have = count_uid_groups(r->dir[r->dir[0][0] ? 0 : 1]);
	double cost = st->cg.med - st->off.med;

	printf("  %6d %8d %10.0f %10.0f %+9.0f %+9.0f %9.0f %9.0f %+9.0f "
	       "%5d\n", want, have, st->cg.med, st->off.med, cost,
	       st->diff.med, st->diff.p10, st->diff.p90, st->cpu.med,
	       st->fails);
	json_obj(NULL);
	json_int("groups_wanted", want);
	json_int("uid_groups_present", have);
	json_num("cgroup_median_us", st->cg.med);
	json_num("nocgroup_median_us", st->off.med);
	json_num("step_us", cost);
	json_num("step_paired_median_us", st->diff.med);
	json_num("step_paired_p10_us", st->diff.p10);
	json_num("step_paired_p90_us", st->diff.p90);
	json_num("step_cpu_paired_median_us", st->cpu.med);
	json_int("failures", st->fails);
	json_end();
	fig.cg_step_us[i] = st->diff.med;      /* paired: steadier */
}

/* Keep the roots leash made; say which, and the table's head. */
static void scale_head(struct roots *r)
{
	for (int h = 0; h < 2; h++)
		if (!is_dir(r->dir[h]))
			r->dir[h][0] = '\0';
	json_str("v1_root", r->dir[0]);
	json_str("v2_root", r->dir[1]);
	printf("  roots: %s %s\n", r->dir[0], r->dir[1]);
	printf("  %6s %8s %10s %10s %9s %9s %9s %9s %9s %5s\n", "groups",
	       "present", "cgroup", "off", "step", "paired", "p10", "p90",
	       "cpu step", "fail");
}

void sec_scale(const struct setup *s)
{
	static const int want[3] = { 1, 100, 1000 };
	static char uid[16];
	struct cmd rows[2];
	struct roots r;
	struct step st;
	bool had[2];
	int rounds = s->quick ? 40 : 300;

	snprintf(uid, sizeof uid, "%u", SCALE_UID);
	printf("\ncgroup step: leash -u %s --cgroup=require -t 10 true minus "
	       "--cgroup=off, %d pairs\n", uid, rounds);
	json_obj("cgroup_scale");
	json_int("rounds", rounds);
	if (!s->leash) {
		scale_skip("no leash binary yet");
		return;
	}
	cmd_set(&rows[0], "cgroup", "cgroup", s->leash, "-u", uid,
		"--cgroup=require", "-t", "10", s->t_true, NULL);
	cmd_set(&rows[1], "off", "off", s->leash, "-u", uid, "--cgroup=off",
		"-t", "10", s->t_true, NULL);
	find_roots(&r);
	snapshot(&r, SCALE_UID, had);
	cmd_preflight(&rows[0], s->devnull, 0);
	cmd_preflight(&rows[1], s->devnull, 0);
	if (rows[0].skip || rows[1].skip) {
		drop_group(&r, SCALE_UID, had);
		scale_skip(rows[rows[0].skip ? 0 : 1].why);
		return;
	}
	scale_head(&r);
	json_arr("rows");
	for (int i = 0; i < 3 && !bench_stop; i++) {
		fill_to(&r, want[i]);
		measure_step(s, rows, rounds, &st);
		scale_row(&r, want[i], &st, i);
	}
	json_end();
	unfill(&r);
	drop_group(&r, SCALE_UID, had);
	json_end();
}

#define MAX_PAR 64

static int slot_of(const pid_t *live, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (live[i] == pid)
			return i;
	return 0;
}

/* waitpid(-1), bounded: if nothing ends in WATCHDOG_S, kill what runs. */
static pid_t wait_any(pid_t *live, int n, int *status)
{
	pid_t pid;

	alarm(WATCHDOG_S);
	while ((pid = waitpid(-1, status, 0)) < 0 && errno == EINTR)
		for (int i = 0; i < n && !bench_stop; i++)
			if (live[i] > 0)
				kill(live[i], SIGKILL);
	alarm(0);
	if (pid > 0)
		live[slot_of(live, n, pid)] = 0;
	return pid;
}

struct stress {
	int total, par;
	long fails;
	int64_t wall_ns;
	int first_bad;              /* raw status of the first failure */
};

/* TOTAL launches over STRESS_UIDS uids, PAR at a time. */
static void stress_run(const struct setup *s, struct cmd *c, char *uid,
		       int errfd, struct stress *x)
{
	int inflight = 0, started = 0, status;
	int64_t t0 = now_ns();
	pid_t pid, live[MAX_PAR] = { 0 };

	x->fails = 0;
	x->first_bad = 0;
	while ((started < x->total && !bench_stop) || inflight > 0) {
		while (inflight < x->par && started < x->total && !bench_stop) {
			snprintf(uid, 16, "%u", STRESS_UID +
				 (unsigned)(started % STRESS_UIDS));
			pid = cmd_spawn(c, s->devnull, errfd, -1);
			if (pid < 0) {
				x->fails++;
			} else {
				live[slot_of(live, x->par, 0)] = pid;
				inflight++;
			}
			started++;
		}
		pid = wait_any(live, x->par, &status);
		if (pid < 0)
			break;
		inflight--;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			if (!x->fails++)
				x->first_bad = status;
		}
	}
	x->wall_ns = now_ns() - t0;
	x->total = started;
}

/* Leaves (and v1 groups' processes) left under the stress uids. */
static long stress_leftovers(const struct roots *r)
{
	char p[PATH_MAX];
	long left = 0;

	for (unsigned i = 0; i < STRESS_UIDS; i++)
		for (int h = 0; h < 2; h++) {
			if (!r->dir[h][0])
				continue;
			group_path(p, r, h, STRESS_UID + i);
			left += count_subdirs(p, false);
		}
	return left;
}

static void stress_report(const struct stress *x, long left, int errfd)
{
	char line[200] = "";
	ssize_t n = pread(errfd, line, sizeof line - 1, 0);

	line[n > 0 ? n : 0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	printf("  %d launches, %d at a time over %d uids: %ld failed, %ld "
	       "leaves left, %.2f s wall (%.0f launches/s)\n", x->total,
	       x->par, STRESS_UIDS, x->fails, left, (double)x->wall_ns / 1e9,
	       x->total / ((double)x->wall_ns / 1e9));
	if (x->fails)
		printf("  first failure: status 0x%x: %s\n", x->first_bad, line);
	json_int("launches", x->total);
	json_int("parallel", x->par);
	json_int("uids", STRESS_UIDS);
	json_int("failures", x->fails);
	json_int("leaves_left", left);
	json_num("wall_s", (double)x->wall_ns / 1e9);
	json_num("launches_per_s", x->total / ((double)x->wall_ns / 1e9));
	if (x->fails)
		json_str("first_failure", line);
	fig.stress_fail = x->fails;
	fig.stress_left = left;
}

void sec_stress(const struct setup *s)
{
	static bool had[STRESS_UIDS][2];
	static char uid[16];
	struct stress x = { .total = s->quick ? 1000 : 10000, .par = 8 };
	struct roots r;
	struct cmd c;
	int errfd;
	long left;

	printf("\nstress: leash -u UID --cgroup=require -t 10 true\n");
	json_obj("stress");
	if (!s->leash) {
		scale_skip("no leash binary yet");
		return;
	}
	snprintf(uid, sizeof uid, "%u", STRESS_UID);
	cmd_set(&c, "stress", "stress", s->leash, "-u", uid,
		"--cgroup=require", "-t", "10", s->t_true, NULL);
	find_roots(&r);
	for (unsigned i = 0; i < STRESS_UIDS; i++)
		snapshot(&r, STRESS_UID + i, had[i]);
	cmd_preflight(&c, s->devnull, 0);
	if (c.skip) {
		drop_group(&r, STRESS_UID, had[0]);
		scale_skip(c.why);
		return;
	}
	errfd = memfd_create("bench-stress", MFD_CLOEXEC);
	stress_run(s, &c, uid, errfd, &x);
	left = stress_leftovers(&r);
	stress_report(&x, left, errfd);
	close(errfd);
	for (unsigned i = 0; i < STRESS_UIDS; i++)
		drop_group(&r, STRESS_UID + i, had[i]);
	json_end();
}
