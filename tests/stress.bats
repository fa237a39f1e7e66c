#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Many launches at once, half of them hitting their deadline: every exit
# status right, nothing orphaned or left behind, no zombie.

bats_require_minimum_version 1.5.0
load helpers

@test "stress: 200 launches, 16 at a time, half at their deadline" {
	local t0
	t0=$(now_us)
	# Under a child subreaper: anything leash leaves behind (a zombie it
	# did not reap, a command still running) is reparented to the probe.
	run "$PROBE" -R -T 120 -- "$BATS_TEST_DIRNAME/stress.sh" 200 16 "$MARK" "$TMP/results"
	echo "$output" >&2
	echo "elapsed: $((($(now_us) - t0) / 1000)) ms" >&2
	[ "${lines[0]}" = status=exit:0 ]
	[ "${lines[1]}" = left=none ]
	[ "${lines[2]}" = orphans=0 ]
	[ "$(wc -l <"$TMP/results")" -eq 200 ]
	local bad
	bad=$(awk '$2 != $3' "$TMP/results")
	[ -z "$bad" ] || { echo "wrong statuses (launch, expected, got):" >&2; echo "$bad" >&2; false; }
	[ "$(awk '$3 == 124' "$TMP/results" | wc -l)" -eq 100 ]
	assert_no_leftovers
	assert_no_zombie_children "$BASHPID"
}
