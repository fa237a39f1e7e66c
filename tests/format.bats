#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# format.bats: lib/format.c, the vfprintf that the static build links in
# place of musl's (which carries floating point leash never prints): it
# prints what the libc's prints, leash's sources ask it for nothing it
# lacks, and the static binary really uses it.

load helpers

FMTCMP=${LEASH_BUILDDIR:-$TOP/build}/fmtcmp

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

@test "a static leash links format.c's vfprintf, not musl's, and its numbers come out right" {
	grep -q '^LINK = static' "${LEASH_BUILDDIR:-$TOP/build}/config.mk" 2>/dev/null ||
		grep -q '^LINK = static' "$TOP/config.mk" 2>/dev/null ||
		skip "not a static build"
	command -v nm >/dev/null || skip "no nm"
	run nm "$LEASH"
	[ "$status" -eq 0 ]
	[[ $output == *" T vfprintf"* ]]
	# musl's own vfprintf has these two static functions.
	if grep -E ' (fmt_fp|printf_core)$' <<<"$output"; then false; fi
	run "$LEASH" -v -t 10 sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[[ $output =~ "exited with status 3 after "[0-9]+\.[0-9][0-9]" s" ]]
}
