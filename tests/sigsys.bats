#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# sigsys.bats: lib/signal/sigsys.c's handler on the architecture under test
# (make check-cross runs this under qemu-user, which refuses a guest's
# seccomp filter, so nothing there can trap for real): the trapped call
# returns ENOSYS through the register the handler sets, a SIGSYS from
# outside is counted for the supervise loop, which a SIGCHLD wakes, and
# one in a process that does not forward it kills as if uncaught.  The
# fallbacks under a real trapping filter are in fallback.bats.

bats_require_minimum_version 1.5.0

load helpers

@test "sigsys: a trapped call returns ENOSYS on this architecture; one from outside reaches the loop" {
	local check=${LEASH_BUILDDIR:-$TOP/build}/sigsys-check
	[[ -x $check ]] || must_run_or_skip "no sigsys-check helper (build/sigsys-check)"
	run "$check"
	assert_status 0
	assert_output ok
}
