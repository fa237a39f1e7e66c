#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# format.bats: the pieces of libc that leash does without, for size and
# for the pages a launch maps, against libc itself: lib/format.c, the
# vfprintf the static build links in place of musl's (which carries
# floating point leash never prints), prints what the libc's prints,
# leash's sources ask it for nothing it lacks, and the static binary
# really uses it; lib/small.c's qsort and strstr give the libc's
# results; lib/duration.c reads a plain decimal without strtod, and gets
# strtod's double.

load helpers

FMTCMP=${LEASH_BUILDDIR:-$TOP/build}/fmtcmp
DURCMP=${LEASH_BUILDDIR:-$TOP/build}/durcmp
SORTCMP=${LEASH_BUILDDIR:-$TOP/build}/sortcmp

@test "format.c prints what the libc's vsnprintf prints (edge cases, 20,000 random formats, six buffer sizes)" {
	[[ -x $FMTCMP ]] || skip "no $FMTCMP (make builds it)"
	run "$FMTCMP" 20000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "fmtcmp: "*" formats agree" ]]
}

@test "every format directive in leash's sources is one format.c has" {
	# Each %-directive inside a string literal of cmd/ and lib/: format.c
	# refuses the others (floating point, %p, %n, wide characters) with
	# EINVAL, so a message using one would come out empty.
	local ok='^%(%|[-+ #0]*(\*|[0-9]+)?(\.(\*|[0-9]+)?)?((hh|h|ll|l|j|z|t)?[diouxX]|[cs]))$'
	run bash -c 'cat "$1"/cmd/*.[ch] "$1"/lib/*.[ch] | grep -o "\"[^\"]*%[^\"]*\"" |
		grep -oE "%[-+ #0-9.*]*(hh|ll|[hljztLq])?[a-zA-Z%]" | sort -u' _ "$TOP"
	[ "$status" -eq 0 ]
	[ -n "$output" ]                # the scan finds leash's formats at all
	local bad
	bad=$(grep -vE "$ok" <<<"$output" || true)
	[ -z "$bad" ] || { echo "directives format.c does not have: $bad"; false; }
}

@test "a static leash links format.c's vfprintf and small.c's qsort and strstr, not musl's, and its numbers come out right" {
	skip_unless_static
	command -v nm >/dev/null || skip "no nm"
	run nm "$LEASH"
	[ "$status" -eq 0 ]
	[[ $output == *" T vfprintf"* ]]
	# musl's own vfprintf, qsort and strstr have these static functions.
	if grep -E ' (fmt_fp|printf_core|trinkle|twoway_strstr)$' <<<"$output"; then false; fi
	run "$LEASH" -v -t 10 sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[[ $output =~ "exited with status 3 after "[0-9]+\.[0-9][0-9]" s" ]]
}

@test "a plain decimal duration read without strtod is strtod's double, bit for bit (and 10, 0.5, 2m are read so)" {
	[[ -x $DURCMP ]] || skip "no $DURCMP (make builds it)"
	run "$DURCMP" 100000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "durcmp: "*" numbers agree ("*" read without strtod)" ]]
}

@test "small.c's heapsort and strstr give what the libc's qsort and strstr give" {
	[[ -x $SORTCMP ]] || skip "no $SORTCMP (make builds it)"
	run "$SORTCMP" 3000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "sortcmp: "*" cases agree" ]]
}
