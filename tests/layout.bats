#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# layout.bats: the static binary's layout (build-aux/hot.ld): what a
# waiting supervisor runs lies in the first 64 KiB fault-around window
# of the binary, so its Rss stays small.  Budgets are generous (the
# layout before hot.ld was made from traces: -t 168-172 KiB, -u 232 KiB;
# now 92-96 and 128): they catch a layout that no longer fits, not noise.

load helpers

setup() {
	common_setup
	skip_unless_static
}

teardown() {
	common_teardown
}

# rss_waiting ARGS...: Rss (KiB) of `leash ARGS sh -c 'sleep 5' MARK`
# once its command runs.
rss_waiting() {
	"$LEASH" "$@" sh -c 'sleep 5' "$MARK" </dev/null >/dev/null 2>&1 &
	local pid=$! i
	track "$pid"
	for ((i = 0; i < 100; i++)); do
		[[ -n $(cat /proc/"$pid"/task/*/children 2>/dev/null) ]] && break
		sleep 0.05
	done
	sleep 0.3       # the supervisor is in its wait
	awk '$1 == "Rss:" { print $2 }' /proc/"$pid"/smaps_rollup
	kill "$pid"
	wait "$pid" || true
}

@test "layout: the hot read-only data and code end inside the first 64 KiB of the binary" {
	command -v readelf >/dev/null || skip "no readelf"
	local base end
	base=$(readelf -lW "$LEASH" | awk '$1 == "LOAD" { print $3; exit }')
	end=$(readelf -SW "$LEASH" | awk '{ for (i = 1; i < NF; i++)
		if ($i == ".text.hot") { print $(i + 2), $(i + 4); exit } }')
	[ -n "$end" ] || skip "no .text.hot (no hot.ld in this link)"
	read -r addr size <<<"$end"
	local over=$(( 0x$addr + 0x$size - base - 65536 ))
	echo "hot end - 64 KiB: $over bytes (regenerate with build-aux/hotlist.py)"
	[ "$over" -le 0 ]
}

@test "layout: a waiting leash -t keeps at most 136 KiB resident" {
	local rss
	rss=$(rss_waiting -t 10)
	echo "Rss $rss KiB"
	[ "$rss" -le 136 ]
}

@test "layout: a waiting leash -u nobody with its cgroup keeps at most 192 KiB resident" {
	need_root "runs as nobody"
	local rss
	# The steady state: nobody's groups exist from a launch before (the
	# first launch of a uid reads mountinfo and makes them).
	"$LEASH" -u nobody -- true
	rss=$(rss_waiting -u nobody -t 10)
	echo "Rss $rss KiB"
	[ "$rss" -le 192 ]
}
