#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The cgroup plan's paths: each holds up to CGROUP_PATH_MAX - 1 bytes
# whatever the others hold.  The test makes a tracking leaf under a deep
# --cgroup-root in cgroup2 (root), and removes everything it made.

load helpers
load cgroup-helpers

setup() {
	common_setup
	BASE=
}

teardown() {
	common_teardown
	# Deepest first: rmdir takes empty cgroups only.
	[[ -n $BASE && -d $BASE ]] &&
		find "$BASE" -depth -type d -exec rmdir {} + 2>/dev/null
	return 0
}

@test "cgroup paths: a --cgroup-root near PATH_MAX, so three paths of ~4 KiB at once, still runs in its leaf" {
	need_root "makes cgroups"
	cg_detect
	need_leaf
	# 4096 - the leaf's "/uid_0/run_<pid>_<ns>" (< 50) - a margin.
	local name
	name=$(printf 'p%.0s' {1..200})
	BASE=$CG2/leashpaths.$$
	local deep=$BASE
	while (( ${#deep} + 201 < 4030 )); do
		deep+=/$name
	done
	mkdir -p "$deep"
	(( ${#deep} > 3800 ))
	# grep, not the probe: its report splits a line this long.
	run "$LEASH" -v --cgroup=track --cgroup-root "$deep" -- \
		grep '^0::' /proc/self/cgroup
	assert_status 0
	local leaf=${deep#"$CG2"}/uid_0/run_
	[[ $output == *$'\n'"0::$leaf"[0-9]*_[0-9]*$'\n'* ]]
	[[ $output == *"leash: cgroup: removed "* ]]   # (-v cuts long lines)
	[[ -z $(ls -d "$deep"/uid_0/run_* 2>/dev/null) ]]
}
