#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# leash on a systemd host (issue 32): runs in check-vm's systemd guest
# (Debian 12, systemd as PID 1), skipped elsewhere.

load helpers

setup() {
	[ -d /run/systemd/system ] || skip "not a systemd host (no /run/systemd/system)"
	[ -n "${LEASH_VM_SYSTEMD:-}" ] || skip "only in check-vm's systemd guest"
}

@test "systemd guest: systemd is PID 1 and owns a pure cgroup2 tree" {
	[ "$(cat /proc/1/comm)" = systemd ]
	run awk '$5 == "/sys/fs/cgroup" { sub(/.* - /, ""); print $1 }' /proc/self/mountinfo
	[ "$output" = cgroup2 ]
}
