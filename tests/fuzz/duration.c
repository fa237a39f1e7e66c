/* SPDX-License-Identifier: ISC */
/* fuzz duration: duration_parse on any string (timeout's DURATION,
 * -k and -t operands). */
#include <errno.h>
#include <stdlib.h>

#include "common.h"
#include "duration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *end;
	struct timespec d = { -1, -1 };
	int rc = duration_parse(s, &d);

	if (rc < 0) {
		FUZZ_ASSERT(errno == EINVAL);
	} else {
		FUZZ_ASSERT(rc == 0);
		FUZZ_ASSERT(d.tv_sec >= 0);
		FUZZ_ASSERT(d.tv_nsec >= 0 && d.tv_nsec <= 999999999);
		FUZZ_ASSERT(duration_is_zero(&d) == (d.tv_sec == 0 && d.tv_nsec == 0));
		/* GNU rejects every negative number, however small (item 11:
		 * -1e-400 was 1 ns; skip: negative). */
		FUZZ_ASSERT(!(strtold(s, &end) < 0) || fuzz_skip("negative"));
		/* duration.h: only a zero gives {0,0}; anything positive,
		 * however small, is at least 1 ns (long double sees values
		 * that underflow a double). */
		if (duration_is_zero(&d))
			FUZZ_ASSERT(strtold(s, &end) == 0);
	}
	free(s);
	return 0;
}
