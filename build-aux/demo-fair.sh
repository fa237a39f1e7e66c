#!/bin/bash
# SPDX-License-Identifier: ISC
# demo-fair: the experiment leash exists for, on one CPU of this machine.
# Four busy loops run as uid A (10035) and one benchmark as uid B (10070)
# that counts the loop iterations it manages in a fixed time:
#   (a) all five in one cpu cgroup, started with setpriv (what su gives);
#   (b) all five started with `leash -u`: one group per uid;
#   (c) as (a), started with setpriv, while `leash watch` runs (limited to
#       the two uids, and told it may take from the demo's group).
# Expected: B gets about 0.20 of the CPU in (a), about 0.50 in (b) and
# (c), and does about 2.5 times the work.  Needs root; about 3 x
# DEMO_SECS (10) s.
# Everything it makes (cgroups, processes, files) is removed at the end,
# also when interrupted.  The uids need no passwd entry.
#
# Environment: LEASH, SPIN (default build/leash, build/spin), DEMO_SECS,
# DEMO_CPU (default the last CPU), DEMO_UID_A, DEMO_UID_B.
set -u

cd "${LEASH_SRCDIR:-$(dirname "$0")/..}" || exit 1
LEASH=${LEASH:-build/leash}
SPIN=${SPIN:-build/spin}
SECS=${DEMO_SECS:-10}
UA=${DEMO_UID_A:-10035}
UB=${DEMO_UID_B:-10070}
CPU=${DEMO_CPU:-$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) - 1))}

say() { printf '%s\n' "$*"; }
die() { say "demo-fair: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || { say "demo-fair: needs root; skipped"; exit 0; }
[ -x "$LEASH" ] || die "$LEASH not built (run make)"
[ -x "$SPIN" ] || die "$SPIN not built (run make)"
command -v taskset >/dev/null || die "taskset not found"

# mount_of FSTYPE [OPTION]
. build-aux/cgmounts.sh

CG2=$(mount_of cgroup2)
if [ -n "$CG2" ] && grep -qw cpu "$CG2/cgroup.controllers"; then
	CPUMNT=$CG2 V=2
	grep -qw cpu "$CG2/cgroup.subtree_control" ||
		die "cpu is not enabled in $CG2/cgroup.subtree_control"
else
	CPUMNT=$(mount_of cgroup cpu) V=1
	[ -n "$CPUMNT" ] || die "no cpu cgroup hierarchy on this machine"
fi
GROUP=$CPUMNT/leashdemo.$$
WORK=$(mktemp -d /tmp/leash-demo.XXXXXX) || exit 1
chmod 1777 "$WORK"      # the spinners write their results as A and B
PIDS=()
MADE=()                 # uid groups this demo created
for u in "$UA" "$UB"; do
	[ -d "$CPUMNT/leash/uid_$u" ] || MADE+=("$u")
done

# kill_in DIR: SIGKILL whatever still runs in cgroup DIR.
kill_in() {
	local p
	[ -r "$1/cgroup.procs" ] || return 0
	for p in $(cat "$1/cgroup.procs"); do kill -KILL "$p" 2>/dev/null; done
}

# Remove DIR once it is empty (exiting tasks pin it for a moment).
rmdir_soon() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -d "$1" ] || return 0
		rmdir "$1" 2>/dev/null && return 0
		kill_in "$1"
		sleep 0.1
	done
	say "demo-fair: could not remove $1" >&2
}

cleanup() {
	local p u
	trap - EXIT INT TERM HUP
	# leash forwards TERM to its command and the command's leaf.
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	watch_stop
	rmdir_soon "$GROUP"
	for u in "${MADE[@]}"; do
		[ "$V" = 2 ] && rmdir_soon "$CPUMNT/leash/uid_$u/watch"
		[ -n "$CG2" ] && [ "$V" = 1 ] && rmdir_soon "$CG2/leash/uid_$u"
		rmdir_soon "$CPUMNT/leash/uid_$u"
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A start time shared by all five, a moment from now.
start_at() {
	local t=$EPOCHREALTIME
	echo "$(( ${t%.*} + 2 )).${t#*.}"
}

# spawn SCENARIO NAME UID START: one spinner, pinned to the demo CPU.
spawn() {
	local file=$WORK/$1.$2 args=(-n "$2" -a "$4" -t "$SECS")
	if [ "$1" != b ]; then
		# Into the one explicit group first: tasks left in the root
		# cpu cgroup would be split per session by autogroup.
		(
			echo "$BASHPID" >"$GROUP/cgroup.procs" || exit 1
			taskset -pc "$CPU" "$BASHPID" >/dev/null || exit 1
			as_user "$3" "$SPIN" "${args[@]}" -o "$file"
		) &
	else
		taskset -c "$CPU" "$LEASH" -u "$3" --cpu-weight 100 -- \
			"$SPIN" "${args[@]}" -o "$file" &
	fi
	PIDS+=($!)
}

run_scenario() {
	local s=$1 t i p
	t=$(start_at)
	for i in 1 2 3 4; do spawn "$s" "hog$i" "$UA" "$t"; done
	spawn "$s" bench "$UB" "$t"
	for p in "${PIDS[@]}"; do wait "$p" || die "a spinner failed"; done
	PIDS=()
}

# table SCENARIO: each task's share of the five's CPU time, and B's work.
table() {
	cat "$WORK/$1".hog? "$WORK/$1".bench | awk '
		{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[NR, kv[1]] = kv[2] }
		  name[NR] = $1; total += v[NR, "cpu"] }
		END {
			printf "  %-6s %6s %10s %14s\n", "task", "uid", "cpu share", "work"
			for (r = 1; r <= NR; r++)
				printf "  %-6s %6s %10.3f %14s\n", name[r], v[r, "uid"],
					v[r, "cpu"] / total,
					name[r] == "bench" ? sprintf("%.2f M", v[r, "work"] / 1e6) : "-"
		}'
}

# bench KEY SCENARIO: the bench's share of the five's CPU time, or work.
bench() {
	cat "$WORK/$2".hog? "$WORK/$2".bench | awk -v k="$1" '
		{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		  total += v["cpu"] }
		END { print k == "share" ? v["cpu"] / total : v["work"] }'
}

if command -v setpriv >/dev/null; then
	AS_USER_CMD="setpriv --reuid=U --regid=U --clear-groups"
	as_user() { local u=$1; shift; exec setpriv --reuid="$u" \
		--regid="$u" --clear-groups "$@"; }
else
	# No setpriv (busybox): leash without its cgroup is the same switch.
	AS_USER_CMD="leash --cgroup=off -u U"
	as_user() { local u=$1; shift; exec "$LEASH" --cgroup=off \
		-u "$u" -- "$@"; }
fi

# leash watch for (c): the two uids only; the demo's group is a place
# it may take processes from (--from), as an admin lists cron's.
WATCH=
watch_start() {
	"$LEASH" watch --uids="$UA,$UB" --from="${GROUP#"$CPUMNT"}" 2>"$WORK/watch.err" &
	WATCH=$!
	sleep 0.5
}
watch_stop() {
	[ -n "$WATCH" ] || return 0
	kill -TERM "$WATCH" 2>/dev/null
	wait "$WATCH" 2>/dev/null
	WATCH=
}

mkdir "$GROUP" || die "cannot create $GROUP"
say "fair-share demo on CPU $CPU (cgroup v$V), $SECS s per scenario:"
say "4 busy loops as uid $UA (hog1-4), 1 benchmark as uid $UB (bench)"
say
say "(a) all five in one cgroup, started with $AS_USER_CMD"
run_scenario a
table a
say
say "(b) all five started with leash -u U (groups leash/uid_$UA, leash/uid_$UB)"
run_scenario b
table b
say
say "(c) as (a), started with $AS_USER_CMD, while leash watch runs"
watch_start
run_scenario c
watch_stop
table c
sed 's/^leash watch: /  leash watch: /' "$WORK/watch.err"
say
awk -v wa="$(bench work a)" -v wb="$(bench work b)" \
    -v sa="$(bench share a)" -v sb="$(bench share b)" \
    -v sc="$(bench share c)" 'BEGIN {
	printf "bench: cpu share %.2f -> %.2f, work %.2f M -> %.2f M: " \
		"%.2fx with leash; %.2f with leash watch\n", sa, sb,
		wa / 1e6, wb / 1e6, wb / wa, sc }'
