/* SPDX-License-Identifier: ISC */
/* host-glib: a GLib program with child watches of its own
 * (g_child_watch_add: GLib reaps those children, by pidfd since 2.74,
 * else from its SIGCHLD handler) and libleash's runs as unix fd sources
 * of the same GMainContext.  Each side gets exactly its own statuses:
 * GLib's watches fire with theirs (the library reaped none of them),
 * the runs end with theirs (GLib's SIGCHLD machinery took none of
 * them, or the library read them back).  The deadline fires inside the
 * loop with no thread and no timer of GLib's. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leash.h"

#define NOWN 4
#define NRUN 3

static int failures, left;
static GMainLoop *loop;
static int own_status[NOWN];
static struct leash_outcome outcome[NRUN];

#define CHECK(cond, ...) do { if (!(cond)) { failures++; \
	printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
	printf("\n"); } } while (0)

static void done_one(void)
{
	if (--left == 0)
		g_main_loop_quit(loop);
}

static void on_own(GPid pid, gint status, gpointer data)
{
	own_status[GPOINTER_TO_INT(data)] = WIFEXITED(status) ?
					    WEXITSTATUS(status) : -1;
	g_spawn_close_pid(pid);
	done_one();
}

static gboolean on_run(int fd, GIOCondition cond, gpointer data)
{
	leash_run_t **run = data;

	(void)fd;
	(void)cond;
	if (leash_run_dispatch(*run) == 0)
		return G_SOURCE_CONTINUE;
	done_one();
	return G_SOURCE_REMOVE;
}

int main(void)
{
	static leash_run_t *run[NRUN];
	char *argv[NRUN][4] = {
		{ "sh", "-c", "exit 3", NULL },
		{ "sh", "-c", "sleep 10", NULL },
		{ "sh", "-c", "sleep 0.2; kill -USR1 $$", NULL },
	};
	struct timespec d[NRUN] = { { 10, 0 }, { 0, 300000000 }, { 10, 0 } };

	loop = g_main_loop_new(NULL, FALSE);
	for (int i = 0; i < NOWN; i++) {
		char code[32];
		gchar *args[] = { "sh", "-c", code, NULL };
		GPid pid;

		snprintf(code, sizeof code, "sleep 0.%d; exit %d", i * 2, 10 + i);
		if (!g_spawn_async(NULL, args, NULL, G_SPAWN_DO_NOT_REAP_CHILD |
				   G_SPAWN_SEARCH_PATH, NULL, NULL, &pid, NULL))
			return printf("FAIL: g_spawn_async\n"), 1;
		g_child_watch_add(pid, on_own, GINT_TO_POINTER(i));
		left++;
	}
	for (int i = 0; i < NRUN; i++) {
		leash_attr_t *a;

		leash_attr_init(&a);
		leash_attr_set_deadline(a, 0, &d[i], NULL);
		if (leash_spawn(&run[i], "/bin/sh", argv[i], NULL, a) < 0)
			return printf("FAIL: leash_spawn\n"), 1;
		leash_attr_destroy(a);
		g_unix_fd_add(leash_run_fd(run[i]), G_IO_IN, on_run, &run[i]);
		left++;
	}
	g_main_loop_run(loop);
	for (int i = 0; i < NOWN; i++)
		CHECK(own_status[i] == 10 + i, "GLib's child %d: %d", i,
		      own_status[i]);
	for (int i = 0; i < NRUN; i++)
		leash_run_outcome(run[i], &outcome[i], sizeof outcome[i]);
	CHECK(outcome[0].result == LEASH_EXITED && outcome[0].status == 3,
	      "run 0: %s %d", leash_result_name(outcome[0].result),
	      outcome[0].status);
	CHECK(outcome[1].result == LEASH_TIMEOUT &&
	      outcome[1].status == SIGTERM, "run 1: %s %d",
	      leash_result_name(outcome[1].result), outcome[1].status);
	CHECK(outcome[2].result == LEASH_SIGNALED &&
	      outcome[2].status == SIGUSR1, "run 2: %s %d",
	      leash_result_name(outcome[2].result), outcome[2].status);
	for (int i = 0; i < NRUN; i++)
		leash_run_free(run[i]);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
