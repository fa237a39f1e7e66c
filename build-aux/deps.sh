#!/bin/sh
# SPDX-License-Identifier: ISC
# Install what leash's build and tests need on Debian 12, one line per
# package; without apt-get or root, name what is missing and fail.
#
# usage: build-aux/deps.sh [--dry-run] [--assume-missing] [--no-apt]
#                          [PROFILE | PROBE:PACKAGE]...
#
# PROFILE: build (compile leash), demo (build + what make demo runs),
# check (build + the test suite, also what make bench uses), fuzz (build
# + clang's libFuzzer, for tests/fuzz; part of check), vm (make
# check-vm); aarch64, armhf,
# i686, x86_64: build for that target (make ARCH=...: the cross gcc and
# the target's kernel headers, host packages; build-aux/cross.sh fetches
# the rest).  PROBE:PACKAGE adds one requirement:
# PROBE is a command name, an absolute path that must exist, or
# dpkg=NAME (a package that must be installed); build-aux/check-vm.sh can
# call this script that way for what it needs beyond the vm profile.
#
# --dry-run prints what would be installed and changes nothing;
# --assume-missing treats every requirement as missing (with --dry-run:
# the fresh-machine path); --no-apt behaves as if apt-get or root were
# absent.
set -u

dry=0 assume=0 noapt=0 reqs=
add() { reqs="$reqs $*"; }

profile() {
	case $1 in
	build)
		add make:make gcc:gcc /usr/include/stdio.h:libc6-dev \
			/usr/include/linux/types.h:linux-libc-dev \
			musl-gcc:musl-tools \
			apt-get:apt dpkg-source:dpkg-dev xz:xz-utils \
			/usr/include/sys/capability.h:libcap-dev ;;
	demo)
		profile build
		# build-aux/demo.sh and demo-fair.sh, beyond the build: GNU
		# timeout beside leash, setsid for the escapee, setpriv and
		# taskset for the fair-share runs.  The test suite's tools
		# come with make check, clang with make check or make fuzz.
		add timeout:coreutils setsid:util-linux setpriv:util-linux \
			taskset:util-linux ;;
	check)
		profile build
		profile fuzz
		add bats:bats mandoc:mandoc \
			setpriv:util-linux unshare:util-linux runuser:util-linux \
			useradd:passwd groupadd:passwd \
			ps:procps pgrep:procps \
			script:bsdutils busybox:busybox toybox:toybox strace:strace jq:jq \
			/usr/share/i18n/locales/de_DE:locales keyctl:keyutils \
			/usr/share/bash-completion/bash_completion:bash-completion \
			pkg-config:pkg-config /usr/include/glib-2.0/glib.h:libglib2.0-dev \
			/usr/include/sys/capability.h:libcap-dev ;;
	fuzz)
		profile build
		# clang's fuzzer and sanitizer runtimes, and the symbolizer
		# for readable crash reports.
		add clang-14:clang-14 dpkg=libclang-rt-14-dev:libclang-rt-14-dev \
			llvm-symbolizer-14:llvm-14 ar:binutils ;;
	vm)
		profile build
		# The guest's busybox, bash and kernel are downloaded into the
		# build tree by check-vm.sh, never installed on the host;
		# debootstrap builds the systemd guest's root there.
		add qemu-system-x86_64:qemu-system-x86 \
			debootstrap:debootstrap ;;
	aarch64|armhf|i686|x86_64)
		profile build
		eval "$(sh "$(dirname "$0")/cross.sh" info "$1")" || exit 2
		# shellcheck disable=SC2154  # set by cross.sh info
		[ "$native" = 1 ] ||
			add "$gnu-gcc:$gccpkg" "/usr/$gnu/include/asm:$kpkg" ;;
	*)	echo "deps.sh: unknown profile '$1' (build, demo, check, fuzz, vm, aarch64, armhf, i686, x86_64)" >&2
		exit 2 ;;
	esac
}

for a in "$@"; do
	case $a in
	--dry-run|-n) dry=1 ;;
	--assume-missing) assume=1 ;;
	--no-apt) noapt=1 ;;
	*:*) add "$a" ;;
	*) profile "$a" ;;
	esac
done
[ -n "$reqs" ] || profile check

have() {	# have PROBE
	[ "$assume" = 1 ] && return 1
	case $1 in
	dpkg=*) dpkg-query -W -f '${Status}' "${1#dpkg=}" 2>/dev/null |
			grep -q 'ok installed' ;;
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

# Missing packages, once each, as "package probe" lines.
missing=$(
	for r in $reqs; do
		probe=${r%:*} pkg=${r##*:}
		have "$probe" || printf '%s %s\n' "$pkg" "${probe#dpkg=}"
	done | awk '!seen[$1]++'
)
[ -n "$missing" ] || exit 0

can_apt=1
[ "$noapt" = 1 ] && can_apt=0
command -v apt-get >/dev/null 2>&1 || can_apt=0
[ "$(id -u)" = 0 ] || can_apt=0
if [ "$can_apt" = 0 ] && [ "$dry" = 0 ]; then
	printf '%s\n' "$missing" | while read -r pkg probe; do
		echo "leash: missing $pkg (for $probe)" >&2
	done
	echo "leash: install them as root: apt-get install" \
		"$(printf '%s\n' "$missing" | awk '{ print $1 }' | tr '\n' ' ')" >&2
	exit 1
fi

# What will be installed, and why, before anything is done.
pkgs=$(printf '%s\n' "$missing" | awk '{ print $1 }' | tr '\n' ' ')
echo "leash: $(printf '%s\n' "$missing" | wc -l) packages to install with apt-get (and what they depend on):"
printf '%s\n' "$missing" | while read -r pkg probe; do
	echo "leash: installing $pkg (for $probe)"
done

export DEBIAN_FRONTEND=noninteractive
log=${TMPDIR:-/tmp}/leash-deps.$$.log
trap 'rm -f "$log"' EXIT

# Update the package lists before every install: lists that exist may be
# those of the image (a debootstrap root never fetched the security
# updates), and an install is rare enough (a fresh machine, a new
# requirement) that the update's seconds do not matter.  A failed update
# is reported; the install is still tried with the lists there are.
echo "leash: updating the package lists (apt-get update)"
if [ "$dry" = 0 ] && ! apt-get -q update >"$log" 2>&1; then
	cat "$log" >&2
	echo "leash: apt-get update failed: installing from the old lists" >&2
fi

# One apt-get call for all (fast on a fresh machine); if it fails, one
# call per package, so the message names the one that failed.
[ "$dry" = 1 ] && exit 0
echo "leash: apt-get install $pkgs"
install() { apt-get -q -y --no-install-recommends install "$@" >"$log" 2>&1; }
install $pkgs && exit 0
status=0
for pkg in $pkgs; do
	install "$pkg" || {
		cat "$log" >&2
		echo "leash: could not install $pkg" >&2
		status=1
	}
done
exit $status
