/* SPDX-License-Identifier: ISC */
/* mountinfo: find the cgroup hierarchies in /proc/self/mountinfo. */
#ifndef LEASH_MOUNTINFO_H
#define LEASH_MOUNTINFO_H

#include <stdbool.h>

#define MOUNTINFO_PATH_MAX 4096
#define MOUNTINFO_CGROUP1_MAGIC 0x27e0ebL
#define MOUNTINFO_CGROUP2_MAGIC 0x63677270L

/* One line of mountinfo, pointing into the (modified) line buffer. */
struct mountinfo_entry {
	char *root;             /* the mount's root inside its filesystem */
	char *point;            /* where it is mounted, escapes decoded */
	char *fstype;
	char *superopts;        /* "rw,cpu,cpuacct" */
};

struct mountinfo_cgroups {
	char v1cpu[MOUNTINFO_PATH_MAX]; /* v1 hierarchy with cpu, or "" */
	char v2[MOUNTINFO_PATH_MAX];    /* a cgroup2 mount, or "" */
	bool v2cpu;             /* its cgroup.controllers lists cpu */
};

/* Split LINE in place at " - " and the spaces; decode octal escapes.
 * -1 with errno EINVAL when it is not a mountinfo line. */
int mountinfo_split(char *line, struct mountinfo_entry *e);

/* Is TOKEN one whole element of the SEP-separated LIST? */
bool mountinfo_has_token(const char *list, char sep, const char *token);

/* Scan FILE (NULL: /proc/self/mountinfo).  Mounts hidden under another
 * mount or not cgroupfs by statfs are skipped; of several mounts of one
 * hierarchy the one showing its root "/" wins, else the first.  0 (with
 * empty fields when nothing fits) or -1 with errno if FILE is unreadable. */
int mountinfo_cgroups(const char *file, struct mountinfo_cgroups *m);

/* statfs magic of PATH, or -1 with errno. */
long mountinfo_magic(const char *path);

#endif
