/* SPDX-License-Identifier: ISC */
/* fuzz env: env_build in every mode.  Input split at NUL bytes: a
 * control piece (mode, which identity fields are known), the -w
 * whitelist, the target's user, home and shell, then the caller's
 * environment, one variable a piece. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "ident/env.h"

static size_t count(char *const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

/* Every NAME=... of OUT is NAME=VALUE (issue 12 item 5: all of them;
 * LEASH_FUZZ_SKIP=dup-vars checks the first only), and there is one. */
static void check_all(char *const *out, const char *name, const char *value)
{
	size_t len = strlen(name);
	int seen = 0;

	for (size_t i = 0; out[i] && !(seen && fuzz_skip("dup-vars")); i++)
		if (!strncmp(out[i], name, len) && out[i][len] == '=') {
			FUZZ_ASSERT(!strcmp(out[i] + len + 1, value));
			seen = 1;
		}
	FUZZ_ASSERT(seen);
}

static bool has_var(char *const *v, const char *name, size_t len)
{
	for (size_t i = 0; v[i]; i++)
		if (!strncmp(v[i], name, len) && v[i][len] == '=')
			return true;
	return false;
}

/* Is the name of ENTRY (up to '=') one item of the -w list? */
static bool in_list(const char *list, const char *entry)
{
	size_t len = strcspn(entry, "=");

	while (list && *list) {
		size_t n = strcspn(list, ",");

		if (n == len && !strncmp(list, entry, n))
			return true;
		list += n + (list[n] == ',');
	}
	return false;
}

/* -l: only the login variables and listed ones, each name once. */
static void check_login(char *const *out, const struct ident *id,
			const char *wl)
{
	static const char *const fixed = ",TERM,HOME,SHELL,USER,LOGNAME,PATH,";

	for (size_t i = 0; out[i]; i++) {
		size_t len = strcspn(out[i], "=");
		char name[64];

		FUZZ_ASSERT(out[i][len] == '=');
		snprintf(name, sizeof name, ",%.*s,", (int)len, out[i]);
		/* Item 10 again: -w A= let the caller's A==x in. */
		FUZZ_ASSERT((len < 60 && strstr(fixed, name)) || in_list(wl, out[i]) ||
			    (fuzz_skip("whitelist-eq") && wl && strchr(wl, '=')));
		/* Item 10: -w HOME= let HOME==x in beside HOME. */
		if (!fuzz_skip("whitelist-eq"))
			FUZZ_ASSERT(!has_var(out + i + 1, out[i], len));
	}
	/* The login's PATH, from this machine's login.defs. */
	char *path = env_login_path(id->have_uid ? id->uid == 0 : getuid() == 0);

	FUZZ_ASSERT(path != NULL);
	check_all(out, "PATH", path);
	free(path);
}

static void check(char *const *in, char *const *out, const struct ident *id,
		  enum env_mode mode, const char *wl)
{
	bool root = id->have_uid ? id->uid == 0 : getuid() == 0;

	switch (mode) {
	case ENV_INHERIT:
	case ENV_PRESERVE:
		FUZZ_ASSERT(count(in) == count(out));
		for (size_t i = 0; in[i]; i++)
			FUZZ_ASSERT(!strcmp(in[i], out[i]));
		break;
	case ENV_LOGIN:
		check_login(out, id, wl);
		/* fall through: the target's variables as in ENV_TARGET */
	case ENV_TARGET:
		check_all(out, "HOME", id->home ? id->home : "/");
		check_all(out, "SHELL", id->shell ? id->shell : env_default_shell());
		if (id->user) {
			check_all(out, "USER", id->user);
			check_all(out, "LOGNAME", id->user);
		}
		break;
	case ENV_ANDROID:
		/* AOSP su: PATH reset, IFS gone, every occurrence. */
		check_all(out, "PATH", env_default_path(root));
		if (!fuzz_skip("dup-vars"))
			FUZZ_ASSERT(!has_var(out, "IFS", 3));
		if (id->user) {
			check_all(out, "USER", id->user);
			check_all(out, "LOGNAME", id->user);
		}
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int argc;
	char **v = fuzz_argv("", data, size, &argc), **out;
	const char *ctl = argc > 1 ? v[1] : "";
	unsigned flags = ctl[0] ? (unsigned char)ctl[1] : 0;
	enum env_mode mode = ctl[0] ? (enum env_mode)((unsigned char)ctl[0] % 5) : ENV_INHERIT;
	const char *wl = argc > 2 && !(flags & 32) ? v[2] : NULL;
	struct ident id = {
		.have_uid = flags & 1,
		.uid = flags & 2 ? 0 : 1000,
		.user = argc > 3 && !(flags & 4) ? v[3] : NULL,
		.home = argc > 4 && !(flags & 8) ? v[4] : NULL,
		.shell = argc > 5 && !(flags & 16) ? v[5] : NULL,
	};
	char **envp = argc > 6 ? v + 6 : v + argc;

	out = env_build(envp, &id, mode, wl);
	FUZZ_ASSERT(out != NULL);
	check(envp, out, &id, mode, wl);
	FUZZ_ASSERT(env_set(&out, "LEASH_FUZZ", "1") == 0);
	FUZZ_ASSERT(has_var(out, "LEASH_FUZZ", 10));
	FUZZ_ASSERT(env_set(&out, "LEASH_FUZZ", NULL) == 0);
	env_free(out);
	fuzz_argv_free(v);
	return 0;
}
