/* SPDX-License-Identifier: ISC */
/* machine: what the figures were measured on, and the targets summary. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* First "KEY: value" line of FILE with that key, value in BUF. */
static void read_field(const char *file, const char *key, char *buf,
		       size_t len)
{
	FILE *f = fopen(file, "re");
	char line[512];
	size_t klen = strlen(key);

	buf[0] = '\0';
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen) && strchr(line, ':')) {
			char *v = strchr(line, ':') + 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(buf, len, "%s", v);
			break;
		}
	if (f)
		fclose(f);
}

static void read_loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "re");

	if (!f || !fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static void version_of(const char *key, const char *path, const char *arg)
{
	const char *argv[4] = { path, arg, NULL, NULL };
	char buf[160];

	if (!path)
		return;
	run_capture(argv, buf, sizeof buf);
	json_str(key, buf);
	printf("  %-9s %s\n", key, buf);
}

void sec_machine(const struct setup *s, const char *commit)
{
	struct utsname u;
	char model[160], load[64];
	time_t t = time(NULL);
	char date[40];

	uname(&u);
	read_field("/proc/cpuinfo", "model name", model, sizeof model);
	read_loadavg(load, sizeof load);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	printf("leash bench%s  commit %s  %s\n", s->quick ? " (quick)" : "",
	       commit, date);
	printf("machine: %ld cpus, %s, Linux %s, load %s\n",
	       sysconf(_SC_NPROCESSORS_ONLN), model, u.release, load);
	json_str("commit", commit);
	json_str("date", date);
	json_bool("quick", s->quick);
	json_obj("machine");
	json_int("nproc", sysconf(_SC_NPROCESSORS_ONLN));
	json_str("model", model);
	json_str("kernel", u.release);
	json_str("arch", u.machine);
	json_str("loadavg_at_start", load);
	json_end();
	json_obj("versions");
	version_of("leash", s->leash, "--version");
	version_of("timeout", s->gnu_timeout, "--version");
	version_of("toybox", s->toybox, "--version");
	version_of("busybox", s->busybox, "--help");
	version_of("qemu", s->qemu, "--version");
	json_end();
}

/* One target line: name, limit, measured, verdict. */
static void target(const char *key, const char *what, double limit,
		   double got, const char *unit)
{
	const char *verdict = isnan(got) ? "n/a" : got <= limit ? "met" :
			      "MISSED";

	if (!strcmp(verdict, "MISSED") && !strcmp(unit, "KiB"))
		/* A budget (memory, size): said where a run's end is read. */
		fprintf(stderr, "bench: warning: %s is %.0f KiB, over its "
			"budget of %g KiB\n", what, got, limit);

	printf("  %-44s <= %-8g %10.*f %-4s %s\n", what, limit,
	       strcmp(unit, "x") ? 0 : 3, got, unit, verdict);
	json_obj(NULL);
	json_str("key", key);
	json_str("what", what);
	json_num("limit", limit);
	json_num("measured", got);
	json_str("unit", unit);
	json_str("verdict", verdict);
	json_end();
}

void sec_targets(void)
{
	double worst_cg = NAN;

	for (int i = 0; i < 3; i++)
		worst_cg = worst_of(worst_cg, fig.cg_step_us[i]);
	printf("\ntargets\n");
	json_arr("targets");
	target("t_ratio", "leash -t overhead / GNU timeout's", 0.25,
	       fig.t_ratio, "x");
	target("t_vs_floor", "leash -t overhead / minimal supervisor's", 1.15,
	       fig.t_vs_floor, "x");
	target("qemu_t_vs_floor", "the same, both under qemu-user", 1.5,
	       fig.qemu_t_vs_floor, "x");
	target("library_to_timeout", "libleash overhead / exec'ing timeout's",
	       0.05, fig.lib_to_timeout, "x");
	target("glibc_library_to_timeout", "the same, in a glibc host",
	       0.05, fig.glibc_lib_to_timeout, "x");
	target("qemu_library_to_timeout", "the same, in a qemu-user process",
	       0.05, fig.qemu_lib_to_timeout, "x");
	target("u_off_ratio", "leash -u nobody --cgroup=off / setpriv chain's",
	       0.18, fig.u_off_ratio, "x");
	target("u_ratio", "leash -u nobody (cgroup) / setpriv chain's", 0.15,
	       fig.u_ratio, "x");
	target("exit_detection", "exit detection, net median (thread, pidfd)",
	       100, fig.exit_med_us, "us");
	target("overshoot", "overshoot median at exit (thread, pidfd)",
	       1000, fig.overshoot_med_us, "us");
	/* Three 64 KiB fault-around windows of code and read-only data,
	 * then leash's data, heap and stack pages. */
	target("rss", "waiting leash -t Rss (worst strategy)", 192,
	       fig.rss_kib, "KiB");
	target("size", "stripped binary", 156, fig.size_kib, "KiB");
	target("relay_vs_su", "pty relay time / su --pty's", 1.0,
	       fig.relay_vs_su, "x");
	/* The same windows, the relay's buffers and the monitor's pages. */
	target("relay_rss", "leash Rss while relaying a pty", 224,
	       fig.relay_rss_kib, "KiB");
	target("thread_vs_pidfd", "thread overhead / pidfd overhead", 1.10,
	       fig.thread_vs_pidfd, "x");
	target("t_ratio_cpu", "(cpu time) leash -t / GNU timeout", 0.25,
	       fig.t_ratio_cpu, "x");
	target("u_ratio_cpu", "(cpu time) leash -u cgroup / setpriv chain",
	       0.15, fig.u_ratio_cpu, "x");
	target("thread_vs_pidfd_cpu", "(cpu time) thread / pidfd", 1.10,
	       fig.thread_vs_pidfd_cpu, "x");
	target("cgroup_step", "cgroup step, paired median (worst of 3)",
	       50, worst_cg, "us");
	target("cgroup_vs_floor", "cgroup step / the floor's (launch)", 1.25,
	       fig.cg_vs_floor, "x");
	target("cgroup_vs_floor_cpu", "(cpu time) cgroup step / the floor's",
	       1.25, fig.cg_vs_floor_cpu, "x");
	target("stress_failures", "stress failures", 0,
	       fig.stress_fail < 0 ? NAN : (double)fig.stress_fail, "");
	target("stress_leftovers", "stress leaves left behind", 0,
	       fig.stress_left < 0 ? NAN : (double)fig.stress_left, "");
	json_end();
}
