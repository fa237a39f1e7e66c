#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Born in the leaf: lib/spawn/clone3.c's fork into a cgroup2 directory on this
# architecture (check-cross runs this file under qemu-user too), leash's
# child started in its leaf without a write to cgroup.procs, and the
# fork + join path wherever clone3 is missing (ENOSYS, EPERM, E2BIG, as
# old kernels and container filters answer).  Root and cgroup2 needed.

load helpers
load cgroup-helpers

setup() {
	common_setup
	need_root || return
	cg_detect
	need_leaf
	CHECK=${CLONE3_CHECK:-${LEASH_BUILDDIR:-$TOP/build}/clone3-check}
	NOSYS=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}
	cg_uids
	cg_remove_uid "$UA"
	DIR=
}

teardown() {
	common_teardown
	[[ -n ${DIR:-} && -d $DIR ]] && rmdir "$DIR"
	[[ -n ${UA:-} ]] && cg_remove_uid "$UA"
	return 0
}

@test "clone3_into: the child starts in the cgroup, on its own memory and stack" {
	[[ -x $CHECK ]] || skip "build/clone3-check not built"
	DIR=$CG2/leashtest.clone3.$$
	mkdir "$DIR"
	run "$CHECK" "$DIR"
	if [[ $status == 3 ]]; then
		# No clone3 for this binary (qemu-user 7.2 says ENOSYS): what
		# leash does then is the fork path, tested below.
		[[ $output == "clone3: ENOSYS" || $output == "clone3: EPERM" ||
		   $output == "clone3: E2BIG" ]]
		skip "no clone3 here ($output): leash forks and joins"
	fi
	assert_status 0
	assert_output "clone3: born in ${DIR#$CG2}"
}

@test "clone3_into: a cgroup removed after it was opened is ENOENT" {
	[[ -x $CHECK ]] || skip "build/clone3-check not built"
	DIR=$CG2/leashtest.clone3.$$
	mkdir "$DIR"
	# Opened here, removed, then reached through the descriptor.
	exec {fd}<"$DIR"
	rmdir "$DIR"
	run "$CHECK" "/proc/self/fd/$fd"
	exec {fd}<&-
	[[ $status == 3 ]] && skip "no clone3 here ($output)"
	assert_status 1
	[[ $output == "clone3: failed: No such file or directory" ]]
}

@test "leash -u: the command is born in its leaf, no write to its cgroup.procs" {
	need_strace
	# -y: descriptors shown with their paths.
	run "${TRACED[@]}" -f -qq -y -e trace=clone3,openat -o "$TMP/trace" \
		"$LEASH" -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $(v2_path_of "$output") == /leash/uid_$UA/run_* ]]
	grep -q 'clone3({flags=CLONE_INTO_CGROUP' "$TMP/trace"
	# The leaf's cgroup.procs is never opened (v1's cpu group's is).
	! grep -E 'run_[0-9_]+(>, "|/)cgroup\.procs' "$TMP/trace"
}

# nosys_leash ERRNO: leash with clone3 failing with ERRNO; the probe's
# cgroup line in $output.
nosys_leash() {
	[[ -x $NOSYS ]] || skip "no nosys helper"
	run "$NOSYS" -e "$1" clone3 -- "$LEASH" -v -u "$UA" -- "$PROBE" -k cgroup
	assert_status 0
	[[ $(v2_path_of "$output") == /leash/uid_$UA/run_[0-9]*_[0-9]* ]]
	[[ $(cpu_path_of "$output") == */leash/uid_$UA* ]]
	[[ $output == *"leash: cgroup: removed $(leaf_parent "$UA")/run_"* ]]
	[[ -z $(leaves_of "$UA") ]]
}

@test "without clone3 (ENOSYS: before 5.3, or a filter) the child joins its leaf" {
	nosys_leash ENOSYS
}

@test "without clone3 (EPERM: a container's filter) the child joins its leaf" {
	nosys_leash EPERM
}

@test "without clone3 (E2BIG: 5.3 to 5.6, no cgroup field) the child joins its leaf" {
	nosys_leash E2BIG
}

@test "without clone3 (SIGSYS: an Android app's filter traps it) the child joins its leaf" {
	nosys_leash TRAP
}

@test "a leaf lost at birth that cannot be made again fails the launch (125), never runs outside it" {
	need_root
	command -v strace >/dev/null || skip "needs strace"
	strace -qq -o /dev/null -e inject=getpid:retval=1:when=1000 true 2>/dev/null ||
		skip "strace cannot inject faults here"
	# A first run makes the uid groups (setup removed them), so the
	# leaf's mkdirat is leash's first: clone3 says the leaf is gone,
	# then every mkdir of a new one fails.
	"$LEASH" -u "$UA" -t 10 -- true
	run "${TRACED[@]}" -f -qq -o /dev/null -e inject=clone3:error=ENOENT:when=1 \
		-e inject=mkdirat:error=ENOENT:when=2+ \
		"$LEASH" -u "$UA" -t 10 -- cat /proc/self/cgroup
	echo "$output" >&2
	assert_status 125
	[[ $output == *"cannot join cgroup"* ]]
	[[ $output != *"0::/"$'\n'* && $output != *"0::/" ]]
}
