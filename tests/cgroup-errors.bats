#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The cgroup error paths, per --cgroup mode: no cpu hierarchy, a
# read-only one, cgroup2 without cpu, a bad --cgroup-root.  The mount
# tricks run inside a private mount namespace (unshare -m), so the
# machine's own mounts never change.  Root only.

load helpers
load cgroup-helpers

setup() {
	common_setup
	need_cgroup
	need_mountns
	cg_uids
	cg_remove_uid "$UA"
	OUT=$TMP/started
	PARENT=
}

teardown() {
	common_teardown
	[[ -n ${UA:-} ]] && cg_remove_uid "$UA"
	if [[ -n ${PARENT:-} ]]; then
		rmdir "$PARENT"/*/*/*/ "$PARENT"/*/*/ "$PARENT"/*/ "$PARENT" 2>/dev/null
	fi
	return 0
}

# require_fails SETUP: `leash --cgroup=require -u UA` in the namespace
# SETUP fails with 125 and starts nothing; its message is left in $lines.
require_fails() {
	run in_ns "$1" "$LEASH" --cgroup=require -u "$UA" -- "$PROBE" -o "$OUT"
	assert_status 125
	[[ ! -e $OUT ]]
}

hide_all='mount -t tmpfs leashtest /sys/fs/cgroup'

@test "no cgroup at all: auto runs without and says so under -v" {
	run in_ns "$hide_all" "$LEASH" -v -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output == *"leash: running without a cgroup: no cgroup mount with the cpu controller"* ]]
	[[ $(cpu_path_of "$output") == / ]]
}

@test "no cgroup at all: require fails with 125 and starts nothing" {
	require_fails "$hide_all"
	[[ ${lines[0]} == "leash: no cgroup mount with the cpu controller"* ]]
}

@test "no cgroup at all: off runs quietly" {
	run in_ns "$hide_all" "$LEASH" -v --cgroup=off -u "$UA" -- true
	assert_status 0
	[[ $output != *cgroup* ]]
}

@test "read-only cpu hierarchy: auto runs without, naming path and EROFS" {
	run in_ns "$(read_only "$CG_CPU")" "$LEASH" -v -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output == *"leash: running without a cgroup: cannot create cgroup '$CG_TOP"*"': Read-only file system"* ]]
	[[ $(cpu_path_of "$output") == / ]]
	[[ ! -e $(cpu_group "$UA") ]]
}

@test "read-only cpu hierarchy: require fails with path, EROFS and a hint" {
	require_fails "$(read_only "$CG_CPU")"
	[[ ${lines[0]} == "leash: cannot create cgroup '$CG_TOP"*"': Read-only file system"* ]]
	[[ ${lines[0]} == *"--cgroup-root"* ]]
}

@test "hybrid, read-only cgroup2: auto keeps the cpu group, loses the leaf" {
	[[ $CG_V == 1 && -n $CG2 ]] || skip "needs cpu on v1 and a cgroup2 mount"
	run in_ns "$(read_only "$CG2")" \
		"$LEASH" -v -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output == *"leash: cgroup: no per-launch leaf: cannot create cgroup '$LEAF_TOP"*"Read-only file system"* ]]
	[[ $(cpu_path_of "$output") == /leash/uid_$UA ]]
	require_fails "$(read_only "$CG2")"
	[[ ${lines[0]} == *"Read-only file system"* ]]
}

only_v2="$hide_all && mkdir /sys/fs/cgroup/unified &&
	mount -t cgroup2 leashtest /sys/fs/cgroup/unified"

@test "cgroup2 without cpu and no v1 cpu: auto tracks in a leaf, require fails" {
	[[ $CG_V == 1 ]] || skip "cpu is on cgroup2 here"
	run in_ns "$only_v2" "$LEASH" -v -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output == *"leash: cgroup: tracking leaf only: no cpu cgroup controller available"* ]]
	# In the leaf (the same cgroup2 hierarchy as the host's), which is
	# removed afterwards.
	[[ $(v2_path_of "$output") == /leash/uid_$UA/run_[0-9]*_[0-9]* ]]
	[[ $output == *"leash: cgroup: removed /sys/fs/cgroup/unified/leash/uid_$UA/run_"* ]]
	[[ -z $(leaves_of "$UA") ]]
	require_fails "$only_v2"
	[[ ${lines[0]} == "leash: no cpu cgroup controller available (not in /sys/fs/cgroup/unified/cgroup.controllers"* ]]
}

@test "--cgroup-root where cpu is not enabled: names the group and the fix" {
	[[ -n $CG2 ]] || skip "no cgroup2 mount"
	# A cgroup2 parent that enables nothing for its children.
	PARENT=$CG2/leashtest.$$
	mkdir "$PARENT"
	run "$LEASH" --cgroup=require --cgroup-root "$PARENT/r" -u "$UA" -- \
		"$PROBE" -o "$OUT"
	assert_status 125
	[[ ${lines[0]} == "leash: cpu controller not enabled for '$PARENT/r' (enable cpu in the parent's cgroup.subtree_control or delegate it)"* ]]
	[[ ! -e $OUT ]]
	# What this attempt made is gone again.
	[[ ! -e $PARENT/r ]]
	# auto: not dropped without a word; a tracking leaf in it instead.
	run "$LEASH" -v --cgroup-root "$PARENT/r" -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $output == *"leash: cgroup: tracking leaf only: cpu controller not enabled for '$PARENT/r'"* ]]
	[[ $(v2_path_of "$output") == "${PARENT#$CG2}/r/uid_$UA/run_"* ]]
	[[ -d $PARENT/r/uid_$UA && -z $(ls -d "$PARENT/r/uid_$UA"/run_* 2>/dev/null) ]]
}

@test "--cgroup-root outside cgroupfs is an error even in auto" {
	run "$LEASH" --cgroup-root "$TMP/nocg" -u "$UA" -- "$PROBE" -o "$OUT"
	assert_status 125
	[[ ${lines[0]} == "leash: --cgroup-root '$TMP/nocg' is not on a cgroup filesystem"* ]]
	[[ ! -e $OUT ]]
}

@test "v2: a process in R is reported, not silently broken" {
	[[ $CG_V == 2 ]] || skip "cpu is not on cgroup2 here"
	mkdir -p "$CG_TOP"
	"$PROBE" -m "$MARK" -s inf >/dev/null 2>&1 &
	pid=$!
	track "$pid"
	echo "$pid" >"$CG_TOP/cgroup.procs"
	run "$LEASH" -u "$UA" -- "$PROBE" -o "$OUT"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	assert_status 125
	[[ ${lines[0]} == "leash: cgroup '$CG_TOP' "* ]]
	[[ ! -e $OUT ]]
}

@test "a join failure in the child: 125 with path, errno and hint" {
	[[ $CG_V == 1 ]] || skip "needs the v1 cpu hierarchy"
	command -v chrt >/dev/null || skip "no chrt(1)"
	# A real-time task cannot join a v1 cpu group whose
	# cpu.rt_runtime_us is 0, the default of a new group.
	[[ -e $CG_TOP/cpu.rt_runtime_us ]] || mkdir -p "$CG_TOP"
	[[ -e $CG_TOP/cpu.rt_runtime_us ]] || skip "no RT group scheduling"
	run chrt -f 1 "$LEASH" -u "$UA" -- "$PROBE" -o "$OUT"
	assert_status 125
	assert_output "leash: cannot join cgroup '$(cpu_group "$UA")': Invalid argument (a real-time task needs cpu.rt_runtime_us in the group)"
	[[ ! -e $OUT ]]
	[[ -z $(leaves_of "$UA") ]]
}
