#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The child before exec cannot freeze leash: from the fork on, the
# deadline, -k and forwarded signals work while the child still prepares
# (DESIGN.md, Flow).  Run once per LEASH_WAIT strategy by `make check`.
# Needs root (a test user is created in setup_file).

bats_require_minimum_version 1.5.0
load helpers
load users

# stopper: as the test user, SIGSTOP everything that user may signal, in
# a loop (what a hostile target can do to the child once it runs as it).
start_stopper() {
	setpriv --reuid="$U_UID" --regid="$G_PRIM_GID" --clear-groups \
		sh -c 'while :; do kill -STOP -1 2>/dev/null; done' &
	STOPPER=$!
	track "$STOPPER"
}

stop_stopper() {
	kill -KILL "$STOPPER" 2>/dev/null || true
	wait "$STOPPER" 2>/dev/null || true
}

# Pids of the test user's processes other than the stopper.
user_pids() {
	local p
	for p in $(pgrep -u "$U_UID"); do
		[[ $p == "$STOPPER" ]] || echo "$p"
	done
}

@test "pre-exec: a target that SIGSTOPs everything it may cannot freeze leash (-t 1 -k 1, 30 launches)" {
	start_stopper
	local i j st pids=() bad=0
	for ((i = 0; i < 30; i += 6)); do
		pids=()
		for ((j = 0; j < 6; j++)); do
			BOUND=12 bounded "$LEASH" -u "$U_NAME" -t 1 -k 1 -- sleep 30 &
			pids+=($!)
		done
		for j in "${pids[@]}"; do
			st=0
			wait "$j" || st=$?
			[[ $st == 124 || $st == 137 ]] || { echo "launch: status $st" >&2; bad=1; }
		done
	done
	stop_stopper
	local left
	left=$(user_pids)
	[[ -z $left ]] || { echo "left behind: $left" >&2; ps -o pid,stat,args -p "${left//$'\n'/,}" >&2; bad=1; }
	[ "$bad" -eq 0 ]
}
