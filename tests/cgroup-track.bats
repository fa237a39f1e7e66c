#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The tracking leaf: a per-launch leaf in cgroup2 without a cpu group,
# asked for with --cgroup=track (root without -u: not the default, it
# costs a mkdir and an rmdir per launch), and used by auto where no
# hierarchy has cpu (in a private mount namespace that shows cgroup2
# only).  A setsid() escapee dies at the deadline either way.  Root only.

load helpers
load cgroup-helpers

setup() {
	common_setup
	need_cgroup
	need_leaf
	cg_uids
	W=$(mktemp -d /tmp/leash-cgt.XXXXXX) && chmod 1777 "$W"
	cg_remove_uid "$UA"
	UID0_LEAF=
	[[ -d $(leaf_parent 0) ]] || UID0_LEAF=1
}

teardown() {
	common_teardown
	[[ -n ${UA:-} ]] && cg_remove_uid "$UA"
	[[ -n ${UID0_LEAF:-} ]] && rmdir "$(leaf_parent 0)" 2>/dev/null
	[[ -n ${W:-} && -d $W ]] && rm -rf "$W"
	return 0
}

escapee() {
	echo 'setsid "$1" -m "$2" -o "$3" -s inf >/dev/null 2>&1 & wait'
}

@test "--cgroup=track without -u: a leaf in cgroup2, no cpu group" {
	[[ $CG_V == 1 ]] || skip "cpu is on cgroup2: the leaf is in the cpu hierarchy too"
	before=$("$PROBE" -k cgroup)
	run "$LEASH" -v --cgroup=track -- "$PROBE" -k cgroup
	assert_status 0
	[[ $(v2_path_of "$output") == /leash/uid_0/run_[0-9]*_[0-9]* ]]
	# The cpu group is the caller's: no uid_0 cpu group joined.
	[[ $(cpu_path_of "$output") == "$(cpu_path_of "$before")" ]]
	[[ $output != *"cgroup v1:"* ]]
	[[ $output == *"leash: cgroup: removed $(leaf_parent 0)/run_"* ]]
	[[ -z $(leaves_of 0) ]]
}

@test "--cgroup=track: a setsid() escapee dies at the deadline (root, no -u)" {
	run bounded "$LEASH" --cgroup=track -t 1 -- sh -c "$(escapee)" sh \
		"$PROBE" "$MARK" "$W/esc"
	assert_status 124
	pid=$(report_get pid "$W/esc")
	[[ $(report_get sid "$W/esc") == "$pid" ]]
	wait_gone "$pid" 5
	assert_no_leftovers
}

@test "--cgroup=track with -u: the leaf only, in the uid's group" {
	run "$LEASH" --cgroup=track -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $(v2_path_of "$output") == /leash/uid_$UA/run_* ]]
	if [[ $CG_V == 1 ]]; then
		[[ $(cpu_path_of "$output") != */uid_$UA* ]]
		[[ ! -e $(cpu_group "$UA") ]]
	fi
}

@test "--cgroup=track with --cpu-weight is an error, nothing is made" {
	run "$LEASH" --cgroup=track --cpu-weight 50 -u "$UA" -- true
	assert_status 125
	[[ ${lines[0]} == "leash: --cpu-weight needs the cpu group, which --cgroup=track does not make"* ]]
	[[ ! -e $(leaf_parent "$UA") ]]
}

@test "the default without -u stays out of cgroupfs (the leaf is asked for)" {
	run "$LEASH" -v -t 10 -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output != *leash/uid_* && $output != *"cgroup:"* ]]
}

@test "no cpu controller anywhere: auto's tracking leaf catches a setsid() escapee" {
	[[ $CG_V == 1 ]] || skip "cpu is on cgroup2 here"
	need_mountns
	only_v2='mount -t tmpfs leashtest /sys/fs/cgroup &&
		mkdir /sys/fs/cgroup/unified &&
		mount -t cgroup2 leashtest /sys/fs/cgroup/unified'
	run bounded unshare -m --propagation private sh -c "$only_v2"' || exit 99
		exec "$@"' sh "$LEASH" -u "$UA" -t 1 -- sh -c "$(escapee)" sh \
		"$PROBE" "$MARK" "$W/esc"
	assert_status 124
	pid=$(report_get pid "$W/esc")
	wait_gone "$pid" 5
	assert_no_leftovers
	[[ -z $(leaves_of "$UA") ]]
}
