#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The cgroup search's fast path against its full path (issue 22: every
# fast path is proven by the slow one).  A steady launch finds its uid
# groups where they usually are, without reading mountinfo
# (lib/cgroup/cgfind.c's cg_fast_find); the first launch of a uid reads
# mountinfo.  In each layout below, built in a private mount namespace
# from directories of this test's own in the real hierarchies, leash
# makes the groups once, then tests/cgfind-check.c runs both searches
# and fails when the fast one names other groups, or the same ones by
# other paths, than the full one.  Root only.

load helpers
load cgroup-helpers

CHECK=${LEASH_BUILDDIR:-$TOP/build}/cgfind-check

setup() {
	common_setup
	need_root || return
	need_mountns || return
	cg_detect
	[[ -n $CG2 ]] || must_run_or_skip "no cgroup2 mount" || return
	[[ -x $CHECK ]] || must_run_or_skip "no $CHECK (make builds it)" || return
	cg_uids
	local name=leash-fast.$BATS_ROOT_PID.${BATS_SUITE_TEST_NUMBER:-0}
	SB2=$CG2/$name SB1=
	mkdir "$SB2"
	if [[ $CG_V == 1 ]]; then
		SB1=$CG_CPU/$name
		mkdir "$SB1"
	fi
}

teardown() {
	common_teardown
	cg_sandbox_remove "${SB1:-}" "${SB2:-}"
	return 0
}

need_v1() {
	[[ -n $SB1 ]] || skip "cpu is not on a v1 hierarchy here"
}

# in_layout MODE PLACE=WHAT... -- : in a private mount namespace whose
# cgroups are only the PLACEs (on a tmpfs over /sys/fs/cgroup; under /dev
# on a tmpfs there too, with the host's null, zero, urandom and tty), each
# WHAT being v1 (this test's directory of the v1 cpu hierarchy), v2 (its
# directory of cgroup2), or link:TARGET (a symbolic link): leash -u UA
# --cgroup=MODE makes the groups, then cgfind-check compares the two
# searches.  The host's cpu and cgroup2 mounts are unmounted inside the
# namespace, so that mountinfo lists only the layout's.
in_layout() {
	local mode=$1
	shift
	run unshare -m --propagation private -- bash -s -- "$mode" "$UA" \
		"$LEASH" "$CHECK" "$TMP" "$SB1" "$SB2" "$CG_CPU" "$CG2" "$@" <<'EOF'
set -eu
mode=$1 uid=$2 leash=$3 check=$4 tmp=$5 sb1=$6 sb2=$7 cpu=$8 cg2=$9
shift 9
mkdir -p "$tmp/src1" "$tmp/src2" "$tmp/dev"
[[ -n $sb1 ]] && mount --bind "$sb1" "$tmp/src1"
mount --bind "$sb2" "$tmp/src2"
[[ $cpu != "$cg2" && -n $cpu ]] && umount -l "$cpu"
umount -l "$cg2"
if [[ " $* " == *" /dev/"* ]]; then
	mount --bind /dev "$tmp/dev"
	mount -t tmpfs -o mode=755 leash-test-dev /dev
	for n in null zero urandom tty; do
		: >"/dev/$n"
		mount --bind "$tmp/dev/$n" "/dev/$n"
	done
	umount "$tmp/dev"
fi
mount -t tmpfs -o mode=755 leash-test-cg /sys/fs/cgroup
for item in "$@"; do
	place=${item%%=*} what=${item#*=}
	case $what in
	v1) mkdir -p "$place"; mount --bind "$tmp/src1" "$place" ;;
	v2) mkdir -p "$place"; mount --bind "$tmp/src2" "$place" ;;
	link:*) ln -s "${what#link:}" "$place" ;;
	esac
done
umount "$tmp/src2"
[[ -n $sb1 ]] && umount "$tmp/src1"
"$leash" -u "$uid" --cgroup="$mode" -- true </dev/null
opt=()
[[ $mode == track ]] && opt=(--track)
exec "$check" "${opt[@]}" "$uid"
EOF
	echo "$output" >&2
}

# assert_fast_agrees: the fast path found the groups (it is the steady
# state) and the full path plans the same.
assert_fast_agrees() {
	assert_status 0
	[[ ${lines[-2]} == "fast: version="* ]]
}

@test "cgroup fast path = full path: hybrid, cpu at /sys/fs/cgroup/cpu, cgroup2 at .../unified" {
	need_v1
	in_layout auto /sys/fs/cgroup/cpu=v1 /sys/fs/cgroup/unified=v2
	assert_fast_agrees
	[[ ${lines[-1]} == "full: version=1 cpu_top=/sys/fs/cgroup/cpu/leash "* ]]
	in_layout track /sys/fs/cgroup/cpu=v1 /sys/fs/cgroup/unified=v2
	assert_fast_agrees
}

@test "cgroup fast path = full path: systemd's hybrid, cpu at /sys/fs/cgroup/cpu,cpuacct with the links cpu and cpuacct" {
	need_v1
	local layout=(/sys/fs/cgroup/cpu,cpuacct=v1 /sys/fs/cgroup/cpu=link:cpu,cpuacct
		/sys/fs/cgroup/cpuacct=link:cpu,cpuacct /sys/fs/cgroup/unified=v2)
	in_layout auto "${layout[@]}"
	assert_fast_agrees
	[[ ${lines[-1]} == "full: version=1 cpu_top=/sys/fs/cgroup/cpu,cpuacct/leash "* ]]
	in_layout track "${layout[@]}"
	assert_fast_agrees
}

@test "cgroup fast path = full path: Android 12+, cpu at /dev/cpuctl, cgroup2 at /sys/fs/cgroup" {
	need_v1
	in_layout auto /dev/cpuctl=v1 /sys/fs/cgroup=v2
	assert_fast_agrees
	[[ ${lines[-1]} == "full: version=1 cpu_top=/dev/cpuctl/leash "* ]]
	in_layout track /dev/cpuctl=v1 /sys/fs/cgroup=v2
	assert_fast_agrees
}

@test "cgroup fast path = full path: Android 10-11, cpu at /dev/cpuctl, cgroup2 at /dev/cg2_bpf" {
	need_v1
	in_layout auto /dev/cpuctl=v1 /dev/cg2_bpf=v2
	assert_fast_agrees
	[[ ${lines[-1]} == *" leaf_top=/dev/cg2_bpf/leash "* ]]
	in_layout track /dev/cpuctl=v1 /dev/cg2_bpf=v2
	assert_fast_agrees
}

@test "cgroup fast path = full path: cgroup2 at /sys/fs/cgroup, with cpu where the host has it there, else a tracking leaf" {
	if [[ $CG_V == 2 ]]; then
		in_layout auto /sys/fs/cgroup=v2
		assert_fast_agrees
		[[ ${lines[-1]} == "full: version=2 cpu_top=/sys/fs/cgroup/leash "* ]]
	fi
	in_layout track /sys/fs/cgroup=v2
	assert_fast_agrees
	[[ ${lines[-1]} == *" leaf_top=/sys/fs/cgroup/leash "* ]]
}

@test "cgroup fast path: no cpu hierarchy (auto's tracking leaf only): it hands over to the full path" {
	need_v1
	in_layout auto /sys/fs/cgroup/cpu=link:nowhere /sys/fs/cgroup/unified=v2
	assert_status 0
	[ "${lines[-1]}" = "fast: none" ]
}
