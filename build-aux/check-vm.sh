#!/bin/bash
# SPDX-License-Identifier: ISC
# check-vm: run the cgroup tests and the fair-share demo in a throw-away
# qemu guest (software emulation) whose only cgroup mount is cgroup2, so
# the cpu controller is on v2 there, whatever the host has. The guest
# is a Debian kernel from the archive plus an initramfs with static
# busybox, static bash, bats-core, the static build/ binaries and tests/.
# Nothing is installed from the downloaded packages: they are unpacked
# under build/vm-cache. Exit 0 only when every guest stage passed.
#
# Environment:
#   LEASH_BUILDDIR, LEASH_SRCDIR  (set by make) build and source trees;
#                default build/ and the directory above this script
#   VM_TIMEOUT   hard limit for the whole guest run, seconds (default 900)
#   VM_MEM       guest memory, MiB (default 1536)
#   VM_SMP       guest CPUs (default 2)
#   VM_KERNEL    use this vmlinuz instead of the archive's linux-image-amd64
#   VM_TESTS     comma-separated bats files, relative to the source tree
#                (default tests/cgroup.bats, clone3.bats, cgroup-track.bats)
#   VM_BENCH     0: no bench stage (default 1: build/bench's launch and
#                scale sections, quick: the cgroup step against its floor
#                where the child is born in its leaf, ratios only)
#   VM_TOOLS     host programs copied with their libraries, replacing
#                busybox's (default: setpriv, unshare, mount, the shadow
#                user tools, ps/pgrep and a few more)
#   VM_SELFTEST  1: boot and check the guest only (no build/leash needed)
#   DEPS         0: install nothing (qemu must be there)
#   VM_KEEP      1: keep the staging directory and initramfs
#   VM_APPEND    more kernel parameters; NAME=VALUE ones reach the guest's
#                init as environment (see tests/vm/init)
set -eu -o pipefail

srcdir=${LEASH_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${LEASH_BUILDDIR:-${BUILDDIR:-$srcdir/build}}
case $builddir in /*) ;; *) builddir=$PWD/$builddir ;; esac
cache=$builddir/vm-cache
VM_TIMEOUT=${VM_TIMEOUT:-900}
VM_MEM=${VM_MEM:-1536}
VM_SMP=${VM_SMP:-2}
VM_TESTS=${VM_TESTS:-tests/cgroup.bats,tests/clone3.bats,tests/cgroup-track.bats}
VM_BENCH=${VM_BENCH:-1}
VM_TOOLS=${VM_TOOLS-setpriv setsid unshare nsenter mount umount flock \
	getent find useradd userdel groupadd groupdel ps pgrep pkill}
VM_SELFTEST=${VM_SELFTEST:-0}
stage=

say() { printf 'check-vm: %s\n' "$*" >&2; }
die() { say "FAIL: $*"; exit 1; }

cleanup() {
	if [ -n "$stage" ] && [ "${VM_KEEP:-0}" != 1 ]; then
		rm -rf "$stage"
	elif [ -n "$stage" ]; then
		say "kept $stage"
	fi
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM HUP

# Host packages: qemu only; the guest's packages are downloaded and
# unpacked, not installed. make check-vm has run build-aux/deps.sh vm
# already (unless DEPS=0); run directly, this asks deps.sh for qemu.
host_deps() {
	local deps=$srcdir/build-aux/deps.sh
	if ! command -v qemu-system-x86_64 >/dev/null && [ "${DEPS:-1}" = 1 ]; then
		if [ -x "$deps" ]; then
			"$deps" qemu-system-x86_64:qemu-system-x86
		else
			apt_install qemu-system-x86 # check-vm: runs the guest
		fi
	fi
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 not found: apt-get install qemu-system-x86"
	command -v dpkg-deb >/dev/null || die "dpkg-deb not found (Debian host needed)"
}

apt_install() {
	say "installing $*"
	[ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep _Packages)" ] ||
		apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null ||
		die "cannot install $*"
}

# kernel_pkg: the versioned image package linux-image-amd64 depends on.
kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# fetch PKG: download PKG's .deb into the cache unless it is there.
fetch() {
	ls "$cache/$1"_*.deb >/dev/null 2>&1 && return 0
	say "downloading $1"
	download "$1" || { apt-get update -qq || true; download "$1"; } ||
		die "cannot download $1"
}

download() {
	# apt's _apt user cannot write here; the download works as root.
	(cd "$cache" && apt-get download -q "$1" 2>&1 |
		grep -v 'unsandboxed as root' >&2) || true
	ls "$cache/$1"_*.deb >/dev/null 2>&1
}

# unpack PKG: extract PKG's newest cached .deb into $cache/PKG/.
unpack() {
	local deb
	deb=$(ls "$cache/$1"_*.deb | sort -V | tail -n 1)
	if [ ! -f "$cache/$1/.from" ] || [ "$(cat "$cache/$1/.from")" != "$deb" ]; then
		rm -rf "${cache:?}/$1"
		mkdir -p "$cache/$1"
		dpkg-deb -x "$deb" "$cache/$1"
		echo "$deb" > "$cache/$1/.from"
	fi
}

get_packages() {
	local k
	mkdir -p "$cache"
	fetch busybox-static
	fetch bash-static
	fetch bats
	unpack busybox-static
	unpack bash-static
	unpack bats
	[ -n "${VM_KERNEL:-}" ] && return 0
	k=$(kernel_pkg)
	if [ -z "$k" ]; then
		apt-get update -qq || true
		k=$(kernel_pkg)
	fi
	if [ -n "$k" ]; then
		fetch "$k"
		prune_kernels "$k"
	else
		say "no kernel package name from apt; using the cache"
		k=$(ls "$cache" | sed -n 's/^\(linux-image-[0-9][^_]*\)_.*\.deb$/\1/p' |
			sort -V | tail -n 1)
		[ -n "$k" ] || die "no linux-image package found or cached"
	fi
	kernel_unpack "$k"
}

# prune_kernels PKG: drop cached kernels other than PKG.
prune_kernels() {
	local f
	for f in "$cache"/linux-image-*; do
		case ${f##*/} in "$1" | "$1"_*) continue ;; esac
		[ -e "$f" ] && rm -rf "$f"
	done
	return 0
}

# kernel_unpack PKG: only the vmlinuz, not the 400 MB of modules.
kernel_unpack() {
	local deb
	deb=$(ls "$cache/$1"_*.deb | sort -V | tail -n 1)
	VM_KERNEL=$(ls "$cache/$1"/boot/vmlinuz-* 2>/dev/null | head -n 1) || true
	if [ -z "$VM_KERNEL" ]; then
		mkdir -p "$cache/$1"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$cache/$1" --wildcards './boot/vmlinuz-*'
		VM_KERNEL=$(ls "$cache/$1"/boot/vmlinuz-* | head -n 1)
	fi
}

# is_static FILE: true when FILE needs no dynamic loader.
is_static() {
	! LC_ALL=C ldd "$1" 2>/dev/null | grep -q '=>\|ld-linux'
}

# copy_tool PROG: copy a host program, at the same path, with the
# libraries it loads, in place of busybox's applet of that name.
copy_tool() {
	local path bin lib d r=$stage/root
	path=$(command -v "$1") || { say "warning: $1 not on this host, not copied"; return 0; }
	bin=$(readlink -f "$path")
	for d in bin sbin usr/bin usr/sbin; do
		[ -L "$r/$d/$1" ] && rm -f "$r/$d/$1"
	done
	mkdir -p "$r$(dirname "$path")"
	cp "$bin" "$r$path"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$r$lib" ] && continue
		mkdir -p "$r$(dirname "$lib")"
		cp -L "$lib" "$r$lib"
	done
}

stage_userland() {
	local r=$stage/root bb=$cache/busybox-static/bin/busybox a
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,src}
	cp "$bb" "$r/bin/busybox"
	for a in $("$bb" --list-full); do
		[ "$a" = bin/busybox ] || ln -sf /bin/busybox "$r/$a"
	done
	cp "$cache/bash-static/bin/bash-static" "$r/bin/bash"
	cp -a "$cache/bats/usr/." "$r/usr/"
	rm -rf "$r/usr/share/doc"
	for a in $VM_TOOLS; do copy_tool "$a"; done
	stage_etc
	cp "$srcdir/tests/vm/init" "$r/init"
	chmod 755 "$r/init"
}

# stage_etc: a minimal user database that the shadow tools can edit.
stage_etc() {
	local e=$stage/root/etc
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' > "$e/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' > "$e/group"
	printf '%s\n' 'root:*:20000:0:99999:7:::' 'nobody:*:20000:0:99999:7:::' > "$e/shadow"
	printf '%s\n' 'root:*::' 'nogroup:*::' > "$e/gshadow"
	chmod 600 "$e/shadow" "$e/gshadow"
	printf '%s\n' 'passwd: files' 'group: files' 'shadow: files' > "$e/nsswitch.conf"
	[ -f /etc/login.defs ] && cp /etc/login.defs "$e/"
	echo leash-vm > "$e/hostname"
}

# stage_project: build/ executables (static only), tests/, build-aux/.
stage_project() {
	local d=$stage/root/src f n=0
	mkdir -p "$d/build"
	cp -a "$srcdir/tests" "$srcdir/build-aux" "$d/"
	[ "$VM_SELFTEST" = 1 ] && return 0
	[ -x "$builddir/leash" ] || die "$builddir/leash not built (run make first)"
	for f in "$builddir"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		if [ -L "$f" ]; then
			cp -P "$f" "$d/build/"
		elif is_static "$f"; then
			cp "$f" "$d/build/"
			n=$((n + 1))
		else
			say "warning: $(basename "$f") is dynamically linked, not copied"
		fi
	done
	is_static "$builddir/leash" || die "$builddir/leash is not static"
	say "staged $n static programs from $builddir"
}

make_initrd() {
	local bb=$cache/busybox-static/bin/busybox
	(cd "$stage/root" && find . | "$bb" cpio -o -H newc 2>/dev/null) |
		gzip -1 > "$stage/initrd.gz"
	say "initramfs $(($(stat -c %s "$stage/initrd.gz") / 1024)) KiB," \
		"kernel $(basename "$VM_KERNEL")"
}

# boot: run the guest with a hard limit; console to the log and stdout.
boot() {
	local append="console=ttyS0 panic=-1 quiet loglevel=4 LEASH_VM=1"
	append="$append LEASHVM_TESTS=$VM_TESTS LEASHVM_SELFTEST=$VM_SELFTEST"
	append="$append LEASHVM_BENCH=$VM_BENCH"
	append="$append ${VM_APPEND:-}"
	: > "$results"
	say "booting (qemu tcg, $VM_SMP cpus, $VM_MEM MiB, limit $VM_TIMEOUT s)"
	set +e
	timeout --foreground -k 30 "$VM_TIMEOUT" \
		qemu-system-x86_64 -accel tcg -cpu max -smp "$VM_SMP" \
		-m "$VM_MEM" -nodefaults -no-user-config -display none \
		-no-reboot -serial stdio -serial "file:$results" \
		-kernel "$VM_KERNEL" -initrd "$stage/initrd.gz" \
		-append "$append" < /dev/null 2>&1 | tee "$console"
	qemu_rc=${PIPESTATUS[0]}
	set -e
}

# report: parse the result lines; print the summary; exit status.
report() {
	local lines pass fail skip bad secs=$(($(date +%s) - started))
	lines=$(tr -d '\r' < "$results" | grep '^LEASHVM ' || true)
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		die "guest timed out after $VM_TIMEOUT s (qemu killed; console in $console)"
	fi
	if ! grep -q '^LEASHVM boot' <<<"$lines"; then
		die "guest did not boot (qemu status $qemu_rc; console in $console)"
	fi
	grep -q '^LEASHVM end' <<<"$lines" ||
		die "guest stopped before the end (qemu status $qemu_rc; console in $console)"
	pass=$(sum_field pass <<<"$lines")
	fail=$(sum_field fail <<<"$lines")
	skip=$(sum_field skip <<<"$lines")
	bad=$(grep '^LEASHVM stage=' <<<"$lines" | grep -v ' rc=0 ' |
		sed 's/^LEASHVM stage=\([^ ]*\) \(rc=[0-9]*\).*/\1 (\2)/' |
		paste -sd, - | sed 's/,/, /g' || true)
	[ -z "$bad" ] || bad="failed stages: $bad"
	grep '^LEASHVM ' <<<"$lines" | sed 's/^/check-vm: /' >&2
	say "wall time ${secs} s, guest log in $console"
	[ -z "$bad" ] && [ "$fail" = 0 ] && [ "$pass" -gt 0 ] && {
		echo "check-vm: $pass passed, $fail failed, $skip skipped"
		return 0
	}
	echo "check-vm: $pass passed, $fail failed, $skip skipped"
	die "${bad:-no test passed}"
}

sum_field() {
	grep '^LEASHVM stage=' |
		sed -n "s/.* $1=\([0-9]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

main() {
	started=$(date +%s)
	host_deps
	get_packages
	mkdir -p "$builddir"
	stage=$(mktemp -d "$builddir/vm-stage.XXXXXX")
	console=$builddir/vm-console.log
	results=$stage/results
	stage_userland
	stage_project
	make_initrd
	boot
	report
}

main "$@"
