/* SPDX-License-Identifier: ISC */
/* watch: what leash watch costs, from build-aux/bench-watch.sh: its
 * `scenario=NAME key=value ...` lines, shown and kept as they are (the
 * fork rate with and without a watcher as a ratio of one run, CPU per
 * event, Rss, the race and the loss recovery). */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int watch_read(FILE *f)
{
	char line[1024], *save;
	int n = 0;

	json_arr("scenarios");
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "scenario=", 9))
			continue;
		printf("  %s\n", line);
		json_obj(NULL);
		save = NULL;
		for (char *t = strtok_r(line, " \t", &save); t;
		     t = strtok_r(NULL, " \t", &save))
			json_pair(t);
		json_end();
		n++;
	}
	json_end();
	return n;
}

static void watch_skip(const char *why)
{
	printf("  skipped: %s\n", why);
	json_bool("skipped", true);
	json_str("why", why);
	json_end();
}

/* make bench names the tree and the build (LEASH_SRCDIR, _BUILDDIR);
 * else the script beside the fair-share demo, watchkit beside leash. */
void sec_watch(const struct setup *s)
{
	static char script[512 + 16], kit[512 + 16]; /* dir[512] + a name */
	struct cmd c = { .key = "watch" };
	int p[2], status = -1;
	pid_t pid;
	FILE *f;

	printf("\nleash watch: fork rate with/without (one run), CPU per "
	       "event, Rss, race, loss\n");
	json_obj("watch");
	if (!s->fair || !s->leash || geteuid() != 0)
		return watch_skip("needs root, leash and build-aux/");
	const char *src = getenv("LEASH_SRCDIR"), *bld = getenv("LEASH_BUILDDIR");

	char dir[512];

	snprintf(dir, sizeof dir, "%s", s->fair);
	if (src)
		snprintf(dir, sizeof dir, "%s/build-aux", src);
	snprintf(script, sizeof script, "%s/bench-watch.sh",
		 src ? dir : dirname(dir));
	snprintf(dir, sizeof dir, "%s", s->leash);
	snprintf(kit, sizeof kit, "%s/watchkit", bld ? bld : dirname(dir));
	if (access(script, R_OK) < 0 || access(kit, X_OK) < 0)
		return watch_skip("no bench-watch.sh or watchkit");
	c.argv[0] = "/bin/bash";
	c.argv[1] = script;
	c.argv[2] = s->quick ? "1" : "5";
	c.envp = env_with("WATCHKIT", kit);
	c.envp = env_with_in(c.envp, "LEASH", s->leash);
	if (pipe_high(p) < 0 || (pid = cmd_spawn_out(&c, s->devnull, p[1])) < 0)
		return watch_skip("cannot start bench-watch.sh");
	close(p[1]);
	f = fdopen(p[0], "r");
	if (!watch_read(f))
		printf("  no scenario lines\n");
	if (f)
		fclose(f);
	wait_bounded(pid, &status, NULL, 600);
	json_int("exit_status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	json_end();
}
