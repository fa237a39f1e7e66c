/* SPDX-License-Identifier: ISC */
/* fuzz signals: signal_parse on any operand, and signal_name back. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "signals.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *name;
	int sig = signal_parse(s);

	FUZZ_ASSERT(sig >= -1 && sig <= 64);
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
