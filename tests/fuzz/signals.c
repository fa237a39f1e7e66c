/* SPDX-License-Identifier: ISC */
/* fuzz signals: signal_parse on any operand, and signal_name back,
 * against GNU timeout's own operand2sig and sig2str (built from Debian's
 * coreutils source, gnuref/; on glibc, whose real-time signals are
 * 34..64, as leash names them).  signal_parse has no fast path: this is
 * its one reading against GNU's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gnuref/gnuref.h"
#include "signal/signals.h"

/* signal_name into a buffer of exactly SIZE bytes, so ASan sees any
 * write past it; returns a malloc'd copy of the result or NULL. */
static char *name_of(int sig, size_t size)
{
	char *buf = malloc(size), *copy;
	const char *r = signal_name(sig, buf, size);

	FUZZ_ASSERT(r == buf);
	FUZZ_ASSERT(memchr(buf, '\0', size) != NULL);
	copy = strdup(buf);
	free(buf);
	return copy;
}

/* Every number's name as timeout -v prints it: sig2str's, or the
 * number (always for 0, since GNU 9.10).  Once, at start. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	for (int sig = 0; sig <= 64; sig++) {
		char gnu[GNUREF_SIG2STR_MAX], *ours = name_of(sig, 32);

		if (sig == 0 || gnuref_signame(sig, gnu) != 0)
			snprintf(gnu, sizeof gnu, "%d", sig);
		if (strcmp(ours, gnu) && !fuzz_skip("gnu-name")) {
			fprintf(stderr, "fuzz: signal %d: leash names it %s, GNU %s\n",
				sig, ours, gnu);
			FUZZ_ASSERT(!"the names of GNU's sig2str");
		}
		free(ours);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *name;
	int sig = signal_parse(s);

	FUZZ_ASSERT(sig >= -1 && sig <= 64);
	/* GNU's operand2sig reads it alike (skip: gnu-signal). */
	FUZZ_ASSERT(sig == gnuref_signal(s) || fuzz_skip("gnu-signal"));
	if (sig >= 0) {
		/* The printed name is itself an operand for the same signal. */
		name = name_of(sig, 32);
		FUZZ_ASSERT(signal_parse(name) == sig);
		free(name);
	}
	if (size >= 5) {
		int any;

		memcpy(&any, data + 1, sizeof any);
		free(name_of(any, 1 + data[0] % 24));
	}
	free(s);
	return 0;
}
