#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# libleash (lib/leash.h, leash(3)) inside hosts: C programs in
# tests/host/ link build/libleash.a as a host would and check what they
# see (each prints "ok", or one FAIL line per broken promise): a host
# with its own child watches in one poll loop, a multithreaded server
# with SIGCHLD blocked everywhere, a host that reaps every child with
# waitpid(-1) or ignores SIGCHLD; then the archive's shape (leash_*
# only, no malloc, printf or qsort of its own) and the ABI (a client
# built against the released header).  leash(1) itself is the library's
# first client: the rest of the suite tests the same launch path.
# make check-cross runs this file under qemu-user (LEASH_EMULATOR set):
# the target's archive and hosts, each started by the emulator.

load helpers
load cgroup-helpers

setup() {
	common_setup
	ROOT=
	HOST=${LEASH_BUILDDIR:-$TOP/build}/host
	LIBA=${LEASH_BUILDDIR:-$TOP/build}/libleash.a
	[[ -x $HOST/host-loop ]] || skip "host tests not built (make)"
}

teardown() {
	common_teardown
	# The leaf test's own root: uid 0's leaves elsewhere are other
	# files' to count (cgroup-track.bats runs beside this one).
	[[ -n ${ROOT:-} ]] && { rmdir "$ROOT/uid_0" "$ROOT" 2>/dev/null; true; }
	return 0
}

@test "library: a host's own child watches and its runs share one loop; every status is the right one" {
	run "$HOST/host-loop"
	assert_status 0
	[[ $output == ok ]]
}

@test "library: in its leaf, a setsid'd grandchild holding the host's pipe dies at the deadline (EOF)" {
	need_root || return
	cg_detect
	need_leaf
	ROOT=$CG2/leashtest.library.$$.${BATS_SUITE_TEST_NUMBER:-0}
	LEASH_CGROUP_ROOT=$ROOT run "$HOST/host-loop" leaf
	assert_status 0
	[[ $output == ok ]]
}

@test "library: a GLib program: g_child_watch_add's children and libleash's runs in one GMainContext, each its own status" {
	local glib=${LEASH_SRCDIR:-$TOP}/build-glibc/host
	# build-glibc's host is this machine's glibc and GLib, not the
	# target's: run here, it would test the native library.
	[[ -z ${LEASH_EMULATOR:-} ]] || skip "under $LEASH_EMULATOR: the GLib host needs this machine's glibc and GLib (build-glibc); the target has no GLib build"
	[[ -x $glib/host-glib ]] || skip "no GLib host (build-glibc/host/host-glib: make check builds it where GLib is installed)"
	run "$glib/host-glib"
	assert_status 0
	[[ $output == ok ]]
}

@test "library: built against glibc (GLIBC=1), the same hosts pass" {
	local glib=${LEASH_SRCDIR:-$TOP}/build-glibc/host h
	[[ -z ${LEASH_EMULATOR:-} ]] || skip "under $LEASH_EMULATOR: build-glibc is this machine's glibc build (cross builds are musl)"
	[[ -x $glib/host-loop ]] || skip "no glibc build of the host tests"
	for h in host-loop host-threads host-reaper host-calls abi-client; do
		run "$glib/$h"
		[[ $status == 0 && $output == ok ]] || { echo "$h: $output"; false; }
	done
}

@test "library: 8 threads, SIGCHLD blocked everywhere: threads, masks, handlers and fds as before, no child left" {
	run "$HOST/host-threads"
	assert_status 0
	[[ $output == ok ]]
}

@test "library: a host reaping with waitpid(-1) in its SIGCHLD handler: statuses recovered (or lost), never wrong" {
	run "$HOST/host-reaper"
	assert_status 0
	reaper_ok
}

@test "library: a host with SIGCHLD ignored (the kernel reaps): statuses recovered (or lost), never wrong" {
	run "$HOST/host-reaper" ignore
	assert_status 0
	reaper_ok
}

@test "library: no pidfd (pidfd_open refused: the waiter thread), SIGCHLD ignored: every status lost, none wrong" {
	local nosys=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}
	[[ -x $nosys ]] || skip "no nosys helper"
	# fork + pidfd_open (LEASH_NO_CLONE3), pidfd_open ENOSYS as before
	# Linux 5.3: the run waits by a thread and reaps by pid.
	run "$nosys" pidfd_open -- "$HOST/host-reaper" ignore fork
	assert_status 0
	[[ ${lines[0]} == ok && ${#lines[@]} == 2 ]]
	[[ ${lines[1]} == "lost 3 of 3: no pidfd here (pidfd_open: Function not implemented)" ]]
}

# host-reaper's "ok": every status recovered; "ok" then "lost N of 3:
# WHY": what it checks held, but this kernel or emulator cannot give a
# stolen status back (PIDFD_INFO_EXIT), which it says.
reaper_ok() {
	[[ ${lines[0]} == ok ]] || { echo "$output"; return 1; }
	[[ ${#lines[@]} == 1 ]] && return 0
	[[ ${#lines[@]} == 2 && ${lines[1]} == "lost "[1-3]" of 3: "* ]] || { echo "$output"; return 1; }
	skip "stolen statuses lost, not recovered: ${lines[1]#*: }; recovery needs PIDFD_INFO_EXIT"
}

@test "library: the launch path a plain run takes is the one the kernel (or emulator) offers, and the outcome names its fallback" {
	run "$HOST/host-calls" paths
	assert_status 0
	if [[ ${LEASH_EMULATOR:-} == qemu-*" version 7."* ]]; then
		# qemu-user 7.2: clone() with CLONE_PIDFD is EINVAL (its fork
		# emulation takes no CLONE_PIDFD), clone3 is ENOSYS; its
		# pidfd_open is the kernel's: fork, then pidfd_open (no thread).
		assert_output "exited 9 fallbacks: clone3"
	elif [[ -n ${LEASH_EMULATOR:-} ]]; then
		# Another emulator: either, but never the thread.
		[[ $output == "exited 9 fallbacks: none" ||
		   $output == "exited 9 fallbacks: clone3" ]]
	else
		# The vfork-style child with its pidfd (CLONE_PIDFD, 5.2).
		assert_output "exited 9 fallbacks: none"
	fi
}

@test "library: the calls: failed exec, bad arguments, another uid, a signal, a run freed while it runs" {
	run "$HOST/host-calls"
	assert_status 0
	[[ $output == ok ]]
}

@test "library: a client built against the released header (API 1) links and runs against this archive" {
	run "$HOST/abi-client"
	assert_status 0
	[[ $output == ok ]]
}

@test "library: libleash.a exports leash_* only and defines no malloc, printf or qsort of its own" {
	local nm=${NM:-nm}
	command -v "$nm" >/dev/null || skip "no $nm"
	run "$nm" -g --defined-only "$LIBA"
	assert_status 0
	local names
	names=$(awk 'NF == 3 { print $3 }' <<<"$output")
	[[ -n $names ]]
	run grep -v '^leash_' <<<"$names"
	[[ -z $output ]] || { echo "exported beyond leash_*: $output"; false; }
	# Not even as local definitions: the host's libc serves these.
	run "$nm" "$LIBA"
	run grep -E ' [TtWw] (malloc|calloc|realloc|free|printf|fprintf|vfprintf|snprintf|vsnprintf|qsort|strstr)$' <<<"$output"
	[[ -z $output ]] || { echo "its own: $output"; false; }
}

@test "library: 8 threads failing at once (a cgroup root not there), 400 runs each: every message names its own root, every error ENOENT, nothing printed" {
	[[ -x $HOST/inside-fail-threads ]] || skip "white-box host not built"
	run "$HOST/inside-fail-threads" 8 400
	assert_status 0
	[[ $output == ok ]]
}

# The writable data the leash_* calls can reach: the archive linked
# again keeping only what they reach (ld -r --gc-sections, the leash_*
# names as roots), then every object in .data, .bss or thread-local
# storage.  Each must be in tests/host/state.allow with why no two runs
# share it; a static buffer put on the library's path fails here.
@test "library: every writable datum the leash_* calls reach is listed, with why no two runs share it" {
	local ld=${LD:-ld} objdump=${OBJDUMP:-objdump}
	local allow=${LEASH_SRCDIR:-$TOP}/tests/host/state.allow
	command -v "$ld" >/dev/null && command -v "$objdump" >/dev/null ||
		skip "no ld or objdump"
	# The sanitizers' instrumentation brings writable data of its own.
	! grep -q fsanitize "${LEASH_BUILDDIR:-$TOP/build}/.flags" 2>/dev/null ||
		skip "a sanitizer build"
	local roots=() s
	for s in $(sed -n 's/^[a-z].*[ *]\(leash_[a-z_]*\)(.*/\1/p' \
			"${LEASH_SRCDIR:-$TOP}/lib/leash.h"); do
		roots+=(-u "$s")
	done
	(( ${#roots[@]} > 30 ))
	run "$ld" -r --gc-sections "${roots[@]}" -o "$TMP/reach.o" "$LIBA"
	assert_status 0
	run "$objdump" -t "$TMP/reach.o"
	assert_status 0
	local found
	found=$(awk 'NF >= 5 && $NF !~ /^\./ && $(NF-2) ~ /^\.(data|bss|tdata|tbss)/ &&
		     $(NF-2) !~ /^\.data\.rel\.ro/ { print $NF }' <<<"$output" | sort -u)
	[[ $found == *fallback_taken* ]]       # the list is read at all
	run comm -23 <(printf '%s\n' "$found") \
		<(grep -v '^#' "$allow" | cut -f1 | sort -u)
	[[ -z $output ]] || { echo "writable data on the library's path, not in state.allow: $output"; false; }
}

@test "library: make install-lib DESTDIR= puts header, archive, leash.pc and leash(3) where a packager expects them; a client builds from them" {
	[[ -z ${LEASH_EMULATOR:-} ]] || skip "under $LEASH_EMULATOR: make install-lib installs this machine's build"
	[[ ${LEASH_BUILDDIR:-$TOP/build} == "$TOP/build" ]] || skip "another build directory"
	local d=$TMP/dest cc
	run make -C "$TOP" --no-print-directory WERROR=1 install-lib DESTDIR="$d" prefix=/usr
	assert_status 0
	[[ -f $d/usr/include/leash.h && -f $d/usr/lib/libleash.a ]]
	[[ -f $d/usr/lib/pkgconfig/leash.pc && -f $d/usr/share/man/man3/leash.3 ]]
	[[ $(readlink "$d/usr/share/man/man3/leash_spawn.3") == leash.3 ]]
	grep -qx 'Libs: -L${libdir} -lleash' "$d/usr/lib/pkgconfig/leash.pc"
	grep -qx 'libdir=/usr/lib' "$d/usr/lib/pkgconfig/leash.pc"
	cc=$(sed -n 's/^CC = //p' "$TOP/config.mk")
	[[ -n $cc ]] || skip "no CC in config.mk"
	# The example a host would write, from the installed files only.
	run $cc -I"$d/usr/include" -o "$TMP/client" "$TOP/tests/host/abi-client.c" \
		-DABI_HEADER='<leash.h>' -L"$d/usr/lib" -lleash -pthread
	assert_status 0
	run "$TMP/client"
	assert_status 0
	[[ $output == ok ]]
}
