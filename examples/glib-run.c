/* SPDX-License-Identifier: ISC */
/* glib-run: what a GLib program writes to run a helper with a deadline
 * through libleash, without exec'ing timeout(1) and without a thread:
 * the run's descriptor is one more source of the program's own
 * GMainContext, dispatched when it is readable.  The helper's output
 * is read meanwhile; at the deadline its whole tree dies (its leaf,
 * else its process group), so the pipe reaches EOF.
 *
 *   cc glib-run.c $(pkg-config --cflags --libs glib-2.0 leash)
 *   ./glib-run 2 sh -c 'echo hello; sleep 10'
 */
#include <glib.h>
#include <glib-unix.h>
#include <leash.h>
#include <signal.h>
#include <stdlib.h>

struct job {
	GMainLoop *loop;
	leash_run_t *run;
};

/* The run's descriptor is readable: do what is due; once it has ended,
 * say how, and stop watching it. */
static gboolean on_run(int fd, GIOCondition cond, gpointer data)
{
	struct job *job = data;
	struct leash_outcome o;

	(void)fd;
	(void)cond;
	if (leash_run_dispatch(job->run) == 0)
		return G_SOURCE_CONTINUE;
	leash_run_outcome(job->run, &o, sizeof o);
	g_print("%s, status %d, %u signal(s) sent, CPU %lld us\n",
		leash_result_name(o.result), o.status, o.nsignals,
		o.user_us + o.system_us);
	leash_run_free(job->run);
	g_main_loop_quit(job->loop);
	return G_SOURCE_REMOVE;
}

int main(int argc, char **argv)
{
	struct timespec deadline = { 0, 0 }, grace = { 3, 0 };
	leash_attr_t *attr;
	struct job job;
	int rc;

	if (argc < 3) {
		g_printerr("usage: glib-run SECONDS COMMAND [ARG]...\n");
		return 2;
	}
	deadline.tv_sec = atoi(argv[1]);
	leash_attr_init(&attr);
	leash_attr_set_deadline(attr, SIGTERM, &deadline, &grace);
	/* A leaf of its own where the host may make one (root, or a
	 * delegated cgroup); without one the process group is the tree. */
	leash_attr_set_cgroup(attr, LEASH_CGROUP_AUTO, NULL);
	leash_attr_set_flags(attr, LEASH_SEARCH_PATH);
	rc = leash_spawn(&job.run, argv[2], &argv[2], NULL, attr);
	leash_attr_destroy(attr);
	if (rc < 0) {
		g_printerr("glib-run: %s\n", g_strerror(-rc));
		return 125;
	}
	job.loop = g_main_loop_new(NULL, FALSE);
	g_unix_fd_add(leash_run_fd(job.run), G_IO_IN, on_run, &job);
	g_main_loop_run(job.loop);
	g_main_loop_unref(job.loop);
	return 0;
}
