#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# format.bats: the pieces of libc that leash does without, for size and
# for the pages a launch maps, against libc itself: lib/sys/format.c, the
# vfprintf the static build links in place of musl's (which carries
# floating point leash never prints), prints what the libc's prints,
# leash's sources ask it for nothing it lacks, and the static binary
# really uses it; lib/sys/small.c's qsort and strstr give the libc's
# results; lib/time/duration.c, with the build's strtod (musl's in the static
# build), arms what GNU timeout arms for the same duration.

load helpers

FMTCMP=${LEASH_BUILDDIR:-$TOP/build}/fmtcmp
DURREAD=${LEASH_BUILDDIR:-$TOP/build}/durread
GNUREF_DURATIONS=${LEASH_FUZZ_BUILDDIR:-$TOP/build-fuzz}/gnuref-durations
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
	run bash -c 'cat "$1"/cmd/*.[ch] "$1"/lib/*/*.[ch] | grep -o "\"[^\"]*%[^\"]*\"" |
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

# durations N: the seed corpus of the duration harness (one line each),
# then N strings made of the pieces strtod and the suffixes read.
durations() {
	local f
	for f in "$TOP"/tests/fuzz/corpus/duration/*; do
		[[ $(wc -l <"$f") -eq 0 ]] && { cat "$f"; echo; }
	done
	awk -v n="$1" 'BEGIN {
		srand(22)
		k = split("0 1 5 9 00 7 123456789 9007199254740993 . . e E - + x 0x p p- a f inf nan s m h d , \\t 1e-400 1e308 4e-324 2.2250738585072011e-308 0.1 1. 5.s", p, " ")
		p[k + 1] = " "
		for (i = 0; i < n; i++) {
			s = ""
			for (j = int(rand() * 6) + 1; j > 0; j--)
				s = s p[int(rand() * (k + 1)) + 1]
			print s
		}
	}'
}

@test "every duration is read as GNU timeout 9.11 reads it (its parse_duration, built from Debian's coreutils source), with this build's strtod" {
	[[ -x $DURREAD ]] || skip "no $DURREAD (make builds it)"
	[[ -x $GNUREF_DURATIONS ]] || skip "no $GNUREF_DURATIONS (make fuzz-build builds it)"
	durations 30000 >"$TMP/in"
	"$DURREAD" <"$TMP/in" >"$TMP/leash"
	"$GNUREF_DURATIONS" <"$TMP/in" >"$TMP/gnu"
	[ "$(wc -l <"$TMP/leash")" -eq "$(wc -l <"$TMP/in")" ]
	grep -qv invalid "$TMP/leash"           # not all refused
	paste -d '|' "$TMP/in" "$TMP/leash" "$TMP/gnu" | awk -F '|' '
		$2 != $3 { printf "[%s]: leash %s, GNU %s\n", $1, $2, $3; bad++ }
		END { exit bad > 0 }'
}

@test "small.c's heapsort and strstr give what the libc's qsort and strstr give" {
	[[ -x $SORTCMP ]] || skip "no $SORTCMP (make builds it)"
	run "$SORTCMP" 3000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "sortcmp: "*" cases agree" ]]
}
