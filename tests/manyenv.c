/* SPDX-License-Identifier: ISC */
/* manyenv: run a command with many more environment variables than a
 * shell can pass, and say what it cost:
 *   manyenv N [NAME=VALUE]... -- CMD [ARG]...
 * runs CMD with the caller's environment, the NAME=VALUE entries (in
 * that order, duplicates kept) and LEASHV0= .. LEASHV<N-1>=, then prints
 * "status=S ms=T maxrss_kib=K" on stderr (K: the largest RSS of CMD and
 * the descendants it waited for) and exits with CMD's status. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	size_t n, have = 0, k = 0;
	int i = 2, status;

	if (argc < 4 || (n = strtoul(argv[1], NULL, 10)) > 10000000) {
		fprintf(stderr, "usage: manyenv N [NAME=VALUE]... -- CMD [ARG]...\n");
		return 2;
	}
	while (environ[have])
		have++;
	char **env = calloc(have + (size_t)argc + n + 1, sizeof *env);
	char *names = malloc(n * 16 + 1);
	if (!env || !names)
		return 2;
	for (size_t j = 0; j < have; j++)
		env[k++] = environ[j];
	for (; i < argc && strcmp(argv[i], "--"); i++)
		env[k++] = argv[i];
	if (++i >= argc)
		return 2;
	for (size_t j = 0; j < n; j++) {
		char *e = names + j * 16;
		snprintf(e, 16, "LEASHV%zu=", j);
		env[k++] = e;
	}
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		execvpe(argv[i], argv + i, env);
		perror(argv[i]);
		_exit(127);
	}
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return 2;
	fprintf(stderr, "status=%d ms=%.0f maxrss_kib=%ld\n",
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		now_ms() - t0, ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
