#!/bin/sh
# SPDX-License-Identifier: ISC
# Cross builds from Debian's packages without a foreign dpkg architecture.
#
# usage: build-aux/cross.sh info TARGET        the target's facts, as sh
#                                              assignments (configure evals them;
#                                              native=1 for this machine's)
#        build-aux/cross.sh musl TARGET DIR    musl-dev of the target, unpacked
#                                              into DIR; prints DIR/bin/TRIPLE-gcc
#        build-aux/cross.sh qemu TARGET DIR    qemu-user for the target, unpacked
#                                              into DIR; prints its path
#        build-aux/cross.sh elf MACHINE TRACE FILE...
#                                              every input the linker's --trace
#                                              listed in TRACE, and each FILE, is
#                                              ELF for MACHINE (readelf's name)
#
# TARGET is an ARCH (aarch64, armhf, i686, x86_64) or a musl triple
# (aarch64-linux-musl, arm-linux-musleabihf, i686-linux-musl, ...).
#
# Why unpacked: musl-dev:arm64 installed the usual way needs `dpkg
# --add-architecture arm64`, which changes the machine for every later
# apt-get (foreign package lists on each update, multi-arch version
# locks).  Here it is downloaded with a private apt configuration
# (build-aux/aptpriv.sh) and unpacked into the build tree, with its own
# compiler wrapper; the cross gcc and the target's kernel headers are the
# host architecture's packages gcc-<gnu triple> and
# linux-libc-dev-<arch>-cross (build-aux/deps.sh ARCH installs them).
# qemu-user-static is unpacked too: installed, its postinst registers
# binfmt_misc handlers wherever binfmt-support is present, and the tests
# call the emulator explicitly anyway.
set -eu

say() { printf 'leash: %s\n' "$*" >&2; }
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)

# target NAME: set the facts of a known target, or fail.
target() {
	case $1 in
	aarch64|arm64|aarch64-*linux-musl*)
		arch=aarch64 debarch=arm64 gnu=aarch64-linux-gnu
		triple=aarch64-linux-musl qemu=qemu-aarch64 elf=AArch64
		pagesize=16384 ;;
	armhf|armv7l|armv8l|arm-*linux-musleabihf|armv7*-linux-musleabihf)
		arch=armhf debarch=armhf gnu=arm-linux-gnueabihf
		triple=arm-linux-musleabihf qemu=qemu-arm elf=ARM pagesize= ;;
	i686|i386|i[3-6]86-*linux-musl)
		arch=i686 debarch=i386 gnu=i686-linux-gnu triple=i686-linux-musl
		qemu=qemu-i386 elf='Intel 80386' pagesize= ;;
	x86_64|amd64|x86_64-*linux-musl)
		arch=x86_64 debarch=amd64 gnu=x86_64-linux-gnu
		triple=x86_64-linux-musl qemu=qemu-x86_64
		elf='Advanced Micro Devices X86-64' pagesize= ;;
	*)	die "unknown cross target '$1' (aarch64, armhf, i686, x86_64 or their *-linux-musl* triples)" ;;
	esac
	gccpkg=gcc-$(printf %s "$gnu" | tr _ -)
	kpkg=linux-libc-dev-$debarch-cross
}

info() {
	native=0
	if (target "$(uname -m)" && [ "$arch" = "$(target "$1" && echo "$arch")" ]) 2>/dev/null; then
		native=1
	fi
	target "$1"
	for v in arch native debarch gnu triple qemu elf pagesize gccpkg kpkg; do
		eval "val=\$$v"
		printf "%s='%s'\n" "$v" "$val"
	done
}

# fetch DIR ARCHS PACKAGE: download PACKAGE's .deb into DIR/debs; print it.
fetch() {
	command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
		die "apt-get and dpkg-deb are needed to fetch $3"
	. "$here/aptpriv.sh"
	apt_setup "$1/apt" deb "$2"
	say "downloading $3 (private apt config in $1/apt)"
	# A list that failed (a mirror in sync) may not be the one needed:
	# the download below says whether the package was found.
	apt_run "$1/apt" update >"$1/apt.log" 2>&1 ||
		say "apt-get update (private lists for $2) had errors: see $1/apt.log"
	rm -rf "$1/debs"
	mkdir -p "$1/debs"
	(cd "$1/debs" && apt_run "$1/apt" download "$3") >>"$1/apt.log" 2>&1 ||
		die "cannot download $3 (see $1/apt.log)"
	apt_drop_lists "$1/apt"
	ls "$1"/debs/*.deb
}

musl() {
	target "$1"
	mkdir -p "$2"
	dir=$(cd "$2" && pwd)
	case $dir in *[[:space:]]*) die "$dir: a gcc specs file cannot name a path with spaces" ;; esac
	cc=$dir/bin/$triple-gcc
	if [ -x "$cc" ] && [ -f "$dir/VERSION" ]; then
		printf '%s\n' "$cc"
		exit 0
	fi
	command -v "$gnu-gcc" >/dev/null 2>&1 ||
		die "$gnu-gcc not found: apt-get install $gccpkg (or run build-aux/deps.sh $arch)"
	deb=$(fetch "$dir" "$debarch" "musl-dev:$debarch")
	rm -rf "$dir/root" "$dir/bin"
	dpkg-deb -x "$deb" "$dir/root"
	specs=$(ls "$dir"/root/usr/lib/*/musl-gcc.specs 2>/dev/null | head -n 1)
	[ -n "$specs" ] || die "musl-dev:$debarch has no musl-gcc.specs"
	# The specs name musl's headers and libraries by absolute path.
	sed -e "s|/usr/include/|$dir/root/usr/include/|g" \
	    -e "s|/usr/lib/|$dir/root/usr/lib/|g" "$specs" >"$dir/musl-gcc.specs"
	mkdir -p "$dir/bin"
	printf '#!/bin/sh\nexec "${REALGCC:-%s-gcc}" "$@" -specs "%s"\n' \
		"$gnu" "$dir/musl-gcc.specs" >"$cc.tmp"
	chmod 755 "$cc.tmp"
	mv "$cc.tmp" "$cc"
	dpkg-deb -f "$deb" Version >"$dir/VERSION"
	rm -rf "$dir/debs"
	say "musl-dev:$debarch $(cat "$dir/VERSION") unpacked in $dir"
	printf '%s\n' "$cc"
}

qemu() {
	target "$1"
	mkdir -p "$2"
	dir=$(cd "$2" && pwd)
	bin=$dir/$qemu-static
	if [ -x "$bin" ]; then
		printf '%s\n' "$bin"
		exit 0
	fi
	hostarch=$(dpkg --print-architecture 2>/dev/null) ||
		die "dpkg not found: cannot fetch qemu-user-static"
	deb=$(fetch "$dir" "$hostarch" qemu-user-static)
	rm -rf "$dir/root"
	mkdir -p "$dir/root"
	# Only the one emulator (12 MB of the package's 380).
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/root" "./usr/bin/$qemu-static" ||
		die "qemu-user-static has no $qemu-static"
	mv "$dir/root/usr/bin/$qemu-static" "$bin"
	dpkg-deb -f "$deb" Version >"$dir/VERSION"
	rm -rf "$dir/root" "$dir/debs"
	say "$qemu-static $(cat "$dir/VERSION") unpacked in $dir"
	printf '%s\n' "$bin"
}

# elf MACHINE TRACE FILE...: archives are checked member by member (all
# of them, not only those linked: an archive is one target's or another's).
elf() {
	want=$1 trace=$2
	shift 2
	readelf=${READELF:-readelf}
	command -v "$readelf" >/dev/null 2>&1 || die "$readelf not found: apt-get install binutils"
	files=$(sed -n -e 's/^(\([^)]*\)).*/\1/p' -e '/^[^(].*[^:]$/{/: /!p;}' "$trace" | sort -u)
	[ -n "$files" ] || die "$trace lists no linker input (was the link run with -Wl,--trace?)"
	bad=0
	for f in $files "$@"; do
		[ -f "$f" ] || continue
		got=$("$readelf" -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p' | sort -u)
		if [ "$got" != "$want" ]; then
			printf 'leash: %s: ELF machine %s, not %s\n' "$f" \
				"$(printf '%s' "${got:-none}" | tr '\n' ',')" "$want" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || die "a host object in a $want link"
}

[ $# -ge 1 ] || die "usage: build-aux/cross.sh info|musl|qemu|elf ..."
cmd=$1
shift
case $cmd in
info) [ $# = 1 ] || die "usage: build-aux/cross.sh info TARGET"; info "$1" ;;
musl|qemu) [ $# = 2 ] || die "usage: build-aux/cross.sh $cmd TARGET DIR"; $cmd "$1" "$2" ;;
elf) [ $# -ge 2 ] || die "usage: build-aux/cross.sh elf MACHINE TRACE [FILE]..."; elf "$@" ;;
*) die "unknown command '$cmd' (info, musl, qemu, elf)" ;;
esac
