#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Budgets that nest (DESIGN.md, Budgets and limits): leash passes its
# command's absolute deadline on in LEASH_DEADLINE; a nested leash, or
# leash as timeout, keeps to the earlier of its own and the inherited
# one.  The timeout personality adds nothing to the environment (GNU's
# contract): those two tests also run in host mode against GNU timeout.

bats_require_minimum_version 1.5.0
load helpers

# deadline_in SECS: a LEASH_DEADLINE value SECS from now.
deadline_in() {
	local up rest
	read -r up rest </proc/uptime
	awk -v u="$up" -v s="$1" 'BEGIN { printf "%.9f", u + s }'
	printf '@%s\n' "$(cat /proc/sys/kernel/random/boot_id)"
}

# secs CMD...: run CMD, status in $status, wall seconds in $SECS (from
# SECS_FROM, a now_us, when set).
secs() {
	local t0 t1
	t0=${SECS_FROM:-$(now_us)}
	run "$@"
	t1=$(now_us)
	SECS=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f", d / 1e6 }')
	echo "status $status after $SECS s" >&2
}

@test "budget: leash -t gives its command LEASH_DEADLINE, SECONDS.NANOSECONDS@BOOT_ID, the deadline on the boot clock" {
	host_mode && skip "leash's own"
	local up rest
	read -r up rest </proc/uptime
	run "$LEASH" -t 5 -- sh -c 'echo "$LEASH_DEADLINE"'
	assert_status 0
	[[ $output =~ ^([0-9]+\.[0-9]{9})@(.*)$ ]]
	[[ ${BASH_REMATCH[2]} == "$(cat /proc/sys/kernel/random/boot_id)" ]]
	awk -v d="${BASH_REMATCH[1]}" -v u="$up" 'BEGIN { exit !(d > u + 4.5 && d < u + 6) }'
	# No deadline: nothing passed on.
	run env -u LEASH_DEADLINE "$LEASH" -- sh -c 'echo "${LEASH_DEADLINE-unset}"'
	assert_output unset
}

@test "budget: timeout passes the environment as it is: it adds no LEASH_DEADLINE (GNU)" {
	run env -u LEASH_DEADLINE timeout 5 sh -c 'echo "${LEASH_DEADLINE-unset}"'
	assert_status 0
	assert_output unset
	local far
	far=$(deadline_in 100)
	run env LEASH_DEADLINE="$far" timeout 5 sh -c 'echo "$LEASH_DEADLINE"'
	assert_output "$far"
}

@test "budget: an inherited deadline that comes first rules: timeout 10 ends at 1 s, 124" {
	host_mode && skip "GNU timeout knows no LEASH_DEADLINE"
	# Timed from before the deadline is taken: on a busy machine the
	# command starts late (0.87 s from its start to the deadline, once),
	# but it must never end before the deadline.
	SECS_FROM=$(now_us)
	secs env LEASH_DEADLINE="$(deadline_in 1)" timeout 10 sleep 5
	assert_status 124
	awk -v s="$SECS" 'BEGIN { exit !(s >= 0.9 && s < 3) }'
}

@test "budget: nested leash: the inner -t 10 keeps to the outer -t 1, and says so (-v, report)" {
	host_mode && skip "leash's own"
	command -v jq >/dev/null || must_run_or_skip "no jq (build-aux/deps.sh check installs it)"
	# The outer's own signal (USR1, to the inner leash alone) is one the
	# command ignores: only the inner's keeping to the outer deadline
	# ends it at 1 s.
	secs "$LEASH" -t 1 -s USR1 --foreground -- "$LEASH" -v -t 10 \
		--report="$TMP/inner" -- sh -c 'trap "" USR1; exec sleep 5'
	assert_status 124
	awk -v s="$SECS" 'BEGIN { exit !(s < 3) }'
	[[ $(jq -r .deadline_from "$TMP/inner") == LEASH_DEADLINE ]]
	[[ $(jq -r .result "$TMP/inner") == timeout ]]
	grep -q "the deadline is the caller's (LEASH_DEADLINE)" <<<"$output"
}

@test "budget: the own deadline rules when it comes first; the inherited one is passed on only as the earlier" {
	host_mode && skip "GNU timeout knows no LEASH_DEADLINE"
	secs env LEASH_DEADLINE="$(deadline_in 100)" timeout 1 sleep 5
	assert_status 124
	awk -v s="$SECS" 'BEGIN { exit !(s < 3) }'
	local far
	far=$(deadline_in 100)
	run env LEASH_DEADLINE="$far" "$LEASH" -t 2 -- sh -c 'echo "$LEASH_DEADLINE"'
	[[ $output != "$far" && $output == *@* ]]
	run env LEASH_DEADLINE="$far" "$LEASH" -- sh -c 'echo "$LEASH_DEADLINE"'
	assert_output "$far"
}

@test "budget: a malformed or foreign LEASH_DEADLINE is ignored with one warning" {
	host_mode && skip "GNU timeout knows no LEASH_DEADLINE"
	run env LEASH_DEADLINE=1.5 timeout 5 true
	assert_status 0
	assert_output "timeout: ignoring LEASH_DEADLINE '1.5': not SECONDS.NANOSECONDS@BOOT_ID"
	local other=00000000-0000-0000-0000-000000000000
	secs env LEASH_DEADLINE="1.000000000@$other" "$LEASH" -- sleep 0.2
	assert_status 0
	assert_output "leash: ignoring LEASH_DEADLINE '1.000000000@$other': not from this boot"
}

@test "budget: without /proc there is no boot id: nothing is passed on, and an inherited value is not from this boot" {
	host_mode && skip "leash's own"
	need_mountns
	local own
	own=$(deadline_in 100)
	# A sanitizer runtime needs /proc itself (SANITIZE=1 builds).
	unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh "$LEASH" true 2>/dev/null ||
		skip "this leash build does not run without /proc"
	run env -u LEASH_DEADLINE unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh \
		"$LEASH" -t 5 -- sh -c 'echo "${LEASH_DEADLINE-unset}"'
	assert_status 0
	assert_output unset
	run env LEASH_DEADLINE="$own" unshare -m sh -c 'mount -t tmpfs none /proc && exec "$@"' sh \
		"$LEASH" -t 5 -- sh -c 'echo "${LEASH_DEADLINE-unset}"'
	assert_status 0
	assert_output "leash: ignoring LEASH_DEADLINE '$own': not from this boot
$own"
}

@test "budget: a nested leash -u makes its leaf inside the outer's: the outer's KILL reaches what the inner's command left with setsid" {
	host_mode && skip "leash's own"
	need_root
	load cgroup-helpers
	cg_detect
	need_leaf
	local secs=$((300 + RANDOM % 600)).5 own
	run "$LEASH" -t 1 -s KILL --cgroup=track -- "$LEASH" -u 65534 -t 30 -- \
		sh -c "setsid sleep $secs & grep '^0::' /proc/self/cgroup; sleep $secs"
	assert_status 137
	# 0::/leash/uid_0/run_OUTER/run_INNER
	[[ $output =~ ^0::(/.*/uid_0/run_[^/]+)/run_[^/]+$ ]]
	own=${BASH_REMATCH[1]}
	local i
	for ((i = 0; i < 40; i++)); do
		pgrep -u 65534 -f "sleep $secs" >/dev/null || break
		sleep 0.05
	done
	run pgrep -u 65534 -f "sleep $secs"
	assert_status 1
	# The outer leaf, and the inner one in it, are gone.
	[[ ! -e $CG2$own ]]
}
