/* SPDX-License-Identifier: ISC */
/* memory: what each supervisor holds while it waits (Rss and Pss from
 * /proc/PID/smaps_rollup, summed over every process of the chain but
 * the command), and leash's stripped size.  The harness is a child
 * subreaper here, so a watcher that a peer leaves behind as an orphan
 * (busybox timeout execs the command and forks the watcher) stays in
 * the tree and is counted. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

enum {
	M_THREAD, M_PIDFD, M_POLL, M_U_CG, M_LTIMEOUT, M_GNU, M_BUSYBOX,
	M_TOYBOX, M_SETPRIV, M_RUNUSER, M_SU, M_N
};

#define MAXP 16

struct sample {
	double rss, pss, anon;      /* KiB, the chain without the command */
	char chain[96];             /* comm names, parent first */
	int threads;                /* of the first process */
};

static void rows(const struct setup *s, struct cmd *r)
{
	const char *L = s->leash, *H = s->t_holder, *G = s->gnu_timeout;
	static const char *const waits[] = { "thread", "pidfd", "poll" };
	static const char *const keys[] = {
		"leash_thread", "leash_pidfd", "leash_poll"
	};
	static char sucmd[200];

	for (int i = 0; i < 3; i++) {
		cmd_set(&r[M_THREAD + i], keys[i], keys[i], L, "-t", "10", H,
			NULL);
		cmd_wait_env(&r[M_THREAD + i], waits[i]);
	}
	cmd_set(&r[M_U_CG], "leash_u_cgroup", "leash_u_cgroup", L, "-u",
		"nobody", "--cgroup=require", "-t", "10", H, NULL);
	for (int i = M_THREAD; !L && i <= M_LTIMEOUT; i++)
		strcpy(r[i].why, "no leash binary yet");
	cmd_set(&r[M_LTIMEOUT], "leash_as_timeout", "leash_as_timeout",
		s->leash_timeout, "10", H, NULL);
	cmd_set(&r[M_GNU], "gnu_timeout", "gnu_timeout", G, "10", H, NULL);
	cmd_set(&r[M_BUSYBOX], "busybox_timeout", "busybox_timeout",
		s->busybox, "timeout", "10", H, NULL);
	cmd_set(&r[M_TOYBOX], "toybox_timeout", "toybox_timeout", s->toybox,
		"timeout", "10", H, NULL);
	cmd_set(&r[M_SETPRIV], "setpriv_timeout", "setpriv_timeout",
		s->setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		G, "10", H, NULL);
	cmd_set(&r[M_RUNUSER], "runuser_timeout", "runuser_timeout",
		s->runuser, "-u", "nobody", "--", G, "10", H, NULL);
	snprintf(sucmd, sizeof sucmd, "%s 10 %s", G, H);
	cmd_set(&r[M_SU], "su_timeout", "su_timeout", s->su, "nobody", "-s",
		"/bin/sh", "-c", sucmd, NULL);
}

/* "Key:   N kB" from a /proc file, or -1. */
static long proc_value(pid_t pid, const char *file, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = atol(line + klen + 1);
			break;
		}
	fclose(f);
	return v;
}

static void proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
	buf[0] = '\0';
	if ((f = fopen(path, "re"))) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* Append the children of every thread of PID to LIST. */
static int add_children(pid_t pid, pid_t *list, int n)
{
	char path[64];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return n;
	while ((e = readdir(d)) && n < MAXP) {
		char cpath[400];
		FILE *f;
		int c;

		if (e->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof cpath, "%s/%s/children", path,
			 e->d_name);
		if (!(f = fopen(cpath, "re")))
			continue;
		while (n < MAXP && fscanf(f, "%d", &c) == 1)
			list[n++] = c;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Everything below the harness, breadth first, but the holder. */
static void sample_tree(struct sample *sm)
{
	pid_t list[MAXP];
	int n = add_children(getpid(), list, 0);

	memset(sm, 0, sizeof *sm);
	for (int i = 0; i < n; i++) {
		char comm[32];

		n = add_children(list[i], list, n);
		proc_comm(list[i], comm, sizeof comm);
		if (!strcmp(comm, "holder"))
			continue;
		if (!sm->chain[0])
			sm->threads = (int)proc_value(list[i], "status",
						      "Threads");
		sm->rss += (double)proc_value(list[i], "smaps_rollup", "Rss");
		sm->pss += (double)proc_value(list[i], "smaps_rollup", "Pss");
		sm->anon += (double)proc_value(list[i], "smaps_rollup",
					       "Anonymous");
		snprintf(sm->chain + strlen(sm->chain),
			 sizeof sm->chain - strlen(sm->chain), "%s%s",
			 sm->chain[0] ? ">" : "", comm);
	}
}

/* Reap the row and whatever orphans it left (bounded: 3 s). */
static void reap_all(pid_t pid)
{
	int status;

	cmd_wait(pid, &status);
	for (int i = 0; i < 300; i++) {
		struct timespec ts = { 0, 10000000 };

		if (waitpid(-1, &status, WNOHANG) < 0)
			return;
		nanosleep(&ts, NULL);
	}
}

static int one(const struct setup *s, const struct cmd *c, struct sample *sm)
{
	struct timespec settle = { 0, 50000000 };
	struct pollfd pfd;
	int p[2];
	pid_t pid;

	if (pipe_high(p) < 0)
		return -1;
	pid = cmd_spawn(c, s->devnull, -1, p[1]);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	poll(&pfd, 1, 1000);
	close(p[0]);
	nanosleep(&settle, NULL);       /* the supervisor is in its wait */
	sample_tree(sm);
	reap_all(pid);
	return sm->chain[0] ? 0 : -1;
}

int memory_sample(const struct setup *s, const struct cmd *c, double *rss,
		  char *chain, size_t len)
{
	struct sample sm;
	int rc;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rc = one(s, c, &sm);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	*rss = sm.rss;
	snprintf(chain, len, "%s", sm.chain);
	return rc;
}

static int cmp_rss(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return (x->rss > y->rss) - (x->rss < y->rss);
}

static void print_row(const struct cmd *c, struct sample *v, int n)
{
	json_obj(NULL);
	json_str("key", c->key);
	json_str("env", c->env_note);
	if (c->skip || n == 0) {
		printf("  %-18s skipped: %s\n", c->key,
		       c->skip ? c->why : "no sample");
		json_bool("skipped", true);
		json_str("why", c->skip ? c->why : "no sample");
		json_end();
		return;
	}
	qsort(v, (size_t)n, sizeof *v, cmp_rss);
	printf("  %-18s %8.0f %8.0f %8.0f %8d  %s\n", c->key, v[n / 2].rss,
	       v[n / 2].pss, v[n / 2].anon, v[n / 2].threads, v[n / 2].chain);
	json_num("rss_kib", v[n / 2].rss);
	json_num("pss_kib", v[n / 2].pss);
	json_num("anonymous_kib", v[n / 2].anon);
	json_int("threads", v[n / 2].threads);
	json_str("chain", v[n / 2].chain);
	json_int("samples", n);
	json_end();
}

void sec_memory(const struct setup *s)
{
	struct cmd r[M_N];
	struct sample v[M_N][5];
	int n[M_N] = { 0 }, rounds = s->quick ? 1 : 3;

	rows(s, r);
	for (int i = 0; i < M_N; i++)
		cmd_preflight(&r[i], s->devnull, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (int k = 0; k < rounds && !bench_stop; k++)
		for (int i = 0; i < M_N && !bench_stop; i++)
			if (!r[i].skip && one(s, &r[i], &v[i][n[i]]) == 0)
				n[i]++;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	printf("\nsupervisor memory while it waits (KiB, smaps_rollup, "
	       "every process of the chain but the command;\nthreads of the "
	       "first process)\n");
	printf("  %-18s %8s %8s %8s %8s  %s\n", "supervisor", "Rss", "Pss",
	       "Anon", "threads", "chain");
	json_obj("memory");
	json_arr("rows");
	for (int i = 0; i < M_N; i++) {
		print_row(&r[i], v[i], n[i]);
		if (i <= M_POLL && n[i] && (isnan(fig.rss_kib) ||
					    v[i][n[i] / 2].rss > fig.rss_kib))
			fig.rss_kib = v[i][n[i] / 2].rss;
	}
	json_end();
	json_end();
}

void sec_size(const struct setup *s)
{
	char copy[128];
	struct stat st, st2;
	struct cmd strip;
	int status = -1;
	pid_t pid;

	printf("\nbinary size\n");
	json_obj("size");
	if (!s->leash || stat(s->leash, &st) < 0) {
		printf("  skipped: no leash binary yet\n");
		json_bool("skipped", true);
		json_end();
		return;
	}
	snprintf(copy, sizeof copy, "%s/leash.stripped", s->dir);
	cmd_set(&strip, "strip", "strip", "/bin/cp", s->leash, copy, NULL);
	if ((pid = cmd_spawn(&strip, s->devnull, -1, -1)) > 0)
		cmd_wait(pid, &status);
	cmd_set(&strip, "strip", "strip", "/usr/bin/strip", copy, NULL);
	if (status == 0 && (pid = cmd_spawn(&strip, s->devnull, -1, -1)) > 0)
		cmd_wait(pid, &status);
	if (status != 0 || stat(copy, &st2) < 0)
		st2.st_size = -1;
	fig.size_kib = st2.st_size < 0 ? NAN : (double)st2.st_size / 1024.0;
	printf("  leash %.1f KiB as built, %.1f KiB stripped\n",
	       (double)st.st_size / 1024.0, fig.size_kib);
	json_num("built_kib", (double)st.st_size / 1024.0);
	json_num("stripped_kib", fig.size_kib);
	json_int("stripped_bytes", (long long)st2.st_size);
	json_end();
}
