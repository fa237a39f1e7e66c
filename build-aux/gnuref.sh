#!/bin/sh
# SPDX-License-Identifier: ISC
# Build GNU timeout's own parsers, the reference of the differential fuzz
# harnesses (tests/fuzz/duration.c, signals.c), from Debian's coreutils
# source package.
#
# usage: build-aux/gnuref.sh SRCDIR OUTDIR
#
# SRCDIR keeps the unpacked source (make: build/coreutils, kept by make
# clean); it comes from `apt-get source coreutils` of Debian 13 (trixie)
# with a private apt configuration (build-aux/aptpriv.sh), as libcap's
# does: coreutils 9.7, whose parse_duration (with dtimespec_bound) and
# operand2sig are 9.11's, while Debian 12 has 9.1.  OUTDIR gets
# libgnuref.a: timeout.c's parse_duration and apply_time_suffix (copied
# out of timeout.c into gnu-duration.inc), gnulib's cl_strtod, c_strtod,
# dtotimespec and sig2str, coreutils' operand2sig, and the entry points
# of tests/fuzz/gnuref/gnuref.h.  Nothing of GNU's source is kept in the
# tree.
#
# Environment: CC and CFLAGS compile them (make passes the fuzz
# toolchain's: clang with the sanitizers, on glibc); AR archives them.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 SRCDIR OUTDIR" >&2; exit 2; }
dir=$1 out=$2
cc=${CC:-clang-14}
ar=${AR:-ar}
suite=trixie
min_version=9.7
glue=$srcdir/tests/fuzz/gnuref

say() { printf 'leash: %s\n' "$*"; }
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

need() {	# need COMMAND PACKAGE WHY
	command -v "$1" >/dev/null 2>&1 ||
		die "missing $1 ($3): install $2, e.g. 'apt-get install $2' or run build-aux/deps.sh"
}

. "$srcdir/build-aux/aptpriv.sh"

need apt-get dpkg-dev 'apt-get source'
need dpkg-source dpkg-dev 'unpacks the source package'
need "$cc" clang-14 'compiles the reference'

mkdir -p "$dir" "$out"
dir=$(cd "$dir" && pwd)
out=$(cd "$out" && pwd)

# The newest coreutils source of $suite, unpacked once into $dir/src.
fetch_source() {
	apt_setup "$dir/apt" deb-src "" "$suite"
	say "fetching Debian's coreutils source ($suite; private apt config in $dir/apt)"
	apt_run "$dir/apt" update >"$dir/apt.log" 2>&1 ||
		{ cat "$dir/apt.log" >&2; die "apt-get update (private lists) failed"; }
	rm -rf "$dir/src"
	mkdir -p "$dir/src"
	(cd "$dir/src" && apt_run "$dir/apt" source coreutils) >>"$dir/apt.log" 2>&1 ||
		{ cat "$dir/apt.log" >&2; die "apt-get source coreutils failed"; }
	apt_drop_lists "$dir/apt"
}

tree=$(ls -d "$dir"/src/coreutils-*/ 2>/dev/null | tail -n 1 || true)
if [ -z "$tree" ] || [ ! -f "$tree/src/timeout.c" ]; then
	fetch_source
	tree=$(ls -d "$dir"/src/coreutils-*/ 2>/dev/null | tail -n 1 || true)
	[ -n "$tree" ] || die "apt-get source coreutils unpacked nothing in $dir/src"
fi
tree=${tree%/}
version=${tree##*/coreutils-}
dpkg --compare-versions "$version" ge "$min_version" ||
	die "coreutils $version is older than $min_version: its parse_duration is not 9.11's"

# parse_duration and apply_time_suffix, each with the line before it
# (its return type), up to its closing brace.
awk '/^(apply_time_suffix|parse_duration) \(/ { print prev; on = 1 }
	on { print } on && /^}/ { on = 0 } { prev = $0 }' \
	"$tree/src/timeout.c" >"$out/gnu-duration.inc.new"
grep -q 'dtimespec_bound' "$out/gnu-duration.inc.new" &&
	[ "$(grep -c '^[a-z_]* (' "$out/gnu-duration.inc.new")" = 2 ] ||
	die "coreutils $version: parse_duration in src/timeout.c is not as expected"
mv "$out/gnu-duration.inc.new" "$out/gnu-duration.inc"
# operand2sig.c next to our system.h stand-in (a quoted include looks in
# the file's own directory first, so the copy, not the tree, is built).
cp "$tree/src/operand2sig.c" "$tree/src/operand2sig.h" "$out/"

# Our config.h and stand-ins first, then gnulib's headers.
# shellcheck disable=SC2086  # CFLAGS is a list of flags
compile() {	# compile SOURCE
	$cc -std=gnu11 -w ${CFLAGS:-} -I"$glue" -I"$out" -I"$tree/lib" \
		-c -o "$out/$(basename "$1" .c).o" "$1" ||
		die "compiling $1 (coreutils $version) failed"
}
for f in "$tree/lib/cl-strtod.c" "$tree/lib/c-strtod.c" "$tree/lib/dtotimespec.c" \
	"$tree/lib/sig2str.c" "$out/operand2sig.c" "$glue/gnuref.c"; do
	compile "$f"
done
rm -f "$out/libgnuref.a"
(cd "$out" && "$ar" rcs libgnuref.a cl-strtod.o c-strtod.o dtotimespec.o \
	sig2str.o operand2sig.o gnuref.o)
printf '%s\n' "$version" >"$out/VERSION"
say "built $out/libgnuref.a (GNU timeout's parsers, coreutils $version)"
