#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Runs inside the check-vm guest: the least leash must do on a pure
# cgroup v2 host with cpu on v2 (tests/cgroup.bats has the rest).

CG=/sys/fs/cgroup

setup() {
	[ -n "${LEASH_VM:-}" ] || skip "only inside the check-vm guest"
	LEASH=${LEASH:-build/leash}
	PROBE=${PROBE:-build/probe}
}

@test "smoke: a uid_1000 child runs in a v2 leaf under leash/uid_1000" {
	run "$LEASH" -u 1000 --cgroup=require -v -t 5 "$PROBE"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ (^|$'\n')uid=1000($'\n'|$) ]]
	[[ "$output" =~ (^|$'\n')cgroup=0::/leash/uid_1000/[^/$'\n']+($'\n'|$) ]]
}

@test "smoke: --cpu-weight is written to the uid group" {
	run "$LEASH" -u 1001 --cgroup=require --cpu-weight 250 -t 5 "$PROBE"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat $CG/leash/uid_1001/cpu.weight)" = 250 ]
}

@test "smoke: the per-launch leaf is gone after the command" {
	run "$LEASH" -u 1002 --cgroup=require -t 5 "$PROBE"
	[ "$status" -eq 0 ]
	[ -d $CG/leash/uid_1002 ]
	run sh -c "ls -d $CG/leash/uid_1002/*/ 2>/dev/null"
	echo "$output"
	[ -z "$output" ]
}

@test "smoke: cpu is enabled only at the leash root" {
	grep -qw cpu $CG/leash/cgroup.subtree_control
	run cat $CG/leash/uid_1000/cgroup.subtree_control
	[ -z "$output" ]
}
