/* SPDX-License-Identifier: ISC */
/* host-reaper: a host whose SIGCHLD handler reaps every child with
 * waitpid(-1) (and, with "ignore", one that sets SIGCHLD to SIG_IGN, so
 * the kernel reaps them).  The runs' statuses are stolen before the
 * library can reap: they come back through the pidfd where the kernel
 * keeps them (PIDFD_INFO_EXIT, Linux >= 6.15), flagged recovered, else
 * the result is lost (a second line says why: the kernel, an emulator
 * that refuses PIDFD_GET_INFO, or no pidfd at all); never a wrong
 * status.  usage: host-reaper [handler|ignore [fork]]  The deadline still works
 * (signals go through the pidfd, never to a pid the host reaped), and
 * the host's handler is the one in place after. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

static volatile sig_atomic_t reaped;
static int lost;

static void on_chld(int sig)
{
	int saved = errno;

	(void)sig;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		reaped++;
	errno = saved;
}

/* PIDFD_GET_INFO's first layout (64 bytes; the ioctl's number has the
 * size in it): enough to ask whether the call reaches the kernel. */
struct pidfd_info_probe {
	uint64_t mask, cgroupid;
	uint32_t ids[11];
	int32_t exit_code;
};
#define PROBE_GET_INFO _IOWR(0xFF, 11, struct pidfd_info_probe)
#define PROBE_INFO_PID 1ULL

/* Why no status can come back here (NULL: it can): a kernel before 6.15
 * keeps none for a pidfd (PIDFD_INFO_EXIT); an emulator that does not
 * pass PIDFD_GET_INFO on (qemu-user 7.2: "Unsupported ioctl", ENOSYS)
 * leaves the guest without it whatever the kernel. */
static const char *no_recovery(void)
{
	static char why[128];
	struct pidfd_info_probe info = { .mask = PROBE_INFO_PID };
	struct utsname u;
	int major = 0, minor = 0, fd, rc, err;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return "the kernel's release is unknown";
	if (major < 6 || (major == 6 && minor < 15)) {
		snprintf(why, sizeof why, "kernel %s: PIDFD_INFO_EXIT is "
			 "Linux >= 6.15", u.release);
		return why;
	}
	fd = (int)syscall(SYS_pidfd_open, getpid(), 0U);
	if (fd < 0) {
		snprintf(why, sizeof why, "no pidfd here (pidfd_open: %s)",
			 strerror(errno));
		return why;
	}
	rc = ioctl(fd, PROBE_GET_INFO, &info);
	err = errno;
	close(fd);
	if (rc == 0)
		return NULL;
	snprintf(why, sizeof why, "kernel %s, but PIDFD_GET_INFO is refused "
		 "here (%s)", u.release, strerror(err));
	return why;
}

/* One run of CODE: the EXPECTED result and status, or lost. */
static unsigned flags;

static void one(const char *code, long deadline, int result, int status)
{
	leash_attr_t *a = attr_deadline(deadline, 0, flags);
	char *argv[] = { "sh", "-c", (char *)code, NULL };
	struct leash_outcome o;
	leash_run_t *r;
	int rc = leash_spawn(&r, SH, argv, NULL, a);

	leash_attr_destroy(a);
	CHECK(rc == 0, "spawn: %s", strerror(-rc));
	if (rc < 0)
		return;
	rc = leash_run_wait(r, 10000);
	CHECK(rc == 1, "%s: wait %d", code, rc);
	outcome_of(r, &o);
	if (o.result == LEASH_LOST) {
		CHECK(no_recovery(), "%s: lost on a kernel that keeps "
		      "the status", code);
		lost++;
	} else
		CHECK(o.result == result && o.status == status &&
		      (o.flags & LEASH_OUT_RECOVERED),
		      "%s: %s %d, flags %#x (want %s %d, recovered)", code,
		      leash_result_name(o.result), o.status, o.flags,
		      leash_result_name(result), status);
	leash_run_free(r);
}

int main(int argc, char **argv)
{
	bool ignore = argc > 1 && !strcmp(argv[1], "ignore");
	struct sigaction sa = { .sa_handler = ignore ? SIG_IGN : on_chld,
				.sa_flags = SA_RESTART }, now;

	/* "fork": fork + pidfd_open, so that a filter refusing pidfd_open
	 * leaves the run no pidfd (the waiter thread's path). */
	if (argc > 2 && !strcmp(argv[2], "fork"))
		flags = LEASH_NO_CLONE3;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	one("exit 7", 0, LEASH_EXITED, 7);
	one("kill -USR1 $$", 0, LEASH_SIGNALED, SIGUSR1);
	one("sleep 10", 200, LEASH_TIMEOUT, SIGTERM);
	sigaction(SIGCHLD, NULL, &now);
	CHECK(now.sa_handler == sa.sa_handler, "SIGCHLD's handler is not "
	      "the host's any more");
	if (!ignore)
		CHECK(reaped == 3, "the host reaped %d of its 3 children",
		      (int)reaped);
	if (failures)
		return 1;
	printf("ok\n");
	/* What held, held; the statuses could not come back: why. */
	if (lost)
		printf("lost %d of 3: %s\n", lost, no_recovery());
	return 0;
}
