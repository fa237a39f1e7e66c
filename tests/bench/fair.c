/* fair: the fair-share figures of `make demo`, one line per scenario.
 * The demo script is run with LEASH_DEMO_SUMMARY=1; every line it then
 * prints of the form `scenario=NAME key=value ...` is shown and kept in
 * the JSON (numbers as numbers).  Other lines are ignored. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void json_pair(char *tok)
{
	char *eq = strchr(tok, '='), *end;
	double v;

	if (!eq)
		return;
	*eq = '\0';
	v = strtod(eq + 1, &end);
	if (end != eq + 1 && *end == '\0')
		json_num(tok, v);
	else
		json_str(tok, eq + 1);
}

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

void sec_fair(const struct setup *s)
{
	const char *argv[] = { "/bin/sh", s->fair, NULL };
	struct cmd c = { .key = "fair" };
	char line[1024];
	int p[2], status, n = 0;
	pid_t pid;
	FILE *f;

	printf("\nfair share (make demo), one line per scenario\n");
	json_obj("fair_share");
	if (!s->fair || access(s->fair, R_OK) < 0) {
		printf("  skipped: no fair-share demo script yet (bench runs "
		       "it with LEASH_DEMO_SUMMARY=1)\n");
		json_bool("skipped", true);
		json_end();
		return;
	}
	memcpy(c.argv, argv, sizeof argv);
	c.envp = env_with("LEASH_DEMO_SUMMARY", "1");
	if (pipe_high(p) < 0 || (pid = cmd_spawn_out(&c, s->devnull, p[1])) < 0) {
		json_end();
		return;
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	json_arr("scenarios");
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "scenario=", 9) && ++n)
			summary_line(line);
	}
	json_end();
	if (f)
		fclose(f);
	cmd_wait(pid, &status);
	json_int("exit_status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (!n)
		printf("  no summary lines (exit status %d)\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	json_end();
}
