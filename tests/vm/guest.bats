#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Runs inside the check-vm guest only: checks the premise of the guest,
# that the cpu controller is on cgroup v2 and usable and that the kernel
# is the one check-vm meant to boot, before the leash tests rely on it.

CG=/sys/fs/cgroup

setup() {
	[ -n "${LEASH_VM:-}" ] || skip "only inside the check-vm guest"
	TESTCG=$CG/vmcheck.$$
}

teardown() {
	[ -n "${TESTCG:-}" ] && rmdir "$TESTCG" 2>/dev/null || true
	userdel vmcheck 2>/dev/null || true
	groupdel vmcheck 2>/dev/null || true
}

@test "guest: cgroup2 is mounted at /sys/fs/cgroup" {
	run awk '$5 == "/sys/fs/cgroup" { sub(/.* - /, ""); print $1 }' \
		/proc/self/mountinfo
	[ "$output" = cgroup2 ]
}

@test "guest: no cgroup v1 hierarchy is mounted" {
	run grep -c ' - cgroup ' /proc/self/mountinfo
	[ "$output" = 0 ]
}

@test "guest: cpu is a v2 controller, enabled below the root" {
	grep -qw cpu $CG/cgroup.controllers
	grep -qw cpu $CG/cgroup.subtree_control
}

@test "guest: a v2 group takes cpu.weight and rejects 0" {
	mkdir "$TESTCG"
	echo 250 > "$TESTCG/cpu.weight"
	[ "$(cat "$TESTCG/cpu.weight")" = 250 ]
	run sh -c "echo 0 > $TESTCG/cpu.weight"
	[ "$status" -ne 0 ]
	[ "$(cat "$TESTCG/cpu.weight")" = 250 ]
}

@test "guest: the shadow tools add and remove a user" {
	command -v useradd || skip "useradd not copied into the guest"
	useradd -M -u 4321 -U -s /bin/sh vmcheck
	[ "$(getent passwd vmcheck | cut -d: -f3)" = 4321 ]
	[ "$(id -u vmcheck)" = 4321 ]
	userdel vmcheck
	run getent passwd vmcheck
	[ "$status" -ne 0 ]
}

@test "guest: util-linux setpriv and unshare replace busybox's" {
	command -v setpriv || skip "setpriv not copied into the guest"
	[ ! -L "$(command -v setpriv)" ]
	run setpriv --reuid 1000 --regid 1000 --clear-groups id -u
	[ "$output" = 1000 ]
	run unshare -m --propagation private true
	[ "$status" -eq 0 ]
}

@test "guest: the kernel is the one check-vm meant to boot (uname -r)" {
	[ -n "${LEASHVM_RELEASE:-}" ] && [ "$LEASHVM_RELEASE" != unknown ] ||
		skip "check-vm named no kernel release"
	run uname -r
	echo "uname -r: $output, check-vm booted ${LEASHVM_NAME:-?}: $LEASHVM_RELEASE"
	[ "$output" = "$LEASHVM_RELEASE" ]
}

# The premise of booting 5.10: no cgroup.kill there, so leash's tree kill
# takes the freezer; cgroup.freeze (5.2+) is in every non-root group.
@test "guest: a v2 group has cgroup.freeze, and cgroup.kill only from 5.14 on" {
	mkdir "$TESTCG"
	[ -f "$TESTCG/cgroup.freeze" ]
	[ "$(cat "$TESTCG/cgroup.freeze")" = 0 ]
	IFS=.- read -r major minor _ <<<"$(uname -r)"
	if [ "$major" -gt 5 ] || { [ "$major" = 5 ] && [ "$minor" -ge 14 ]; }; then
		[ -f "$TESTCG/cgroup.kill" ]
	else
		[ ! -e "$TESTCG/cgroup.kill" ]
	fi
}

@test "guest: bats runs under bash" {
	[ -n "${BASH_VERSION:-}" ]
}
