#!/bin/sh
# SPDX-License-Identifier: ISC
# make release: for each ARCH, build-ARCH/leash stripped into
# OUTDIR/leash-VERSION-ARCH, its OUTDIR/leash-VERSION-ARCH.sha256, and a
# line in OUTDIR/MANIFEST with its size, sha256 and the --version it
# reports (run through qemu-user for a foreign architecture); then
# OUTDIR/SHA256SUMS for all of them and the source tarball.  Fails when a
# binary does not report this tree's version, or when the README's
# "Stripped sizes" paragraph is stale (an ARCH it names more than 2 KiB
# off); warns when one outgrows its size budget.
#
# usage: build-aux/release.sh OUTDIR ARCH...
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: build-aux/release.sh OUTDIR ARCH..."
out=$1
shift
version=$(sed -n 's/^#define LEASH_VERSION "\(.*\)"$/\1/p' "$src/cmd/cmd.h")
[ -n "$version" ] || die "no LEASH_VERSION in cmd/cmd.h"
mkdir -p "$out"

# Stripped size budgets: the sizes of the features leash has (0.1.0's
# 132, 154 and 108 KiB, plus the pty path's guarantees, the report
# file, login.defs, SIGSYS, LEASH_DEADLINE and the limits: 16-21 KiB)
# and about 3% for fixes.  A feature that needs more says so by moving
# these, with its cost in the commit.
budget() {
	case $1 in
	aarch64) echo 184320 ;;
	armhf) echo 131072 ;;
	*) echo 159744 ;;
	esac
}

# readme_kib ARCH: the KiB the README's "Stripped sizes" paragraph
# gives ARCH ("x86_64 132 KiB"); nothing when it names no such size.
readme_kib() {
	awk '/^Stripped sizes/ { on = 1 } on && /^$/ { exit } on { printf "%s ", $0 }' \
		"$src/README" | grep -o "$1 [0-9]* KiB" | awk '{ print $2; exit }'
}

# mkvar FILE NAME: NAME's value in a config.mk.
mkvar() { sed -n "s/^$2 = //p" "$1" | tail -n 1; }

: >"$out/MANIFEST.tmp"
stale=
for arch in "$@"; do
	b=build-$arch
	[ -x "$b/leash" ] && [ -f "$b/config.mk" ] || die "$b/leash not built (make ARCH=$arch)"
	[ "$(mkvar "$b/config.mk" LINK)" = static ] || die "$b/leash is not static"
	name=leash-$version-$arch
	cp "$b/leash" "$out/$name.tmp"
	"$(mkvar "$b/config.mk" STRIP)" --strip-all "$out/$name.tmp"
	mv "$out/$name.tmp" "$out/$name"
	run=
	if [ -n "$(mkvar "$b/config.mk" QEMU)" ]; then
		run=$("$src/build-aux/cross.sh" qemu "$arch" "$b/qemu")
	fi
	got=$($run "$out/$name" --version | head -n 1)
	[ "$got" = "leash $version" ] || die "$name reports '$got', not 'leash $version'"
	sum=$(cd "$out" && sha256sum "$name")
	printf '%s\n' "$sum" >"$out/$name.sha256"
	size=$(wc -c <"$out/$name")
	# Over budget is a figure to act on, not a broken release: say it.
	[ "$size" -le "$(budget "$arch")" ] ||
		printf 'leash: warning: %s: %s bytes, over its budget of %s\n' \
			"$name" "$size" "$(budget "$arch")" >&2
	kib=$(((size + 512) / 1024)) said=$(readme_kib "$arch")
	if [ -n "$said" ] && { [ $((kib - said)) -gt 2 ] || [ $((said - kib)) -gt 2 ]; }; then
		stale="$stale, $arch $kib KiB (README: $said)"
	fi
	printf '%s %s %s %s\n' "$name" "$size" "${sum%% *}" "$got" >>"$out/MANIFEST.tmp"
	printf 'leash: %s: %s bytes (%s KiB), %s%s\n' "$out/$name" "$size" \
		"$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1024 }')" "$got" \
		"${run:+ (through ${run##*/})}"
done
{
	echo "# file size sha256 version (leash --version, through qemu-user for other architectures)"
	cat "$out/MANIFEST.tmp"
} >"$out/MANIFEST"
rm -f "$out/MANIFEST.tmp"
(cd "$out" && sha256sum $(for a in "$@"; do echo "leash-$version-$a"; done) \
	$(ls "leash-$version.tar.gz" 2>/dev/null) >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
echo "leash: $out/MANIFEST, $out/SHA256SUMS"
[ -z "$stale" ] ||
	die "the README's stripped sizes are stale: ${stale#, }; update its 'Stripped sizes' paragraph"
