/* SPDX-License-Identifier: ISC */
/* fair: the fair-share figures of `make demo`, one line per scenario.
 *
 * The demo script (build-aux/demo-fair.sh) is run with
 * LEASH_DEMO_SUMMARY=1 and DEMO_SECS (3 s quick, its own default else).
 * Lines it prints of the form `scenario=NAME key=value ...` are taken as
 * they are (numbers become JSON numbers).  A script that does not print
 * them yet is read from its table: a line "(a) ..." opens a scenario,
 * rows "  NAME UID SHARE WORK" follow; the summary is the bench's CPU
 * share and work and the hogs' total share. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

struct scenario {
	char name[8];
	char title[96];
	double bench_share, bench_work, hogs_share;
	int hogs;
	bool seen_bench;
};

/* A `scenario=...` line, shown and kept as it is. */
static void summary_line(char *line)
{
	char *save = NULL;

	printf("  %s\n", line);
	json_obj(NULL);
	for (char *t = strtok_r(line, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save))
		json_pair(t);
	json_end();
}

static void scenario_flush(struct scenario *sc)
{
	if (!sc->name[0] || !sc->seen_bench)
		return;
	printf("  scenario=%s bench_share=%.3f bench_work_M=%.2f "
	       "hogs=%d hogs_share=%.3f  (%s)\n", sc->name, sc->bench_share,
	       sc->bench_work, sc->hogs, sc->hogs_share, sc->title);
	json_obj(NULL);
	json_str("scenario", sc->name);
	json_str("title", sc->title);
	json_num("bench_share", sc->bench_share);
	json_num("bench_work_M", sc->bench_work);
	json_int("hogs", sc->hogs);
	json_num("hogs_share", sc->hogs_share);
	json_end();
	memset(sc, 0, sizeof *sc);
}

/* One line of the human table; returns 1 when it was used. */
static int table_line(struct scenario *sc, const char *line)
{
	char name[16], uid[16];
	double share, work = 0;

	if (line[0] == '(' && strchr(line, ')')) {
		scenario_flush(sc);
		snprintf(sc->name, sizeof sc->name, "%.*s",
			 (int)(strchr(line, ')') - line - 1), line + 1);
		snprintf(sc->title, sizeof sc->title, "%s",
			 strchr(line, ')') + 2);
		return 1;
	}
	if (!sc->name[0] ||
	    sscanf(line, " %15s %15s %lf %lf", name, uid, &share, &work) < 3)
		return 0;
	if (!strcmp(name, "bench")) {
		sc->bench_share = share;
		sc->bench_work = work;
		sc->seen_bench = true;
	} else if (!strncmp(name, "hog", 3)) {
		sc->hogs++;
		sc->hogs_share += share;
	}
	return 1;
}

static void read_output(FILE *f, int *n)
{
	struct scenario sc = { 0 };
	char line[1024], summary[256] = "";

	json_arr("scenarios");
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "scenario=", 9)) {
			summary_line(line);
			++*n;
		} else if (!strncmp(line, "bench: ", 7)) {
			scenario_flush(&sc);
			printf("  %s\n", line);
			snprintf(summary, sizeof summary, "%.200s", line + 7);
		} else if (table_line(&sc, line) && sc.seen_bench) {
			++*n;
		}
	}
	scenario_flush(&sc);
	json_end();
	if (summary[0])
		json_str("summary", summary);
}

static void fair_skip(const char *why)
{
	printf("  skipped: %s\n", why);
	json_bool("skipped", true);
	json_str("why", why);
	json_end();
}

void sec_fair(const struct setup *s)
{
	struct cmd c = { .key = "fair" };
	int p[2], status = -1, n = 0;
	pid_t pid;
	FILE *f;

	printf("\nfair share (make demo), one line per scenario\n");
	json_obj("fair_share");
	if (!s->fair || access(s->fair, R_OK) < 0) {
		fair_skip("no fair-share demo script yet");
		return;
	}
	c.argv[0] = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh";
	c.argv[1] = s->fair;
	c.envp = env_with("LEASH_DEMO_SUMMARY", "1");
	if (s->quick)   /* two scenarios of 3 s instead of 10 */
		c.envp = env_with_in(c.envp, "DEMO_SECS", "3");
	if (pipe_high(p) < 0 ||
	    (pid = cmd_spawn_out(&c, s->devnull, p[1])) < 0) {
		fair_skip("cannot start the demo");
		return;
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	read_output(f, &n);
	if (f)
		fclose(f);
	wait_bounded(pid, &status, NULL, 600);
	json_int("exit_status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (!n)
		printf("  no scenario lines (demo exit status %d)\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	json_end();
}
