/* SPDX-License-Identifier: ISC */
/* bench: the harness behind `make bench`.  Shared declarations. */
#ifndef LEASH_BENCH_H
#define LEASH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define CMD_ARGS 16
#define MAX_VARIANTS 3

/* One command line to launch, with what it needs. */
struct cmd {
	const char *key;            /* JSON id, [a-z0-9_] */
	const char *label;          /* table label */
	const char *argv[CMD_ARGS]; /* NULL-terminated */
	char **envp;                /* NULL: the harness's own environment */
	const char *env_note;       /* what envp adds, for the JSON */
	bool skip;
	char why[160];              /* why it is skipped */
};

/* Paths and settings every section reads. */
struct setup {
	bool quick;
	const char *leash;          /* NULL when there is none yet */
	const char *leash_timeout;  /* the leash binary under the name timeout */
	const char *gnu_timeout;
	const char *busybox;        /* NULL when not installed */
	const char *toybox;
	const char *setpriv;
	const char *runuser;
	const char *su;
	const char *fair;           /* the fair-share demo script, or NULL */
	const char *qemu;           /* qemu-user for this machine, or NULL */
	const char *glibc;          /* this bench built against glibc, or NULL */
	const char *glibc_why;      /* why there is none */
	const char *variant[MAX_VARIANTS];  /* more leash binaries to compare */
	char dir[64];               /* private temp dir holding the targets */
	char t_true[96], t_stamp[96], t_sleeper[96], t_holder[96], t_minsup[96];
	char t_mincg[96], t_minrep[96];
	char t_slowsup[96];
	int devnull;
};

extern volatile int bench_stop;     /* set by SIGINT/SIGTERM */

/* run.c: launching. */
int64_t now_ns(void);
/* A copy of the environment (of BASE) with NAME=VALUE set. */
char **env_with(const char *name, const char *value);
char **env_with_in(char **base, const char *name, const char *value);
void env_free_all(void);
void cmd_set(struct cmd *c, const char *key, const char *label, ...);
/* C with LEASH_WAIT=WAIT in its environment. */
void cmd_wait_env(struct cmd *c, const char *wait);
/* Start C with stdin/stdout/stderr on DEVNULL (stderr on ERRFD when
 * >= 0) and PIPEFD (when >= 0) as descriptor 3.  -1 with errno. */
pid_t cmd_spawn(const struct cmd *c, int devnull, int errfd, int pipefd);
/* Start C with its stdout on OUTFD and the harness's stderr. */
pid_t cmd_spawn_out(const struct cmd *c, int devnull, int outfd);
/* Wait for PID; the raw wait status in *STATUS; -1 with errno.  A
 * command still running after WATCHDOG_S seconds is killed (a hung
 * supervisor must not hang the bench). */
#ifndef WATCHDOG_S
#define WATCHDOG_S 60
#endif
int cmd_wait(pid_t pid, int *status);
struct rusage;
int wait_bounded(pid_t pid, int *status, struct rusage *ru, unsigned secs);
void watchdog_init(void);
/* Launch C once and wait; elapsed ns in *NS, the CPU time of the
 * command and of what it reaped in *CPU (if not NULL); 0 when it
 * exited 0. */
int cmd_time(const struct cmd *c, int devnull, int64_t *ns, int64_t *cpu);
/* Try C up to three times (WANT_STATUS < 0: any end will do); on
 * failure fill c->why and set c->skip. */
void cmd_preflight(struct cmd *c, int devnull, int want_status);
/* First line of ARGV's stdout, or "" (for version strings). */
void run_capture(const char *const *argv, char *buf, size_t len);
/* A close-on-exec pipe, both ends >= 10. */
int pipe_high(int p[2]);

/* stats.c */
struct stats {
	size_t n;
	double med, p10, p90, min, max;
};
void stats_of(double *v, size_t n, struct stats *s);
double worst_of(double worst, double v);
uint32_t rand_next(void);
void shuffle(int *order, int n);

/* json.c: a streaming writer with automatic commas. */
void json_open(FILE *f);
void json_obj(const char *key);     /* key NULL inside arrays */
void json_arr(const char *key);
void json_end(void);                /* closes the innermost obj/arr */
void json_num(const char *key, double v);
void json_int(const char *key, long long v);
void json_str(const char *key, const char *v);
void json_bool(const char *key, bool v);
void json_null(const char *key);
/* TOK is "key=value": a number when all of value is one, else a string
 * (the form the shell parts of the bench print; TOK is cut at the =). */
void json_pair(char *tok);
void json_close(void);

/* The sections; each prints its table and writes its JSON member. */
void sec_machine(const struct setup *s, const char *commit);
void sec_launch(const struct setup *s);
/* The launch section's --report file on tmpfs, in a directory of the
 * bench's own; launch_tmpfs_cleanup (from bench.c) removes them both. */
const char *launch_tmpfs_report(bool floor);
void launch_tmpfs_cleanup(void);
void sec_latency(const struct setup *s);
void sec_overshoot(const struct setup *s);
void sec_memory(const struct setup *s);
void sec_size(const struct setup *s);
void sec_scale(const struct setup *s);
void sec_stress(const struct setup *s);
void sec_fair(const struct setup *s);
void sec_relay(const struct setup *s);
void sec_watch(const struct setup *s);
void sec_library(const struct setup *s);
/* bench run as `libemu` under qemu-user, or as `libhost` (its glibc
 * build): the library section's launches in that process (library.c). */
int library_host(int argc, char **argv);
/* The medians bench run as libhost gives (for the self-test). */
int library_host_medians(const struct setup *s);
void sec_targets(void);

/* One measurement each, for the self-test.  timing_exit: latency and
 * whole launch (µs) of a command that runs `stamp`; timing_overshoot:
 * killed and exited overshoot of one that runs `sleeper` with a 100 ms
 * deadline; memory_sample: Rss (KiB) and chain of one that runs
 * `holder`.  0 on success. */
int timing_exit(const struct setup *s, const struct cmd *c, double *a,
		double *b);
int timing_overshoot(const struct setup *s, const struct cmd *c, double *a,
		     double *b);
int memory_sample(const struct setup *s, const struct cmd *c, double *rss,
		  char *chain, size_t len);
int selftest(const struct setup *s);

/* Figures the sections hand to the targets summary (NaN when unknown). */
struct figures {
	double t_ratio;             /* leash -t overhead / GNU timeout's */
	double u_ratio;             /* leash -u cgroup overhead / setpriv's */
	double thread_vs_pidfd;     /* thread overhead / pidfd overhead */
	double t_vs_floor;          /* leash -t overhead / minimal supervisor's */
	double qemu_t_vs_floor;     /* the same, both under qemu-user */
	double qemu_t_vs_floor_cpu;
	double lib_to_timeout;      /* libleash overhead / exec'ing timeout's */
	double qemu_lib_to_timeout; /* the same, in an emulated process */
	double glibc_lib_to_timeout; /* the same, in a glibc process */
	double u_off_ratio;         /* leash -u --cgroup=off / setpriv's */
	double relay_vs_su;         /* pty relay time / util-linux su --pty's */
	double relay_rss_kib;       /* leash's Rss while it relays */
	double t_ratio_cpu, u_ratio_cpu, thread_vs_pidfd_cpu;  /* CPU time */
	double exit_med_us;         /* worst leash strategy but poll */
	double overshoot_med_us;    /* same */
	double rss_kib;             /* worst leash strategy */
	double size_kib;
	double cg_step_us[3];       /* 1, 100, 1000 groups */
	double cg_vs_floor, cg_vs_floor_cpu;   /* cgroup step / the floor's */
	long stress_fail, stress_left;
};
extern struct figures fig;

/* Target programs: the harness binary under other names. */
int target_main(const char *name, int argc, char **argv);
/* minsup's supervision of the started PID: wait, reap, its status. */
int minsup_supervise(pid_t pid);
/* minsup's launch: fork, exec CMD (NULL-terminated), supervise. */
int minsup_run(char **cmd);
int target_mincg(int argc, char **argv);
int target_minrep(int argc, char **argv);

/* cgscale.c: the leash roots of the cpu hierarchies found, and the
 * groups leash makes for uid UID there. */
struct roots {
	char dir[2][4096];          /* leash roots: [0] v1 cpu, [1] cgroup2 */
};
void find_roots(struct roots *r);

#endif
