/* SPDX-License-Identifier: ISC */
/* nss-check: lib/ident/nss.c against a stand-in for getent, without root:
 *   nss-check GETENT passwd NAME            ->  name= uid= gid= dir= shell=
 *   nss-check GETENT group NAME             ->  gid=N
 *   nss-check GETENT initgroups NAME GID [MAX]  ->  groups=G,G,...
 *   nss-check GETENT query DB KEY           ->  the answer, as it came
 * or error=ENOENT (ETIMEDOUT, EBADMSG, EPROTO, E2BIG ...) and exit 1.
 * GETENT is run in place of /usr/bin/getent; the deadline is 1 s here
 * (5 s in leash).  The library files are compiled in, since helpers are
 * built from one source file each. */
#define _GNU_SOURCE     /* before any header: pipe2, memfd_create */
#include <stdio.h>

static const char *check_getent;
#define NSS_GETENT check_getent
#define NSS_TIMEOUT_MS 1000
#include "../lib/ident/nss.c"
#include "../lib/ident/passwd.c"
#include "../lib/time/clock.c"
#include "../lib/signal/sigsys.c"
#include "../lib/signal/sigraw.c"
#include "../lib/sys/sysname.c"

/* lib/diag/fallback.c's recorder, without leash's diagnostics. */
_Thread_local unsigned fallback_taken;
void fallback_take(enum fallback f, int err, const char *what)
{
	(void)err;
	(void)what;
	fallback_taken |= f;
}

static const char *errno_name(int e)
{
	switch (e) {
	case ENOENT: return "ENOENT";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EBADMSG: return "EBADMSG";
	case EPROTO: return "EPROTO";
	case E2BIG: return "E2BIG";
	case ENOMEM: return "ENOMEM";
	default: return strerror(e);
	}
}

static int run(int argc, char **argv)
{
	struct pwent pw;
	gid_t gid, *g;
	size_t n;
	char *text;

	if (!strcmp(argv[2], "passwd") && argc == 4) {
		if (nss_passwd(argv[3], &pw) < 0)
			return -1;
		printf("name=%s\nuid=%lu\ngid=%lu\ndir=%s\nshell=%s\n", pw.name,
		       (unsigned long)pw.uid, (unsigned long)pw.gid, pw.dir, pw.shell);
		pwent_free(&pw);
	} else if (!strcmp(argv[2], "group") && argc == 4) {
		if (nss_group(argv[3], &gid) < 0)
			return -1;
		printf("gid=%lu\n", (unsigned long)gid);
	} else if (!strcmp(argv[2], "initgroups") && (argc == 5 || argc == 6)) {
		size_t max = argc == 6 ? strtoul(argv[5], NULL, 10) : 65536;

		if (nss_initgroups(argv[3], (gid_t)strtoul(argv[4], NULL, 10),
				   max, &g, &n) < 0)
			return -1;
		fputs("groups=", stdout);
		for (size_t i = 0; i < n; i++)
			printf("%s%lu", i ? "," : "", (unsigned long)g[i]);
		putchar('\n');
		free(g);
	} else if (!strcmp(argv[2], "query") && argc == 5) {
		if (nss_query(argv[3], argv[4], &text) < 0)
			return -1;
		fputs(text, stdout);
		free(text);
	} else {
		errno = EINVAL;
		return -2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: nss-check GETENT passwd|group|initgroups|query ...\n");
		return 2;
	}
	/* As leash: a filter's trap of close_range is its ENOSYS. */
	sigsys_catch();
	check_getent = argv[1];
	rc = run(argc, argv);
	if (rc == -2) {
		fprintf(stderr, "nss-check: bad arguments\n");
		return 2;
	}
	if (rc < 0) {
		printf("error=%s\n", errno_name(errno));
		return 1;
	}
	return 0;
}
