/* SPDX-License-Identifier: ISC */
/* bench: `make bench`.  Launches leash and the tools it replaces many
 * times, interleaved round by round, and prints one table per section
 * (launch cost, exit detection, deadline overshoot, memory, size,
 * cgroup scale, stress, fair share) plus a JSON file with the same
 * figures.  See tests/bench/README. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

volatile int bench_stop;
struct figures fig;

static const char *const target_names[] = {
	"true", "stamp", "sleeper", "holder", "slowsup", "minsup", "mincg",
	"minrep", "libemu",
	NULL
};

static void on_stop(int sig)
{
	(void)sig;
	bench_stop = 1;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Copy our own executable into DIR and link it under each target name,
 * readable and executable by the unprivileged users of the rows. */
static int setup_targets(struct setup *s)
{
	char buf[65536], path[96];
	ssize_t n;
	int in, out;

	strcpy(s->dir, "/tmp/leash-bench.XXXXXX");
	if (!mkdtemp(s->dir) || chmod(s->dir, 0755) < 0)
		return -1;
	snprintf(s->t_true, sizeof s->t_true, "%s/true", s->dir);
	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	out = open(s->t_true, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	if (close(out) < 0 || n < 0)
		return -1;
	snprintf(s->t_stamp, sizeof s->t_stamp, "%s/stamp", s->dir);
	snprintf(s->t_sleeper, sizeof s->t_sleeper, "%s/sleeper", s->dir);
	snprintf(s->t_holder, sizeof s->t_holder, "%s/holder", s->dir);
	snprintf(s->t_slowsup, sizeof s->t_slowsup, "%s/slowsup", s->dir);
	snprintf(s->t_minsup, sizeof s->t_minsup, "%s/minsup", s->dir);
	snprintf(s->t_mincg, sizeof s->t_mincg, "%s/mincg", s->dir);
	snprintf(s->t_minrep, sizeof s->t_minrep, "%s/minrep", s->dir);
	for (int i = 1; target_names[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", s->dir, target_names[i]);
		if (link(s->t_true, path) < 0)
			return -1;
	}
	return 0;
}

static void cleanup_targets(const struct setup *s)
{
	char path[96];

	for (int i = 0; target_names[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", s->dir, target_names[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/leash.stripped", s->dir);
	unlink(path);
	/* the launch section's --report files */
	snprintf(path, sizeof path, "%s/report.json", s->dir);
	unlink(path);
	launch_tmpfs_cleanup();
	snprintf(path, sizeof path, "%s/floor.json", s->dir);
	unlink(path);
	for (int v = 1; v <= MAX_VARIANTS; v++) {
		snprintf(path, sizeof path, "%s/report%d.json", s->dir, v);
		unlink(path);
	}
	rmdir(s->dir);
}

static const char *installed(const char *path)
{
	return access(path, X_OK) == 0 ? path : NULL;
}

/* The leash binary under the name timeout: build/timeout beside it. */
static const char *sibling_timeout(const char *leash)
{
	static char path[4096];
	const char *slash = strrchr(leash, '/');
	int dirlen = slash ? (int)(slash - leash + 1) : 0;

	snprintf(path, sizeof path, "%.*stimeout", dirlen, leash);
	return access(path, X_OK) == 0 ? path : NULL;
}

static void add_variant(struct setup *s, const char *path)
{
	for (int i = 0; i < MAX_VARIANTS; i++)
		if (!s->variant[i]) {
			s->variant[i] = path;
			return;
		}
	fprintf(stderr, "bench: at most %d --variant\n", MAX_VARIANTS);
	exit(2);
}

static void usage(void)
{
	fputs("usage: bench [--quick] [--leash PATH] [--json FILE]"
	      " [--commit ID] [--fair SCRIPT] [--only SECTIONS]\n"
	      "             [--qemu QEMU] [--glibc BENCH | --glibc-skip WHY]"
	      " [--variant LEASH]...\n"
	      "       bench --selftest\n"
	      "sections: launch,latency,overshoot,memory,size,scale,stress,"
	      "fair,relay,watch,library\n", stderr);
	exit(2);
}

struct opts {
	const char *json, *commit, *only;
	bool selftest;
};

static void parse_opts(int argc, char **argv, struct setup *s,
		       struct opts *o)
{
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "leash", required_argument, NULL, 'l' },
		{ "json", required_argument, NULL, 'j' },
		{ "commit", required_argument, NULL, 'c' },
		{ "fair", required_argument, NULL, 'f' },
		{ "only", required_argument, NULL, 'o' },
		{ "selftest", no_argument, NULL, 's' },
		{ "variant", required_argument, NULL, 'v' },
		{ "qemu", required_argument, NULL, 'Q' },
		{ "glibc", required_argument, NULL, 'g' },
		{ "glibc-skip", required_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	const char *q = getenv("BENCH_QUICK");
	int ch;

	s->quick = q && *q && strcmp(q, "0");
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'q': s->quick = true; break;
		case 'l': s->leash = optarg; break;
		case 'j': o->json = optarg; break;
		case 'c': o->commit = optarg; break;
		case 'f': s->fair = optarg; break;
		case 'o': o->only = optarg; break;
		case 's': o->selftest = true; break;
		case 'v': add_variant(s, optarg); break;
		case 'Q': s->qemu = *optarg ? optarg : NULL; break;
		case 'g': s->glibc = optarg; break;
		case 'G': s->glibc = NULL; s->glibc_why = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (s->glibc && access(s->glibc, X_OK) < 0) {
		s->glibc_why = "--glibc: not an executable";
		s->glibc = NULL;
	} else if (!s->glibc && !s->glibc_why) {
		s->glibc_why = "no glibc build (--glibc)";
	}
	if (s->leash && access(s->leash, X_OK) < 0) {
		printf("note: %s: not built yet; leash rows are skipped\n",
		       s->leash);
		s->leash = NULL;
	}
}

static bool wanted(const char *only, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = only; p && *p; p += strcspn(p, ",") ,
	     p += *p == ',')
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
	return !only;
}

static void fill_peers(struct setup *s)
{
	s->leash_timeout = s->leash ? sibling_timeout(s->leash) : NULL;
	s->gnu_timeout = installed("/usr/bin/timeout");
	s->busybox = installed("/usr/bin/busybox") ?
		     installed("/usr/bin/busybox") : installed("/bin/busybox");
	s->toybox = installed("/usr/bin/toybox") ?
		    installed("/usr/bin/toybox") : installed("/bin/toybox");
	s->setpriv = installed("/usr/bin/setpriv");
	s->runuser = installed("/usr/sbin/runuser") ?
		     installed("/usr/sbin/runuser") : installed("/sbin/runuser");
	s->su = installed("/usr/bin/su") ? installed("/usr/bin/su") :
		installed("/bin/su");
	s->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
}

static void run_sections(const struct setup *s, const char *only)
{
	static const struct {
		const char *name;
		void (*fn)(const struct setup *);
	} secs[] = {
		{ "launch", sec_launch }, { "latency", sec_latency },
		{ "overshoot", sec_overshoot }, { "memory", sec_memory },
		{ "size", sec_size }, { "scale", sec_scale },
		{ "stress", sec_stress }, { "fair", sec_fair },
		{ "relay", sec_relay }, { "watch", sec_watch },
		{ "library", sec_library },
	};

	for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
		if (bench_stop)
			break;
		if (wanted(only, secs[i].name)) {
			int64_t t0 = now_ns();

			secs[i].fn(s);
			printf("  (%s: %.1f s)\n", secs[i].name,
			       (double)(now_ns() - t0) / 1e9);
			fflush(stdout);
		}
	}
}

/* Unknown until a section measures it. */
static void figures_init(void)
{
	for (int i = 0; i < 3; i++)
		fig.cg_step_us[i] = NAN;
	fig.t_ratio = fig.u_ratio = fig.thread_vs_pidfd = NAN;
	fig.t_vs_floor = fig.u_off_ratio = NAN;
	fig.qemu_t_vs_floor = fig.qemu_t_vs_floor_cpu = NAN;
	fig.lib_to_timeout = fig.qemu_lib_to_timeout = NAN;
	fig.glibc_lib_to_timeout = NAN;
	fig.relay_vs_su = fig.relay_rss_kib = NAN;
	fig.cg_vs_floor = fig.cg_vs_floor_cpu = NAN;
	fig.t_ratio_cpu = fig.u_ratio_cpu = fig.thread_vs_pidfd_cpu = NAN;
	fig.exit_med_us = fig.overshoot_med_us = NAN;
	fig.rss_kib = fig.size_kib = NAN;
	fig.stress_fail = fig.stress_left = -1;
}

int main(int argc, char **argv)
{
	struct setup s = { 0 };
	struct opts o = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	FILE *jf = NULL;
	const char *me = base_name(argv[0]);
	int64_t t0;

	if (!strcmp(me, "libemu") || !strcmp(me, "libhost"))
		return library_host(argc, argv);
	for (int i = 0; target_names[i]; i++)
		if (!strcmp(me, target_names[i]))
			return target_main(me, argc, argv);
	parse_opts(argc, argv, &s, &o);
	fill_peers(&s);
	if (setup_targets(&s) < 0) {
		fprintf(stderr, "bench: cannot set up %s: %s\n", s.dir,
			strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	watchdog_init();
	if (o.selftest) {
		int rc = selftest(&s);

		cleanup_targets(&s);
		env_free_all();
		return rc;
	}
	figures_init();
	if (o.json && !(jf = fopen(o.json, "we")))
		fprintf(stderr, "bench: %s: %s\n", o.json, strerror(errno));
	json_open(jf);
	json_obj(NULL);
	sec_machine(&s, o.commit ? o.commit : "unknown");
	t0 = now_ns();
	run_sections(&s, o.only);
	json_num("elapsed_s", (double)(now_ns() - t0) / 1e9);
	if (!bench_stop)
		sec_targets();
	json_bool("interrupted", bench_stop);
	json_end();
	json_close();
	printf("\nbench took %.0f s\n", (double)(now_ns() - t0) / 1e9);
	if (jf && fclose(jf) == 0)
		printf("JSON: %s\n", o.json);
	cleanup_targets(&s);
	env_free_all();
	return bench_stop ? 130 : 0;
}
