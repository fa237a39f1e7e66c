#!/bin/sh
# SPDX-License-Identifier: ISC
# Build a static libcap for musl from Debian's libcap2 source package.
#
# usage: build-aux/libcap.sh [DIR]        (DIR defaults to build/libcap)
#
# Result: DIR/include/sys/capability.h, DIR/lib/libcap.a, DIR/VERSION.
# The source comes from `apt-get source libcap2` run with a private apt
# configuration (sources list, package lists and cache all under DIR/apt),
# so the machine's /etc/apt and /var/lib/apt are never changed.  The build
# stops unless the source carries the fixes for CVE-2023-2602 and
# CVE-2023-2603 (Debian 12's 1:2.66-4+deb12u1 and later do).
#
# Environment: MUSL_CC (default musl-gcc) compiles the library, BUILD_CC
# (default gcc) compiles libcap's host helper _makenames, AR and RANLIB
# (default ar, ranlib) archive it: a cross build passes the target's.
set -eu

dir=${1:-build/libcap}
musl_cc=${MUSL_CC:-musl-gcc}
build_cc=${BUILD_CC:-gcc}
ar=${AR:-ar}
ranlib=${RANLIB:-ranlib}
min_version='1:2.66-4+deb12u1'
# Flags for the library; a change of them or of the compiler rebuilds it
# from the unpacked source.
copts='-Os -fPIC -fstack-protector-strong -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables'

say() { printf 'leash: %s\n' "$*"; }
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

need() {	# need COMMAND PACKAGE WHY
	command -v "$1" >/dev/null 2>&1 ||
		die "missing $1 ($3): install $2, e.g. 'apt-get install $2' or run build-aux/deps.sh"
}

. "$(dirname "$0")/aptpriv.sh"

# Fetch and unpack the newest libcap2 source into $src; print its path.
fetch_source() {
	apt_setup "$apt" deb-src
	say "fetching Debian's libcap2 source (private apt config in $apt)"
	apt_run "$apt" update >"$dir/apt.log" 2>&1 ||
		{ cat "$dir/apt.log" >&2; die "apt-get update (private lists) failed"; }
	rm -rf "$src"; mkdir -p "$src"
	(cd "$src" && apt_run "$apt" source libcap2) >>"$dir/apt.log" 2>&1 ||
		{ cat "$dir/apt.log" >&2; die "apt-get source libcap2 failed"; }
	# The package lists (~20 MB) served their purpose.
	apt_drop_lists "$apt"
}

# Stop unless the unpacked source carries the two CVE fixes.
check_fixes() {
	tree=$1
	version=$(dpkg-parsechangelog -l "$tree/debian/changelog" -S Version)
	dpkg --compare-versions "$version" ge "$min_version" ||
		die "libcap2 $version is older than $min_version (lacks CVE-2023-2602/2603 fixes)"
	for cve in CVE-2023-2602 CVE-2023-2603; do
		grep -q "$cve" "$tree/debian/changelog" ||
			die "libcap2 $version: debian/changelog does not mention $cve"
	done
	say "libcap2 $version carries the fixes for CVE-2023-2602 and CVE-2023-2603"
}

# Build libcap.a with musl and copy it and its headers into $dir.
build_static() {
	tree=$1
	# The source's own Makefile; _makenames runs on the build machine.
	make -C "$tree/libcap" clean >/dev/null 2>&1 || true
	make -C "$tree/libcap" >"$dir/build.log" 2>&1 \
		CC="$musl_cc" BUILD_CC="$build_cc" AR="$ar" RANLIB="$ranlib" \
		COPTS="$copts" \
		SHARED=no GOLANG=no PAM_CAP=no DYNAMIC=no libcap.a ||
		{ tail -n 30 "$dir/build.log" >&2; die "building libcap.a with $musl_cc failed"; }
	mkdir -p "$dir/lib.new/lib" "$dir/lib.new/include/sys" "$dir/lib.new/include/linux"
	cp "$tree/libcap/libcap.a" "$dir/lib.new/lib/"
	cp "$tree/libcap/include/sys/capability.h" "$dir/lib.new/include/sys/"
	# musl-gcc has no kernel headers: ship libcap's own uapi copy.
	cp "$tree/libcap/include/uapi/linux/capability.h" "$dir/lib.new/include/linux/"
	rm -rf "${dir:?}/lib" "${dir:?}/include"
	mv "$dir/lib.new/lib" "$dir/lib.new/include" "$dir/"
	rmdir "$dir/lib.new"
}

need apt-get dpkg-dev 'apt-get source'
need dpkg-source dpkg-dev 'unpacks the source package'
need dpkg-parsechangelog dpkg-dev 'reads the package version'
need "$musl_cc" musl-tools 'compiles libcap for musl'
need "$build_cc" gcc "compiles libcap's _makenames"
need make make 'runs libcap build'

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
apt=$dir/apt
src=$dir/src

if [ -f "$dir/lib/libcap.a" ] && [ -f "$dir/VERSION" ] &&
   [ "$(cat "$dir/COPTS" 2>/dev/null)" = "$copts $musl_cc" ]; then
	say "using cached libcap $(cat "$dir/VERSION") in $dir"
	exit 0
fi
rm -f "$dir/VERSION"
tree=$(ls -d "$src"/libcap2-*/ 2>/dev/null | tail -n 1 || true)
[ -n "$tree" ] && [ -f "$tree/debian/changelog" ] || {
	fetch_source
	tree=$(ls -d "$src"/libcap2-*/ 2>/dev/null | tail -n 1 || true)
	[ -n "$tree" ] || die "apt-get source libcap2 unpacked nothing in $src"
}
tree=${tree%/}
check_fixes "$tree"
build_static "$tree"
printf '%s\n' "$copts $musl_cc" >"$dir/COPTS"
printf '%s\n' "$version" >"$dir/VERSION"
say "built $dir/lib/libcap.a (libcap2 $version, $musl_cc)"
