/* SPDX-License-Identifier: ISC */
/* execvp: glibc's lookup rules, so a static musl leash runs the same
 * commands GNU timeout would.  Called in the child: no allocation. */
#define _GNU_SOURCE
#include "spawn/execvp.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_PATH "/bin:/usr/bin"

static const char *env_lookup(char *const envp[], const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

/* musl has no ENOEXEC fallback; glibc (and so GNU timeout) has. */
static void exec_file(const char *path, char *const argv[], char *const envp[])
{
	execve(path, argv, envp);
	if (errno != ENOEXEC)
		return;
	size_t argc = 0;
	while (argv[argc])
		argc++;
	char *sh_argv[argc + 2];
	sh_argv[0] = (char *)"/bin/sh";
	sh_argv[1] = (char *)path;
	for (size_t i = 1; i <= argc; i++)
		sh_argv[i + 1] = argv[i];
	execve("/bin/sh", sh_argv, envp);
}

int exec_command(const char *file, char *const argv[], char *const envp[])
{
	char buf[PATH_MAX];
	int seen_eacces = 0;

	if (!*file)
		return errno = ENOENT, -1;
	if (strchr(file, '/')) {
		exec_file(file, argv, envp);
		return -1;
	}
	const char *path = env_lookup(envp, "PATH");
	if (!path)
		path = DEFAULT_PATH;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		size_t dlen = (size_t)(end - p), flen = strlen(file);
		if (dlen + flen + 2 <= sizeof buf) {
			/* An empty entry means the current directory. */
			memcpy(buf, p, dlen);
			buf[dlen] = dlen ? '/' : '\0';
			memcpy(buf + dlen + !!dlen, file, flen + 1);
			exec_file(buf, argv, envp);
			if (errno == EACCES)
				seen_eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR &&
				 errno != ESTALE && errno != ENODEV &&
				 errno != ETIMEDOUT)
				return -1;
		}
		if (!*end)
			break;
		p = end;
	}
	errno = seen_eacces ? EACCES : ENOENT;
	return -1;
}
