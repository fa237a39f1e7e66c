#!/bin/bash
# SPDX-License-Identifier: ISC
# check-vm: run the cgroup tests and the fair-share demo in throw-away
# qemu guests (software emulation) whose only cgroup mount is cgroup2, so
# the cpu controller is on v2 there, whatever the host has. Each guest
# is a Debian kernel from the archive plus one initramfs with static
# busybox, static bash, bats-core, the static build/ binaries and tests/.
# Two kernels by default, one after the other, each running every stage:
# Debian 12's 6.1 and Debian 11's 5.10 (no cgroup.kill: leash kills a
# leaf by freezing it). Nothing is installed from the downloaded
# packages: they are unpacked under build/vm-cache. Exit 0 only when
# every guest stage passed on every kernel.
#
# Environment:
#   LEASH_BUILDDIR, LEASH_SRCDIR  (set by make) build and source trees;
#                default build/ and the directory above this script
#   VM_KERNELS   Debian suites whose linux-image-amd64 is booted, in turn
#                (default "bookworm bullseye"; any suite of the archive)
#   VM_TIMEOUT   hard limit for each kernel's guest run, seconds (default 1200:
#                with watch.bats the 6.1 guest's stages summed to about
#                1000 s on a 2-core host at a load of 10-15)
#   VM_MEM       guest memory, MiB (default 1536)
#   VM_SMP       guest CPUs (default 2)
#   VM_KERNEL    boot only this vmlinuz instead of VM_KERNELS' packages
#   VM_REFRESH   1: ask the archive again for a kernel of a suite other
#                than the host's (default: the cached one, if any)
#   VM_TESTS     comma-separated bats files, relative to the source tree
#                (default tests/cgroup.bats, clone3.bats, cgroup-track.bats,
#                limits.bats, watch.bats)
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
#   VM_SYSTEMD   1 (default): one more guest, Debian 12 booting systemd
#                as PID 1 on bookworm's kernel (its root file system made
#                by debootstrap from Debian's archive into build/vm-cache
#                once, then reused), running VM_SYSTEMD_TESTS (default
#                tests/systemd.bats) as a service; 0: not run; only: only
#                that guest
#   VM_BENCH_VARIANT  a static leash built before a change: the systemd
#                guest's bench stage compares its launches with this
#                build's (build/bench --variant), side by side
#   VM_SYSTEMD_MIRROR  the archive debootstrap uses (default
#                http://deb.debian.org/debian)
set -eu -o pipefail

srcdir=${LEASH_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${LEASH_BUILDDIR:-${BUILDDIR:-$srcdir/build}}
case $builddir in /*) ;; *) builddir=$PWD/$builddir ;; esac
cache=$builddir/vm-cache
VM_KERNELS=${VM_KERNELS:-bookworm bullseye}
VM_TIMEOUT=${VM_TIMEOUT:-1200}
VM_MEM=${VM_MEM:-1536}
VM_SMP=${VM_SMP:-2}
VM_TESTS=${VM_TESTS:-tests/cgroup.bats,tests/clone3.bats,tests/cgroup-track.bats,tests/limits.bats,tests/watch.bats}
VM_BENCH=${VM_BENCH:-1}
VM_TOOLS=${VM_TOOLS-setpriv setsid unshare nsenter mount umount flock \
	getent find useradd userdel groupadd groupdel ps pgrep pkill jq}
VM_SELFTEST=${VM_SELFTEST:-0}
VM_SYSTEMD=${VM_SYSTEMD:-1}
VM_SYSTEMD_TESTS=${VM_SYSTEMD_TESTS:-tests/systemd.bats}
VM_SYSTEMD_MIRROR=${VM_SYSTEMD_MIRROR:-http://deb.debian.org/debian}
# What the systemd guest's root holds beyond debootstrap's minbase: the
# init, the bus and logind's PAM module (login sessions), the test tools.
SD_PACKAGES=systemd,systemd-sysv,dbus,libpam-systemd,bats,jq,procps
stage=
declare -A kimage=() krelease=()

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
	local name
	mkdir -p "$cache"
	fetch busybox-static
	fetch bash-static
	fetch bats
	unpack busybox-static
	unpack bash-static
	unpack bats
	kernels=()
	if [ -n "${VM_KERNEL:-}" ]; then
		[ -f "$VM_KERNEL" ] || die "VM_KERNEL: no such file: $VM_KERNEL"
		kernels=(custom)
		kimage[custom]=$VM_KERNEL
		# vmlinuz-RELEASE names what uname -r will say; else unchecked.
		krelease[custom]=$(basename "$VM_KERNEL" | sed -n 's/^vmlinuz-//p')
		return 0
	fi
	for name in $VM_KERNELS; do
		case $name in
		*[!a-z]* | "") die "VM_KERNELS: '$name' is not a Debian suite name" ;;
		esac
		kernel_get "$name"
		kernels+=("$name")
	done
	[ "${#kernels[@]}" -gt 0 ] || die "VM_KERNELS is empty"
}

# host_suite: the codename of this host's Debian, whose apt lists hold
# its kernel already.
host_suite() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

# kernel_get SUITE: find, download, unpack SUITE's kernel image; set
# kimage[SUITE] and krelease[SUITE].
kernel_get() {
	local k
	if [ "$1" = "$(host_suite)" ]; then
		k=$(kernel_host)
	else
		k=$(kernel_private "$1")
	fi
	echo "$k" > "$cache/kernel-$1"
	prune_kernels "$k"
	kernel_unpack "$k"
	kernel_check "$k"
	kimage[$1]=$kimage_path
	krelease[$1]=${k#linux-image-}
}

# kernel_host: the host's own apt lists name the package; downloaded
# with the host's apt, as the other packages are.
kernel_host() {
	local k
	k=$(kernel_pkg apt-cache)
	if [ -z "$k" ]; then
		apt-get update -qq || true
		k=$(kernel_pkg apt-cache)
	fi
	if [ -n "$k" ]; then
		fetch "$k"
	else
		say "no kernel package name from apt; using the cache"
		k=$(kernel_cached "$(host_suite)")
	fi
	echo "$k"
}

# kernel_private SUITE: another suite's kernel through a private apt
# configuration (build-aux/aptpriv.sh: the host's apt state is left
# alone); once cached, used without asking the archive again.
kernel_private() {
	local k apt=$cache/apt-$1
	k=$(kernel_cached "$1")
	if [ -n "$k" ] && [ "${VM_REFRESH:-0}" != 1 ]; then
		echo "$k"
		return 0
	fi
	. "$srcdir/build-aux/aptpriv.sh"
	say "looking up $1's kernel (private apt config in $apt)"
	apt_setup "$apt" deb amd64 "$1"
	apt_run "$apt" update > "$apt.log" 2>&1 ||
		say "apt-get update ($1) had errors: see $apt.log"
	k=$(kernel_pkg apt_cache "$apt")
	if [ -z "$k" ]; then
		k=$(kernel_cached "$1")
		[ -n "$k" ] || die "no linux-image-amd64 in $1 (see $apt.log)"
		say "no kernel package name from $1's lists; using the cache"
	elif ! ls "$cache/$k"_*.deb >/dev/null 2>&1; then
		say "downloading $k ($1)"
		(cd "$cache" && apt_run "$apt" download "$k") >> "$apt.log" 2>&1 ||
			die "cannot download $k from $1 (see $apt.log)"
	fi
	apt_drop_lists "$apt"
	echo "$k"
}

# kernel_pkg APT-CACHE [DIR]: the versioned image package that
# linux-image-amd64 depends on.
kernel_pkg() {
	"$@" depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# kernel_cached SUITE: the package last used for SUITE, if its .deb is
# still here.
kernel_cached() {
	local k
	k=$(cat "$cache/kernel-$1" 2>/dev/null) || return 0
	ls "$cache/$k"_*.deb >/dev/null 2>&1 && echo "$k"
	return 0
}

# prune_kernels PKG: drop cached kernels of PKG's series (linux-image-
# 6.1., linux-image-5.10.) other than PKG; another suite's stay.
prune_kernels() {
	local f series
	series=$(echo "$1" | sed -n 's/^\(linux-image-[0-9]*\.[0-9]*\.\).*/\1/p')
	[ -n "$series" ] || return 0
	for f in "$cache/$series"*; do
		case ${f##*/} in "$1" | "$1"_*) continue ;; esac
		[ -e "$f" ] && rm -rf "$f"
	done
	return 0
}

# kernel_unpack PKG: only the vmlinuz and its config, not the 300 MB
# of modules; sets kimage_path.
kernel_unpack() {
	local deb
	deb=$(ls "$cache/$1"_*.deb | sort -V | tail -n 1)
	kimage_path=$(ls "$cache/$1"/boot/vmlinuz-* 2>/dev/null | head -n 1) || true
	if [ -z "$kimage_path" ] || ! ls "$cache/$1"/boot/config-* >/dev/null 2>&1; then
		mkdir -p "$cache/$1"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$cache/$1" --wildcards './boot/vmlinuz-*' './boot/config-*'
		kimage_path=$(ls "$cache/$1"/boot/vmlinuz-* | head -n 1)
	fi
}

# kernel_check PKG: the guest loads no module (its initramfs has none),
# so what it needs must be built into the image: check the package's
# config for it.
kernel_check() {
	local config opt missing=
	config=$(ls "$cache/$1"/boot/config-* | head -n 1)
	for opt in BLK_DEV_INITRD RD_GZIP SERIAL_8250_CONSOLE DEVTMPFS TMPFS \
		UNIX98_PTYS BINFMT_SCRIPT CGROUPS CGROUP_SCHED FAIR_GROUP_SCHED \
		PID_NS USER_NS SECCOMP; do
		grep -qx "CONFIG_$opt=y" "$config" || missing="$missing $opt"
	done
	[ -z "$missing" ] ||
		die "$1 lacks, built in, what the guest needs:$missing"
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
	say "initramfs $(($(stat -c %s "$stage/initrd.gz") / 1024)) KiB"
}

# sd_root: the systemd guest's root file system, made once by
# debootstrap (minbase plus SD_PACKAGES) into the cache, trimmed of what
# a test run never reads (docs, locales, apt's lists), and packed as one
# initramfs archive: the guest runs from it, as the others do, since the
# kernel has no disk driver built in.  Remade when SD_PACKAGES changes.
sd_root() {
	local dir=$cache/systemd-root cpio=$cache/systemd-root.cpio.gz
	local bb=$cache/busybox-static/bin/busybox
	if [ -f "$cpio" ] && [ "$(cat "$dir.from" 2>/dev/null)" = "$SD_PACKAGES" ]; then
		return 0
	fi
	if ! command -v debootstrap >/dev/null && [ "${DEPS:-1}" = 1 ]; then
		"$srcdir/build-aux/deps.sh" debootstrap:debootstrap
	fi
	command -v debootstrap >/dev/null ||
		die "debootstrap not found: apt-get install debootstrap"
	rm -rf "$dir" "$dir.tmp" "$cpio"
	say "debootstrap bookworm into $dir (minbase, $SD_PACKAGES; once)"
	debootstrap --variant=minbase --include="$SD_PACKAGES" bookworm \
		"$dir.tmp" "$VM_SYSTEMD_MIRROR" > "$dir.log" 2>&1 ||
		die "debootstrap failed (see $dir.log)"
	rm -rf "$dir.tmp"/usr/share/{doc,man,info,locale} \
		"$dir.tmp"/var/cache/apt/* "$dir.tmp"/var/lib/apt/lists/* \
		"$dir.tmp"/etc/udev/hwdb.bin
	mv "$dir.tmp" "$dir"
	(cd "$dir" && find . | "$bb" cpio -o -H newc 2>/dev/null) |
		gzip -1 > "$cpio.tmp"
	mv "$cpio.tmp" "$cpio"
	echo "$SD_PACKAGES" > "$dir.from"
	say "systemd root $(($(stat -c %s "$cpio") / 1024)) KiB packed"
}

# sd_overlay: the second archive, unpacked over the root: /init is
# systemd, the test service (tests/vm/systemd.service) started at boot,
# the project in /src; no getty, no timers that would wake apt.
sd_overlay() {
	local r=$stage/sd u bb=$cache/busybox-static/bin/busybox
	mkdir -p "$r/etc/systemd/system/multi-user.target.wants" "$r/src"
	ln -s /lib/systemd/systemd "$r/init"
	cp "$srcdir/tests/vm/systemd.service" "$r/etc/systemd/system/leash-vm.service"
	ln -s ../leash-vm.service "$r/etc/systemd/system/multi-user.target.wants/"
	for u in serial-getty@ttyS0.service serial-getty@ttyS1.service \
		getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
		e2scrub_all.timer fstrim.timer dpkg-db-backup.timer \
		systemd-tmpfiles-clean.timer; do
		ln -s /dev/null "$r/etc/systemd/system/$u"
	done
	echo leash-vm > "$r/etc/hostname"
	: > "$r/etc/machine-id"
	cp -a "$stage/root/src/." "$r/src/"
	if [ -n "${VM_BENCH_VARIANT:-}" ]; then
		is_static "$VM_BENCH_VARIANT" ||
			die "VM_BENCH_VARIANT $VM_BENCH_VARIANT is not a static binary"
		mkdir -p "$r/src/build/before"
		cp "$VM_BENCH_VARIANT" "$r/src/build/before/leash"
	fi
	(cd "$r" && find . | "$bb" cpio -o -H newc 2>/dev/null) |
		gzip -1 > "$stage/sd-overlay.gz"
	cat "$cache/systemd-root.cpio.gz" "$stage/sd-overlay.gz" > "$stage/sd-initrd.gz"
	rm -f "$stage/sd-overlay.gz"
}

# boot NAME [INITRD]: run the guest on kernel NAME with a hard limit;
# console to its log and stdout.
boot() {
	local initrd=${2:-$stage/initrd.gz}
	local append="console=ttyS0 panic=-1 quiet loglevel=4 LEASH_VM=1"
	append="$append LEASHVM_NAME=$1 LEASHVM_RELEASE=${krelease[$1]:-unknown}"
	append="$append LEASHVM_TESTS=$VM_TESTS LEASHVM_SELFTEST=$VM_SELFTEST"
	append="$append LEASHVM_BENCH=$VM_BENCH"
	[ "$1" != systemd ] ||
		append="$append LEASHVM_TESTS=$VM_SYSTEMD_TESTS systemd.show_status=0"
	append="$append ${VM_APPEND:-}"
	: > "$results"
	say "[$1] booting $(basename "${kimage[$1]}") (qemu tcg, $VM_SMP cpus," \
		"$VM_MEM MiB, limit $VM_TIMEOUT s)"
	set +e
	timeout --foreground -k 30 "$VM_TIMEOUT" \
		qemu-system-x86_64 -accel tcg -cpu max -smp "$VM_SMP" \
		-m "$VM_MEM" -nodefaults -no-user-config -display none \
		-no-reboot -serial stdio -serial "file:$results" \
		-kernel "${kimage[$1]}" -initrd "$initrd" \
		-append "$append" < /dev/null 2>&1 | tee "$console"
	qemu_rc=${PIPESTATUS[0]}
	set -e
}

# report NAME: parse kernel NAME's result lines, print them and its
# summary line; 0 when every stage passed there.
report() {
	local lines pass fail skip bad= ran= secs=$(($(date +%s) - booted))
	lines=$(tr -d '\r' < "$results" | grep '^LEASHVM ' || true)
	grep '^LEASHVM ' <<<"$lines" | sed "s/^/check-vm: [$1] /" >&2
	say "[$1] wall time ${secs} s, guest log in $console"
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		bad="guest timed out after $VM_TIMEOUT s (qemu killed)"
	elif ! grep -q '^LEASHVM boot' <<<"$lines"; then
		bad="guest did not boot (qemu status $qemu_rc)"
	elif ! grep -q '^LEASHVM end' <<<"$lines"; then
		bad="guest stopped before the end (qemu status $qemu_rc)"
	fi
	# The kernel that ran, as the guest's uname -r says.
	ran=$(sed -n 's/^LEASHVM boot kernel=\([^ ]*\).*/\1/p' <<<"$lines")
	if [ -z "$bad" ] && [ -n "${krelease[$1]}" ] &&
	   [ "$ran" != "${krelease[$1]}" ]; then
		bad="the guest ran $ran, not ${krelease[$1]}"
	fi
	pass=$(sum_field pass <<<"$lines")
	fail=$(sum_field fail <<<"$lines")
	skip=$(sum_field skip <<<"$lines")
	if [ -z "$bad" ]; then
		bad=$(grep '^LEASHVM stage=' <<<"$lines" | grep -v ' rc=0 ' |
			sed 's/^LEASHVM stage=\([^ ]*\) \(rc=[0-9]*\).*/\1 (\2)/' |
			paste -sd, - | sed 's/,/, /g' || true)
		[ -z "$bad" ] || bad="failed stages: $bad"
	fi
	[ -n "$bad" ] || [ "$fail" = 0 ] || bad="$fail failed"
	[ -n "$bad" ] || [ "$pass" -gt 0 ] || bad="no test passed"
	init=$(sed -n 's/^LEASHVM boot .* init=\([^ ]*\).*/ (\1 as PID 1)/p' <<<"$lines")
	summary+=("check-vm: [$1] ${ran:-?}${init}: $pass passed, $fail failed, $skip skipped, ${secs} s: ${bad:-ok}")
	[ -z "$bad" ]
}

sum_field() {
	grep '^LEASHVM stage=' |
		sed -n "s/.* $1=\([0-9]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

main() {
	local name rc=0 line
	started=$(date +%s)
	host_deps
	get_packages
	mkdir -p "$builddir"
	stage=$(mktemp -d "$builddir/vm-stage.XXXXXX")
	results=$stage/results
	stage_userland
	stage_project
	make_initrd
	summary=()
	guests=0
	[ "$VM_SYSTEMD" = only ] && kernels=()
	for name in "${kernels[@]}"; do
		console=$builddir/vm-console-$name.log
		booted=$(date +%s)
		boot "$name"
		report "$name" || rc=1
		guests=$((guests + 1))
	done
	if [ "$VM_SYSTEMD" != 0 ] && [ "$VM_SELFTEST" != 1 ]; then
		systemd_guest || rc=1
		guests=$((guests + 1))
	fi
	for line in "${summary[@]}"; do echo "$line"; done
	echo "check-vm: total wall time $(($(date +%s) - started)) s," \
		"$guests guest(s): $([ "$rc" = 0 ] && echo ok || echo FAIL)"
	return "$rc"
}

# systemd_guest: Debian 12 with systemd as PID 1, on bookworm's kernel.
systemd_guest() {
	[ -n "${kimage[bookworm]:-}" ] || kernel_get bookworm
	kimage[systemd]=${kimage[bookworm]}
	krelease[systemd]=${krelease[bookworm]}
	sd_root
	sd_overlay
	console=$builddir/vm-console-systemd.log
	booted=$(date +%s)
	boot systemd "$stage/sd-initrd.gz"
	report systemd
}

main "$@"
