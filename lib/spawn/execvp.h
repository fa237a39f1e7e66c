/* SPDX-License-Identifier: ISC */
/* execvp: run FILE the way glibc's execvpe does, also under musl. */
#ifndef LEASH_EXECVP_H
#define LEASH_EXECVP_H

/* Search PATH (taken from ENVP, default "/bin:/usr/bin") when FILE has no
 * slash, go on past entries that cannot be executed, and run a file the
 * kernel refuses with ENOEXEC through /bin/sh.  Returns only on failure:
 * -1 with errno (EACCES if some match was not executable). */
int exec_command(const char *file, char *const argv[], char *const envp[]);

#endif
