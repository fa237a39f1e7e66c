/* SPDX-License-Identifier: ISC */
/* fuzz common: inputs as strings, argv and files, for the harnesses. */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

void fuzz_fail(const char *file, int line, const char *what)
{
	/* fd 2, not stderr: the opt harness points stderr at /dev/null. */
	dprintf(2, "fuzz: %s:%d: check failed: %s\n", file, line, what);
	abort();        /* libFuzzer's deadly-signal path saves the input */
}

int fuzz_skip(const char *name)
{
	const char *list = getenv("LEASH_FUZZ_SKIP");
	size_t len = strlen(name);

	while (list && *list) {
		size_t n = strcspn(list, ",");

		if (n == len && !strncmp(list, name, n))
			return 1;
		list += n + (list[n] == ',');
	}
	return 0;
}

char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char **fuzz_argv(const char *argv0, const uint8_t *data, size_t size,
		 int *argc)
{
	size_t n = 2;           /* argv0 and the first piece */
	char **v;
	int i = 0;

	for (size_t k = 0; k < size; k++)
		n += data[k] == '\0';
	if (!(v = calloc(n + 1, sizeof *v)))
		abort();
	v[i++] = fuzz_cstr((const uint8_t *)argv0, strlen(argv0));
	while (size) {
		const uint8_t *nul = memchr(data, '\0', size);
		size_t len = nul ? (size_t)(nul - data) : size;

		v[i++] = fuzz_cstr(data, len);
		data += len + (nul != NULL);
		size -= len + (nul != NULL);
	}
	*argc = i;
	return v;
}

void fuzz_argv_free(char **argv)
{
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

char **fuzz_argv_dup(char **argv, int n)
{
	char **v = malloc(((size_t)n + 1) * sizeof *v);

	if (!v)
		abort();
	memcpy(v, argv, ((size_t)n + 1) * sizeof *v);
	return v;
}

int fuzz_inside(char **v, int n, const char *p)
{
	for (int i = 0; i < n; i++)
		if (p >= v[i] && p <= v[i] + strlen(v[i]))
			return 1;
	return 0;
}

int fuzz_index(char **v, int n, char **p)
{
	return p >= v && p <= v + n ? (int)(p - v) : -1;
}

size_t fuzz_take(const uint8_t **data, size_t *size, const uint8_t **field)
{
	size_t len;

	if (*size == 0) {
		*field = *data;
		return 0;
	}
	len = (*data)[0];
	(*data)++, (*size)--;
	if (len > *size)
		len = *size;
	*field = *data;
	*data += len, *size -= len;
	return len;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror(path);
		close(fd);
	}
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Not root: a user namespace maps us to 0, which may then mount. */
static void enter_namespaces(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];

	if (unshare(CLONE_NEWNS) == 0)
		return;
	if (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		die("cannot make a private mount namespace (unshare)");
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
	write_file("/proc/self/gid_map", map);
}

static int tmp_fd = -1;
static char tmp_name[32];

/* A file in the private tmpfs, opened for fuzz_put. */
static int tmp_file(const char *name)
{
	int fd = openat(tmp_fd, name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
			0644);

	if (fd < 0)
		die(name);
	return fd;
}

/* Bind a tmpfs file over each of OVERLAY[] while the tmpfs is still
 * attached at DIR (the kernel binds only from mounts in our tree). */
static void bind_overlays(const char *dir, const char *const overlay[],
			  int fd[])
{
	char name[32], src[4200];

	for (int i = 0; overlay && overlay[i]; i++) {
		snprintf(name, sizeof name, "overlay%d", i);
		fd[i] = tmp_file(name);
		snprintf(src, sizeof src, "%s/%s", dir, name);
		if (mount(src, overlay[i], NULL, MS_BIND, NULL) < 0) {
			close(fd[i]);
			fd[i] = -1;
		}
	}
}

void fuzz_setup(const char *const overlay[], int fd[])
{
	const char *t = getenv("TMPDIR");
	char dir[4096];

	if (tmp_fd >= 0)
		return;
	enter_namespaces();
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		/* A plain chroot: its root is no mount of its own, so no
		 * mount made here could be kept from the host's.  The host's
		 * shape, not a fault: fuzz.sh reads this line as a skip. */
		if (errno == EINVAL) {
			fputs("fuzz: skip: the root directory is not a mount "
			      "point (a chroot): no private mount namespace\n",
			      stderr);
			_exit(1);
		}
		die("cannot make / private in the new namespace");
	}
	snprintf(dir, sizeof dir, "%s/leash-fuzz.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp");
	if (mount("leash-fuzz", dir, "tmpfs", MS_NOSUID | MS_NODEV,
		  "size=64m,mode=0700") < 0 ||
	    (tmp_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		rmdir(dir);
		die("cannot mount a private tmpfs");
	}
	bind_overlays(dir, overlay, fd);
	/* Detached, the tmpfs lives on through tmp_fd and the overlays:
	 * nothing is left in TMPDIR, even when the run ends in a crash. */
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	snprintf(tmp_name, sizeof tmp_name, "/proc/self/fd/%d", tmp_fd);
}

const char *fuzz_tmpdir(void)
{
	fuzz_setup(NULL, NULL);
	return tmp_name;
}

int fuzz_file(const char *name)
{
	fuzz_setup(NULL, NULL);
	return tmp_file(name);
}

void fuzz_put(int fd, const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) < 0 ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		die("writing the input file");
}

void fuzz_check_permutation(char **before, char **after, int n)
{
	for (int i = 0; i < n; i++) {
		int k = 0, m = 0;

		for (int j = 0; j < n; j++)
			k += before[j] == before[i], m += after[j] == before[i];
		FUZZ_ASSERT(k == m);
	}
}
