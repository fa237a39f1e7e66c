/* SPDX-License-Identifier: ISC */
/* fuzz duration: duration_parse on any string (timeout's DURATION, -k
 * and -t operands), against GNU timeout's own parse_duration (built from
 * Debian's coreutils source, gnuref/): both must refuse the same strings
 * and arm the same timespec for the others.  duration_parse has no fast
 * path left (issue 22: one that read plain digits refused "1."), so
 * this is its one reading against GNU's. */
#include <errno.h>
#include <stdlib.h>

#include "common.h"
#include "time/duration.h"
#include "gnuref/gnuref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size), *end;
	struct timespec d = { -1, -1 }, g = { -1, -1 };
	int rc = duration_parse(s, &d), err = errno;
	int grc = gnuref_duration(s, &g);

	if (rc < 0) {
		FUZZ_ASSERT(err == EINVAL);
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
	/* GNU's verdict (skip: gnu-verdict; "1." was refused) and GNU's
	 * timespec (skip: gnu-value; "1" was 1 ns short of GNU 9.7's). */
	FUZZ_ASSERT((rc == 0) == (grc == 0) || fuzz_skip("gnu-verdict"));
	FUZZ_ASSERT(rc < 0 || grc < 0 ||
		    (d.tv_sec == g.tv_sec && d.tv_nsec == g.tv_nsec) ||
		    fuzz_skip("gnu-value"));
	free(s);
	return 0;
}
