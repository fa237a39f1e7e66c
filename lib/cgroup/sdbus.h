/* SPDX-License-Identifier: ISC */
/* sdbus: the one D-Bus call leash makes, by hand (the binary is static:
 * no libsystemd, no libdbus): systemd's StartTransientUnit for a scope,
 * over systemd's private socket (root's, no bus daemon needed), else the
 * system bus.  Private to lib/cgroup/. */
#ifndef LEASH_CGROUP_SDBUS_H
#define LEASH_CGROUP_SDBUS_H

#include <stddef.h>
#include <sys/types.h>

/* How long one call may take, all of it (connect, auth, reply). */
#define SDBUS_TIMEOUT_MS 3000

/* Start the transient scope NAME in SLICE with Delegate=yes around PID
 * (its first and only process): 0 once systemd accepted the job; -1
 * with errno and ERR (SIZE bytes) saying why: the D-Bus error's name
 * and text, or the step that failed (EEXIST: the unit exists already,
 * another launch made it).  On success ERR names the socket used. */
int sdbus_start_scope(const char *name, const char *slice, pid_t pid,
		      const char *description, char *err, size_t size);

#endif
