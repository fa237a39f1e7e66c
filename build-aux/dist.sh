#!/bin/sh
# SPDX-License-Identifier: ISC
# make dist: OUTDIR/leash-VERSION.tar.gz of the source files (git's
# tracked files, as they are in the work tree; without git, the tree less
# its build output), reproducible: sorted, owner 0, every mtime the last
# commit's (or SOURCE_DATE_EPOCH), gzip without a name or time.
# --check (make distcheck) then unpacks it in a temporary directory and
# runs the README's ./configure && make && make install (DESTDIR there).
#
# usage: build-aux/dist.sh [--check] OUTDIR
set -eu

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
[ $# = 1 ] || { echo "usage: build-aux/dist.sh [--check] OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

version=$(sed -n 's/^#define LEASH_VERSION "\(.*\)"$/\1/p' "$src/cmd/cmd.h")
[ -n "$version" ] || die "no LEASH_VERSION in cmd/cmd.h"
name=leash-$version
mkdir -p "$1"
out=$(cd "$1" && pwd)/$name.tar.gz

list=$(mktemp "${TMPDIR:-/tmp}/leash-dist.XXXXXX")
trap 'rm -f "$list"' EXIT
# The source files; CI's script and git's own files are not released.
files() {
	if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$src" ls-files | while IFS= read -r f; do
			[ -f "$src/$f" ] && printf '%s\n' "$f"
		done
	else
		(cd "$src" && find . \( -path ./build -o -path './build-*' ! -path ./build-aux \) \
			-prune -o -type f ! -name config.mk ! -name 'bench-*.json' -print |
			sed 's|^\./||')
	fi
}
files | grep -v -e '^\.ci/' -e '^\.git' | LC_ALL=C sort >"$list"
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)}
grep -qx configure "$list" || die "the file list has no configure: not a leash tree?"

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
