/* SPDX-License-Identifier: ISC */
/* qemu-wrap: run TARGET (a foreign-architecture binary) under the
 * qemu-user emulator QEMU, with this program's argv[0], as a binfmt_misc
 * handler with the P flag would, without registering one on the machine.
 * make check-cross builds one per program with -DQEMU=... -DTARGET=...;
 * a script could not do it: the kernel hands a #! interpreter the path,
 * not argv[0], and leash picks its personality from argv[0].
 *
 * With -DHOST_RUN=..., a command line with a "--" operand (tests/probe.c's
 * run mode: the tests' hostile caller and watchdog) runs that host build
 * instead: its child subreaper is refused by qemu 7.2's prctl, and what
 * it sets up (ignored signals) would not survive qemu's exec.  The report
 * mode, what a command started by leash sees, stays the target's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 4, sizeof *v);
	int i;

#ifdef HOST_RUN
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			execv(HOST_RUN, argv);
			perror(HOST_RUN);
			return 127;
		}
#endif
	if (!v)
		return 127;
	v[0] = QEMU;
	v[1] = "-0";
	v[2] = argc > 0 ? argv[0] : TARGET;
	v[3] = TARGET;
	for (i = 1; i < argc; i++)
		v[i + 3] = argv[i];
	execv(QEMU, v);
	perror(QEMU);
	return 127;
}
