/* SPDX-License-Identifier: ISC */
/* launch: the cost of one launch of `true` through each supervisor,
 * interleaved round by round (a random order each round) so that a
 * drift of the machine hits every row alike. */
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "bench.h"

enum {
	R_BARE, R_FLOOR, R_THREAD, R_PIDFD, R_POLL, R_REPORT, R_REPORT_TMPFS,
	R_REPORT_FD, R_LTIMEOUT, R_GNU,
	R_BUSYBOX,
	R_TOYBOX, R_U_OFF, R_U_CG, R_SETPRIV, R_RUNUSER, R_SU,
	R_FLOOR_CG,                 /* after R_U_CG: leash's preflight makes
				 * the groups the floor then uses */
	R_TRACK,                    /* -t with a tracking leaf, no subreaper */
	R_MEM, R_PIDS, R_CPU,       /* the same leaf with one limit each
				 * (cgroup2 with the controller: check-vm) */
	R_FLOOR_REP, R_FLOOR_REP_TMPFS,     /* minrep: the report file's floor */
	R_QEMU_FLOOR, R_QEMU_T,     /* minsup and leash -t under qemu-user */
	R_WARN, R_IDLE, R_STALL,    /* -t with --warn, --idle, --stall that
				 * do not fire (issue 33) */
	R_VAR,                      /* --variant binaries: VAR_ROWS each */
	R_N = R_VAR + 5 * MAX_VARIANTS     /* VAR_ROWS */
};

struct series {
	double *v;                  /* wall µs per round, NaN when not run */
	double *cpu;                /* CPU µs (user + system) per round */
	int stride;                 /* run every STRIDE rounds (slow rows) */
	int fails;
	struct stats st, cst;
	double ovh, paired, covh;   /* overheads over bare: wall, paired, CPU */
};

/* The tmpfs rows' reports, in a directory of the bench's own: leash
 * refuses a report in one others may write, as /dev/shm itself. */
static char tmpfs_dir[48];

const char *launch_tmpfs_report(bool floor)
{
	static char path[2][64];

	if (!tmpfs_dir[0]) {
		snprintf(tmpfs_dir, sizeof tmpfs_dir, "/dev/shm/leash-bench-%d",
			 (int)getpid());
		mkdir(tmpfs_dir, 0700);
	}
	if (!path[floor][0])
		snprintf(path[floor], sizeof path[0], "%s/%s.json", tmpfs_dir,
			 floor ? "floor" : "leash");
	return path[floor];
}

void launch_tmpfs_cleanup(void)
{
	if (!tmpfs_dir[0])
		return;
	unlink(launch_tmpfs_report(false));
	unlink(launch_tmpfs_report(true));
	rmdir(tmpfs_dir);
}

/* A row whose file lives in /dev/shm runs only where that is tmpfs. */
static void need_tmpfs(struct cmd *c)
{
	struct statfs fs;

	if (statfs("/dev/shm", &fs) < 0 || fs.f_type != TMPFS_MAGIC)
		strcpy(c->why, "no tmpfs at /dev/shm");
}

static void leash_rows(const struct setup *s, struct cmd *r)
{
	const char *L = s->leash, *T = s->t_true;
	static const char *const waits[] = { "thread", "pidfd", "poll" };
	static const char *const keys[] = {
		"leash_thread", "leash_pidfd", "leash_poll"
	};
	static const char *const labels[] = {
		"leash -t 10 true (thread)", "leash -t 10 true (pidfd)",
		"leash -t 10 true (poll)"
	};

	for (int i = 0; i < 3; i++) {
		cmd_set(&r[R_THREAD + i], keys[i], labels[i], L, "-t", "10",
			T, NULL);
		cmd_wait_env(&r[R_THREAD + i], waits[i]);
	}
	/* The report beside the targets: what --report adds to -t. */
	static char report[96];
	snprintf(report, sizeof report, "--report=%s/report.json", s->dir);
	cmd_set(&r[R_REPORT], "leash_report", "leash -t 10 --report=FILE true",
		L, "-t", "10", report, T, NULL);
	/* The same on tmpfs: what the filesystem adds to the file's cost
	 * (an inode made and one removed per report). */
	static char report_tmpfs[96];
	snprintf(report_tmpfs, sizeof report_tmpfs, "--report=%s",
		 launch_tmpfs_report(false));
	cmd_set(&r[R_REPORT_TMPFS], "leash_report_tmpfs",
		"leash -t 10 --report=FILE true (tmpfs)", L, "-t", "10",
		report_tmpfs, T, NULL);
	need_tmpfs(&r[R_REPORT_TMPFS]);
	/* To stdout (/dev/null here): leash's own cost, no file made. */
	cmd_set(&r[R_REPORT_FD], "leash_report_fd",
		"leash -t 10 --report-fd=1 true", L, "-t", "10", "--report-fd=1",
		T, NULL);
	cmd_set(&r[R_LTIMEOUT], "leash_as_timeout",
		"timeout 10 true (leash as timeout)", s->leash_timeout, "10",
		T, NULL);
	cmd_set(&r[R_U_OFF], "leash_u_nocgroup",
		"leash -u nobody --cgroup=off -t 10 true", L, "-u", "nobody",
		"--cgroup=off", "-t", "10", T, NULL);
	cmd_set(&r[R_TRACK], "leash_track", "leash -t 10 --cgroup=track true",
		L, "-t", "10", "--cgroup=track", T, NULL);
	/* What a limit adds to the leaf: the controller's file written
	 * (the first launch also enables it down leash's path). */
	cmd_set(&r[R_MEM], "leash_track_memory_max",
		"leash -t 10 --cgroup=track --memory-max=1G true", L, "-t", "10",
		"--cgroup=track", "--memory-max=1G", T, NULL);
	cmd_set(&r[R_PIDS], "leash_track_pids_max",
		"leash -t 10 --cgroup=track --pids-max=100 true", L, "-t", "10",
		"--cgroup=track", "--pids-max=100", T, NULL);
	cmd_set(&r[R_CPU], "leash_track_cpu_max",
		"leash -t 10 --cgroup=track --cpu-max=50% true", L, "-t", "10",
		"--cgroup=track", "--cpu-max=50%", T, NULL);
	cmd_set(&r[R_U_CG], "leash_u_cgroup",
		"leash -u nobody --cgroup=require -t 10 true", L, "-u",
		"nobody", "--cgroup=require", "-t", "10", T, NULL);
	/* What watching for progress adds to -t when nothing fires. */
	cmd_set(&r[R_WARN], "leash_warn", "leash -t 10 --warn=USR1@5 true", L,
		"-t", "10", "--warn=USR1@5", T, NULL);
	cmd_set(&r[R_IDLE], "leash_idle", "leash -t 10 --idle=5 true", L,
		"-t", "10", "--idle=5", T, NULL);
	cmd_set(&r[R_STALL], "leash_stall", "leash -t 10 --stall=5 true", L,
		"-t", "10", "--stall=5", T, NULL);
	static const int mine[] = { R_THREAD, R_PIDFD, R_POLL, R_REPORT,
				    R_REPORT_TMPFS, R_REPORT_FD, R_U_OFF,
				    R_U_CG, R_TRACK, R_MEM, R_PIDS, R_CPU,
				    R_WARN, R_IDLE, R_STALL };

	for (size_t i = 0; !L && i < sizeof mine / sizeof mine[0]; i++)
		strcpy(r[mine[i]].why, "no leash binary yet");
}

static void peer_rows(const struct setup *s, struct cmd *r)
{
	const char *T = s->t_true, *G = s->gnu_timeout;
	static char sucmd[200];

	snprintf(sucmd, sizeof sucmd, "%s 10 %s", G, T);
	cmd_set(&r[R_BARE], "bare", "true (static, bare)", T, NULL);
	cmd_set(&r[R_FLOOR], "floor", "minimal supervisor (fork+thread)",
		s->t_minsup, T, NULL);
	cmd_set(&r[R_GNU], "gnu_timeout", "timeout 10 true (GNU)", G, "10", T,
		NULL);
	cmd_set(&r[R_BUSYBOX], "busybox_timeout", "busybox timeout 10 true",
		s->busybox, "timeout", "10", T, NULL);
	cmd_set(&r[R_TOYBOX], "toybox_timeout", "toybox timeout 10 true",
		s->toybox, "timeout", "10", T, NULL);
	cmd_set(&r[R_SETPRIV], "setpriv_timeout",
		"setpriv --reuid=65534 .. timeout 10 true", s->setpriv,
		"--reuid=65534", "--regid=65534", "--clear-groups", G, "10", T,
		NULL);
	cmd_set(&r[R_RUNUSER], "runuser_timeout",
		"runuser -u nobody -- timeout 10 true", s->runuser, "-u",
		"nobody", "--", G, "10", T, NULL);
	cmd_set(&r[R_SU], "su_timeout",
		"su nobody -s /bin/sh -c 'timeout 10 true'", s->su, "nobody",
		"-s", "/bin/sh", "-c", sucmd, NULL);
}

/* The floor of the cgroup step: minsup plus the kernel's part of leash's
 * cgroup work, in the groups of the -u nobody row (DESIGN.md's layout:
 * v1 uid group + cgroup2 leaf on a hybrid host, cgroup2 leaf on a pure
 * one).  Which of them existed before is remembered, to remove only
 * what this section made. */
static char floor_v1[4200], floor_v2[4200], track_v2[4200];
static bool floor_had[3];

static void floor_row(const struct setup *s, struct cmd *r)
{
	struct passwd *pw = getpwnam("nobody");
	unsigned uid = pw ? (unsigned)pw->pw_uid : 65534;
	struct roots rt;
	struct stat st;

	find_roots(&rt);
	snprintf(floor_v1, sizeof floor_v1, "-");
	if (rt.dir[0][0])
		snprintf(floor_v1, sizeof floor_v1, "%.4000s/uid_%u",
			 rt.dir[0], uid);
	snprintf(floor_v2, sizeof floor_v2, "%.4000s/uid_%u", rt.dir[1], uid);
	/* The --cgroup=track row's uid group: root's, in cgroup2. */
	snprintf(track_v2, sizeof track_v2, "%.4000s/uid_0", rt.dir[1]);
	if (!rt.dir[1][0])
		track_v2[0] = '\0';
	floor_had[0] = stat(floor_v1, &st) == 0;
	floor_had[1] = stat(floor_v2, &st) == 0;
	floor_had[2] = stat(track_v2, &st) == 0;
	cmd_set(&r[R_FLOOR_CG], "floor_cgroup",
		"minimal supervisor + cgroup (floor)", s->t_mincg, floor_v1,
		floor_v2, s->t_true, NULL);
	if (!rt.dir[1][0])
		strcpy(r[R_FLOOR_CG].why, "no cgroup2 mount");
	else if (geteuid() != 0)
		strcpy(r[R_FLOOR_CG].why, "needs root");
	else
		return;
	r[R_FLOOR_CG].skip = true;
}

/* The floor of --report=FILE's file, beside leash's two report rows. */
static void floor_report_rows(const struct setup *s, struct cmd *r)
{
	static char file[120];

	snprintf(file, sizeof file, "%s/floor.json", s->dir);
	cmd_set(&r[R_FLOOR_REP], "floor_report",
		"minimal supervisor + report file (floor)", s->t_minrep, file,
		s->t_true, NULL);
	cmd_set(&r[R_FLOOR_REP_TMPFS], "floor_report_tmpfs",
		"minimal supervisor + report file (floor, tmpfs)", s->t_minrep,
		launch_tmpfs_report(true), s->t_true, NULL);
	need_tmpfs(&r[R_FLOOR_REP_TMPFS]);
}

/* The emulated start (FEX-Emu, qemu-user: what made steam-runtime-tools
 * drop timeout(1)): leash -t and the minimal supervisor, each run by the
 * same emulator for this machine's own architecture; the command they
 * exec runs natively in both (qemu-user execs it itself). */
static void qemu_rows(const struct setup *s, struct cmd *r)
{
	cmd_set(&r[R_QEMU_FLOOR], "qemu_floor",
		"qemu-user: minimal supervisor", s->qemu, s->t_minsup,
		s->t_true, NULL);
	cmd_set(&r[R_QEMU_T], "qemu_leash_thread", "qemu-user: leash -t 10 true",
		s->qemu, s->leash, "-t", "10", s->t_true, NULL);
	for (int i = R_QEMU_FLOOR; i <= R_QEMU_T; i++)
		if (!s->qemu)
			strcpy(r[i].why, "no qemu-user (BENCH_QEMU)");
		else if (!s->leash && i == R_QEMU_T)
			strcpy(r[i].why, "no leash binary yet");
}

/* Remove the groups this section made (leash keeps uid groups; the
 * bench leaves the machine as it found it). */
static void floor_cleanup(void)
{
	const char *dir[3] = { floor_v1, track_v2, floor_v2 };
	const bool had[3] = { floor_had[0], floor_had[2], floor_had[1] };

	for (int h = 0; h < 3; h++) {
		if (had[h] || !strcmp(dir[h], "-") || !dir[h][0])
			continue;
		rmdir(dir[h]);
		/* leash/ too, when nothing else is in it any more */
		char top[4200], *slash;

		snprintf(top, sizeof top, "%s", dir[h]);
		if ((slash = strrchr(top, '/'))) {
			*slash = '\0';
			rmdir(top);
		}
	}
}

/* Rows for other leash binaries (--variant), to compare a change with
 * the build in one run: -t, -u without and with the group, --report,
 * and -t under qemu-user when there is one. */
#define VAR_ROWS 5

static void variant_rows(const struct setup *s, struct cmd *r)
{
	static const char *const kind[VAR_ROWS] = {
		"t", "u_off", "u", "report", "qemu_t"
	};
	static const char *const what[VAR_ROWS] = {
		"-t 10 true", "-u nobody --cgroup=off", "-u nobody (cgroup)",
		"-t 10 --report=FILE", "-t 10 true (qemu-user)"
	};
	static char labels[VAR_ROWS * MAX_VARIANTS][64];
	static char keys[VAR_ROWS * MAX_VARIANTS][24];
	static char reports[MAX_VARIANTS][96];
	const char *T = s->t_true;

	for (int v = 0; v < MAX_VARIANTS; v++) {
		const char *path = s->variant[v], *base = path;
		int at = R_VAR + VAR_ROWS * v;

		/* the last two components name it: "patched/leash" */
		for (const char *q = path; q && *q; q++)
			if (*q == '/' && q[1] && strchr(q + 1, '/'))
				base = q + 1;
		for (int k = 0; k < VAR_ROWS; k++) {
			snprintf(keys[at - R_VAR + k], sizeof keys[0],
				 "variant%d_%s", v + 1, kind[k]);
			snprintf(labels[at - R_VAR + k], sizeof labels[0],
				 "%.20s %s", base ? base : "-", what[k]);
		}
		snprintf(reports[v], sizeof reports[0],
			 "--report=%s/report%d.json", s->dir, v + 1);
		cmd_set(&r[at], keys[at - R_VAR], labels[at - R_VAR], path,
			"-t", "10", T, NULL);
		cmd_set(&r[at + 1], keys[at - R_VAR + 1],
			labels[at - R_VAR + 1], path, "-u", "nobody",
			"--cgroup=off", "-t", "10", T, NULL);
		cmd_set(&r[at + 2], keys[at - R_VAR + 2],
			labels[at - R_VAR + 2], path, "-u", "nobody",
			"--cgroup=require", "-t", "10", T, NULL);
		cmd_set(&r[at + 3], keys[at - R_VAR + 3],
			labels[at - R_VAR + 3], path, "-t", "10", reports[v],
			T, NULL);
		cmd_set(&r[at + 4], keys[at - R_VAR + 4],
			labels[at - R_VAR + 4], path ? s->qemu : NULL, path,
			"-t", "10", T, NULL);
	}
}

/* Preflight every row; the 100 ms poller (about 100 ms a launch of a
 * command that exits at once) runs only in every STRIDE-th round. */
static void prepare(const struct setup *s, struct cmd *r, struct series *x,
		    int rounds)
{
	int slow_n = s->quick ? 6 : 25;

	for (int i = 0; i < R_N; i++) {
		cmd_preflight(&r[i], s->devnull, 0);
		x[i].v = malloc(sizeof(double) * (size_t)rounds);
		x[i].cpu = malloc(sizeof(double) * (size_t)rounds);
		for (int k = 0; k < rounds; k++)
			x[i].v[k] = x[i].cpu[k] = NAN;
		x[i].stride = 1;
		if (i == R_POLL && rounds > slow_n)
			x[i].stride = rounds / slow_n;
	}
}

static void measure(const struct setup *s, struct cmd *r, struct series *x,
		    int rounds, int warmup)
{
	int order[R_N];

	for (int k = -warmup; k < rounds && !bench_stop; k++) {
		int m = 0;

		for (int i = 0; i < R_N; i++)
			if (!r[i].skip && (k < 0 ? x[i].stride == 1 :
					   k % x[i].stride == 0))
				order[m++] = i;
		shuffle(order, m);
		for (int j = 0; j < m; j++) {
			int64_t ns, cpu;
			int i = order[j];

			if (cmd_time(&r[i], s->devnull, &ns, &cpu) < 0) {
				x[i].fails += k >= 0;
				continue;
			}
			if (k >= 0) {
				x[i].v[k] = (double)ns / 1000.0;
				x[i].cpu[k] = (double)cpu / 1000.0;
			}
		}
	}
}

/* Median of the per-round differences row - bare (paired). */
static double paired_overhead(const struct series *row,
			      const struct series *bare, int rounds)
{
	double *d = malloc(sizeof(double) * (size_t)rounds);
	struct stats st;
	int n = 0;

	for (int k = 0; k < rounds; k++)
		if (!isnan(row->v[k]) && !isnan(bare->v[k]))
			d[n++] = row->v[k] - bare->v[k];
	stats_of(d, (size_t)n, &st);
	free(d);
	return st.med;
}

/* Statistics of the values of V that are not NaN. */
static void stats_present(const double *v, int rounds, struct stats *st)
{
	double *tmp = malloc(sizeof(double) * (size_t)rounds);
	int n = 0;

	for (int k = 0; k < rounds; k++)
		if (!isnan(v[k]))
			tmp[n++] = v[k];
	stats_of(tmp, (size_t)n, st);
	free(tmp);
}

static void summarize(struct series *x, int rounds)
{
	for (int i = 0; i < R_N; i++) {
		stats_present(x[i].v, rounds, &x[i].st);
		stats_present(x[i].cpu, rounds, &x[i].cst);
	}
	for (int i = 0; i < R_N; i++) {
		x[i].ovh = x[i].st.med - x[R_BARE].st.med;
		x[i].covh = x[i].cst.med - x[R_BARE].cst.med;
		x[i].paired = paired_overhead(&x[i], &x[R_BARE], rounds);
	}
}

static void argv_text(const struct cmd *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; c->argv[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? " " : "", c->argv[i]);
}

static void row_json(const struct cmd *c, const struct series *x,
		     const struct series *ref_t, const struct series *ref_s)
{
	char text[512];

	argv_text(c, text, sizeof text);
	json_obj(NULL);
	json_str("key", c->key);
	json_str("label", c->label);
	json_str("argv", text);
	json_str("env", c->env_note);
	if (c->skip) {
		json_bool("skipped", true);
		json_str("why", c->why);
		json_end();
		return;
	}
	json_int("n", (long long)x->st.n);
	json_int("failures", x->fails);
	json_num("median_us", x->st.med);
	json_num("p10_us", x->st.p10);
	json_num("p90_us", x->st.p90);
	json_num("overhead_us", x->ovh);
	json_num("overhead_paired_us", x->paired);
	json_num("ratio_to_timeout", x->ovh / ref_t->ovh);
	json_num("ratio_to_setpriv", x->ovh / ref_s->ovh);
	json_num("cpu_median_us", x->cst.med);
	json_num("cpu_overhead_us", x->covh);
	json_num("cpu_ratio_to_timeout", x->covh / ref_t->covh);
	json_num("cpu_ratio_to_setpriv", x->covh / ref_s->covh);
	json_end();
}

static void print_row(const struct cmd *c, const struct series *x,
		      const struct series *rt, const struct series *rs)
{
	if (c->skip) {
		printf("  %-44s skipped: %s\n", c->label, c->why);
		return;
	}
	printf("  %-44s %7.0f %7.0f %7.0f %+8.0f %6.2f %6.2f | %6.0f %+7.0f "
	       "%6.2f %6.2f %4d%s\n", c->label, x->st.med, x->st.p10,
	       x->st.p90, x->ovh, x->ovh / rt->ovh, x->ovh / rs->ovh,
	       x->cst.med, x->covh, x->covh / rt->covh, x->covh / rs->covh,
	       x->fails, x->stride > 1 ? " (sampled)" : "");
}

static bool s_variants;          /* any --variant given */

/* Under qemu-user: leash -t's overhead over the minimal supervisor's,
 * both emulated (each variant's too), wall and CPU. */
static void print_qemu(const struct cmd *r, const struct series *x)
{
	const struct series *f = &x[R_QEMU_FLOOR];

	if (r[R_QEMU_FLOOR].skip || r[R_QEMU_T].skip)
		return;
	fig.qemu_t_vs_floor = x[R_QEMU_T].ovh / f->ovh;
	fig.qemu_t_vs_floor_cpu = x[R_QEMU_T].covh / f->covh;
	printf("  qemu-user: leash -t / minimal supervisor overhead: %.2f "
	       "(cpu %.2f)\n", fig.qemu_t_vs_floor, fig.qemu_t_vs_floor_cpu);
	json_num("qemu_thread_vs_floor", fig.qemu_t_vs_floor);
	json_num("qemu_thread_vs_floor_cpu", fig.qemu_t_vs_floor_cpu);
	for (int i = R_VAR + 4; i < R_N; i += VAR_ROWS) {
		char key[40];

		if (r[i].skip || !r[i].argv[0])
			continue;
		printf("  %s / the emulated minimal supervisor's "
		       "overhead: %.2f (cpu %.2f)\n", r[i].label, x[i].ovh / f->ovh,
		       x[i].covh / f->covh);
		snprintf(key, sizeof key, "%s_vs_floor", r[i].key);
		json_num(key, x[i].ovh / f->ovh);
	}
}

static void print_table(const struct cmd *r, const struct series *x,
			int rounds)
{
	const struct series *rt = &x[R_GNU], *rs = &x[R_SETPRIV];

	printf("\nlaunch: us per launch, %d rounds interleaved; overhead = "
	       "median - bare median;\n/tmo, /spv = overhead as a ratio to GNU"
	       " timeout's, to the setpriv chain's;\ncpu = user + system time "
	       "of the whole chain (wait4)\n", rounds);
	printf("  %-44s %7s %7s %7s %8s %6s %6s | %6s %7s %6s %6s %4s\n",
	       "command", "median", "p10", "p90", "overhead", "/tmo", "/spv",
	       "cpu", "cpu ovh", "/tmo", "/spv", "fail");
	json_obj("launch");
	json_int("rounds", rounds);
	json_arr("rows");
	for (int i = 0; i < R_N; i++) {
		if (i >= R_VAR && !s_variants)
			break;
		if (i >= R_VAR && !r[i].argv[0])
			continue;
		row_json(&r[i], &x[i], rt, rs);
		print_row(&r[i], &x[i], rt, rs);
	}
	json_end();
	fig.t_ratio = x[R_THREAD].ovh / rt->ovh;
	fig.u_ratio = x[R_U_CG].ovh / rs->ovh;
	fig.t_vs_floor = x[R_THREAD].ovh / x[R_FLOOR].ovh;
	fig.u_off_ratio = x[R_U_OFF].ovh / rs->ovh;
	printf("  leash -t (thread) / minimal supervisor overhead: %.2f\n",
	       fig.t_vs_floor);
	json_num("thread_vs_floor", fig.t_vs_floor);
	print_qemu(r, x);
	fig.thread_vs_pidfd = x[R_THREAD].ovh / x[R_PIDFD].ovh;
	fig.t_ratio_cpu = x[R_THREAD].covh / rt->covh;
	fig.u_ratio_cpu = x[R_U_CG].covh / rs->covh;
	fig.thread_vs_pidfd_cpu = x[R_THREAD].covh / x[R_PIDFD].covh;
	printf("  thread / pidfd overhead: %.2f (paired %.2f, cpu %.2f)\n",
	       fig.thread_vs_pidfd, x[R_THREAD].paired / x[R_PIDFD].paired,
	       fig.thread_vs_pidfd_cpu);
	json_num("thread_vs_pidfd", fig.thread_vs_pidfd);
	json_num("thread_vs_pidfd_paired",
		 x[R_THREAD].paired / x[R_PIDFD].paired);
	json_num("thread_vs_pidfd_cpu", fig.thread_vs_pidfd_cpu);
	json_end();
}

/* Median over the rounds of A - B, wall (CPU when CPU). */
static double step_of(const struct series *a, const struct series *b,
		      int rounds, bool cpu)
{
	double *d = malloc(sizeof(double) * (size_t)rounds);
	struct stats st;
	int n = 0;

	for (int k = 0; k < rounds; k++) {
		double va = cpu ? a->cpu[k] : a->v[k];
		double vb = cpu ? b->cpu[k] : b->v[k];

		if (!isnan(va) && !isnan(vb))
			d[n++] = va - vb;
	}
	stats_of(d, (size_t)n, &st);
	free(d);
	return n ? st.med : NAN;
}

/* leash's cgroup step (-u nobody with the group minus --cgroup=off)
 * against the floor's (mincg minus minsup), paired round by round. */
static void print_cg_step(const struct series *x, int rounds)
{
	double l = step_of(&x[R_U_CG], &x[R_U_OFF], rounds, false);
	double f = step_of(&x[R_FLOOR_CG], &x[R_FLOOR], rounds, false);
	double lc = step_of(&x[R_U_CG], &x[R_U_OFF], rounds, true);
	double fc = step_of(&x[R_FLOOR_CG], &x[R_FLOOR], rounds, true);

	fig.cg_vs_floor = l / f;
	fig.cg_vs_floor_cpu = lc / fc;
	printf("  cgroup step, paired medians: leash %+.0f us, floor %+.0f us:"
	       " %.2f (cpu %+.0f / %+.0f us: %.2f)\n", l, f, fig.cg_vs_floor,
	       lc, fc, fig.cg_vs_floor_cpu);
	json_obj("cgroup_step");
	json_num("leash_us", l);
	json_num("floor_us", f);
	json_num("leash_vs_floor", fig.cg_vs_floor);
	json_num("leash_cpu_us", lc);
	json_num("floor_cpu_us", fc);
	json_num("leash_vs_floor_cpu", fig.cg_vs_floor_cpu);
	json_end();
}

/* leash's report file (--report=FILE minus --report-fd=1, which formats
 * the same report) against the floor's (minrep minus minsup), on the
 * bench's filesystem and on tmpfs, paired round by round; and what the
 * file adds to -t's overhead, leash's and the floor's alone. */
static void print_report_step(const struct series *x, int rounds)
{
	static const int row[2][2] = {
		{ R_REPORT, R_FLOOR_REP }, { R_REPORT_TMPFS, R_FLOOR_REP_TMPFS }
	};
	static const char *const where[2] = { "here", "tmpfs" };
	const double t = x[R_THREAD].ovh;

	json_obj("report_file_step");
	for (int i = 0; i < 2; i++) {
		char key[32];
		double l = step_of(&x[row[i][0]], &x[R_REPORT_FD], rounds, false);
		double f = step_of(&x[row[i][1]], &x[R_FLOOR], rounds, false);

		if (isnan(l) || isnan(f))
			continue;
		printf("  report file step (%s), paired medians: leash %+.0f us,"
		       " floor %+.0f us: %.2f; --report=FILE adds %.0f%% to -t's"
		       " overhead, the floor's file alone %.0f%%\n", where[i], l,
		       f, l / f, 100 * (x[row[i][0]].ovh - t) / t, 100 * f / t);
		snprintf(key, sizeof key, "%s_leash_us", where[i]);
		json_num(key, l);
		snprintf(key, sizeof key, "%s_floor_us", where[i]);
		json_num(key, f);
	}
	json_end();
}

/* --warn, --idle, --stall beside plain -t (thread), none firing: the
 * paired median of each one's step over -t, and what it adds to -t's
 * overhead (issue 33's target: under 5%). */
static void print_progress_step(const struct cmd *r, const struct series *x,
				int rounds)
{
	static const int row[] = { R_WARN, R_IDLE, R_STALL };
	static const char *const opt[] = { "--warn", "--idle", "--stall" };
	const double t = x[R_THREAD].ovh;

	json_obj("progress_step");
	for (int i = 0; i < 3; i++) {
		char key[32];
		double l = step_of(&x[row[i]], &x[R_THREAD], rounds, false);

		if (r[row[i]].skip || isnan(l))
			continue;
		printf("  %s step, paired median: %+.0f us; adds %.1f%% to -t's "
		       "overhead (%.3f of it)\n", opt[i], l, 100 * l / t,
		       x[row[i]].ovh / t);
		snprintf(key, sizeof key, "%s_us", opt[i] + 2);
		json_num(key, l);
		snprintf(key, sizeof key, "%s_vs_t", opt[i] + 2);
		json_num(key, x[row[i]].ovh / t);
	}
	json_end();
}

void sec_launch(const struct setup *s)
{
	struct cmd r[R_N];
	struct series x[R_N] = { 0 };
	int rounds = s->quick ? 80 : 400, warmup = s->quick ? 3 : 10;

	peer_rows(s, r);
	leash_rows(s, r);
	floor_row(s, r);
	floor_report_rows(s, r);
	qemu_rows(s, r);
	variant_rows(s, r);
	s_variants = s->variant[0] != NULL;
	prepare(s, r, x, rounds);
	measure(s, r, x, rounds, warmup);
	summarize(x, rounds);
	for (int i = 0; i < R_N; i++)
		if (r[i].skip)
			x[i].ovh = x[i].covh = NAN;
	print_table(r, x, rounds);
	print_cg_step(x, rounds);
	print_report_step(x, rounds);
	print_progress_step(r, x, rounds);
	floor_cleanup();
	for (int i = 0; i < R_N; i++) {
		free(x[i].v);
		free(x[i].cpu);
	}
}
