#!/bin/sh
# SPDX-License-Identifier: ISC
# make dist: OUTDIR/leash-VERSION.tar.gz of the source files (git's
# tracked files, as they are in the work tree; without git, the tree less
# its build output: the same list in a tree that `git archive` gave),
# reproducible: sorted, owner 0, gzip without a name or time, every mtime
# SOURCE_DATE_EPOCH, else the last commit's time, else (no git) the
# newest file's, which in an exported tree is the commit's again.
# --check (make distcheck) then unpacks it in a temporary directory and
# runs the README's ./configure && make && make install (DESTDIR there).
#
# usage: build-aux/dist.sh [--check] OUTDIR
set -eu

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
[ $# = 1 ] || { echo "usage: build-aux/dist.sh [--check] OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd -P)
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

version=$(sed -n 's/^#define LEASH_VERSION "\(.*\)"$/\1/p' "$src/cmd/cmd.h")
[ -n "$version" ] || die "no LEASH_VERSION in cmd/cmd.h"
name=leash-$version
mkdir -p "$1"
out=$(cd "$1" && pwd)/$name.tar.gz

list=$(mktemp "${TMPDIR:-/tmp}/leash-dist.XXXXXX")
trap 'rm -f "$list"' EXIT
# The source files; CI's script and git's own files are not released.
# (git's only when this tree is a checkout's top, not an exported tree
# unpacked somewhere inside another checkout.)
git=0
[ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ] && git=1
files() {
	if [ "$git" = 1 ]; then
		git -C "$src" ls-files | while IFS= read -r f; do
			[ -f "$src/$f" ] && printf '%s\n' "$f"
		done
	else
		# The build directories are build and build-* at the top, which
		# build-aux is not (nor is anything below it).
		(cd "$src" && find . \( -path ./build -o \( -path './build-*' \
			! -path './build-*/*' ! -path ./build-aux \) \) -prune -o \
			-type f ! -path ./config.mk ! -path ./config.mk.tmp \
			! -path './bench-*.json' -print | sed 's|^\./||')
	fi
}
files | grep -v -e '^\.ci/' -e '^\.git' | LC_ALL=C sort >"$list"
grep -qx configure "$list" || die "the file list has no configure: not a leash tree?"
# newest: the newest mtime of the listed files, in seconds.
newest() {
	(cd "$src" && tr '\n' '\0' <"$list" | xargs -0 stat -c %Y) | sort -n | tail -n 1
}
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	epoch=$SOURCE_DATE_EPOCH
elif [ "$git" = 1 ]; then
	epoch=$(git -C "$src" log -1 --format=%ct)
else
	epoch=$(newest)
fi

tar -C "$src" -cf - --no-recursion --sort=name --owner=0 --group=0 \
	--numeric-owner --mtime="@$epoch" --mode=go-w \
	--transform "s|^|$name/|" -T "$list" | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
printf 'leash: %s (%s files, %s bytes)\n' "${out#"$src"/}" "$(wc -l <"$list")" "$(wc -c <"$out")"

[ "$check" = 1 ] || exit 0
d=$(mktemp -d "${TMPDIR:-/tmp}/leash-distcheck.XXXXXX")
trap 'rm -f "$list"; rm -rf "$d"' EXIT
tar -C "$d" -xzf "$out"
(cd "$d/$name" && ./configure >"$d/log" 2>&1 && make >>"$d/log" 2>&1 &&
	make install DESTDIR="$d/stage" >>"$d/log" 2>&1) ||
	{ tail -n 30 "$d/log" >&2; die "$name.tar.gz does not build with ./configure && make && make install"; }
got=$("$d/stage/usr/local/bin/leash" --version | head -n 1)
[ "$got" = "leash $version" ] || die "the built leash says '$got', not 'leash $version'"
echo "leash: $name.tar.gz builds and installs with ./configure && make && make install"
