#!/bin/bash
# SPDX-License-Identifier: ISC
# bench-watch.sh: what leash watch costs and how fast it puts things
# right, for `make bench` (tests/bench/watch.c reads the key=value lines).
# Side by side in one run: the host's fork rate during a fork storm with
# and without a watcher, rounds alternated; the watcher's CPU per event
# and its Rss; 200 double forks racing a uid change; a stopped watcher
# flooded past its socket, then continued.  The watcher is limited to
# two uids of its own (--uids); what it made is removed at the end.
# Usage: LEASH=... WATCHKIT=... bench-watch.sh [ROUNDS]
set -u
leash=${LEASH:?} kit=${WATCHKIT:?} rounds=${1:-3}
ua=$((3900000 + $$ % 50000)) ub=$((ua + 1))
tmp=$(mktemp -d /tmp/leash-bench-watch.XXXXXX)
w=
cleanup() {
	[[ -n $w ]] && kill -TERM "$w" 2>/dev/null && wait "$w"
	local d p
	for d in /sys/fs/cgroup/cpu/leash/uid_$ua /sys/fs/cgroup/cpu/leash/uid_$ub \
		/sys/fs/cgroup/leash/uid_$ua/watch /sys/fs/cgroup/leash/uid_$ub/watch \
		/sys/fs/cgroup/leash/uid_$ua /sys/fs/cgroup/leash/uid_$ub; do
		[[ -d $d ]] || continue
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -KILL "$p"; done
		sleep 0.1
		rmdir "$d" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

start() {  # start [taskset -c N]: the watcher, maybe pinned
	"$@" "$leash" watch -v --audit=0 --uids="$ua,$ub" --report="$tmp/r.json" 2>"$tmp/err" &
	w=$!
	for ((i = 0; i < 100; i++)); do
		grep -q watching "$tmp/err" && return 0
		sleep 0.05
	done
	echo "bench-watch: the watcher did not start: $(cat "$tmp/err")" >&2
	exit 1
}
stop() { kill -TERM "$w"; wait "$w"; w=; }
key() { grep -o "\"$1\":[0-9]*" "$tmp/r.json" | head -1 | cut -d: -f2; }
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# The fork rate of a storm by root (unwatched) and by a watched uid,
# the storm and the watcher on one CPU: the watcher's every microsecond
# is the storm's loss (the worst case; spread over two idle vCPUs the
# watcher's wakeups kept the other CPU out of its idle state and the
# storm ran faster with it than without).
storm() {  # storm root|watched: forks per second of 3000 forks
	if [[ $1 == root ]]; then
		taskset -c 0 "$kit" forks 3000
	else
		taskset -c 0 setpriv --reuid="$ua" --regid="$ua" --clear-groups "$kit" forks 3000
	fi
}
for who in root watched; do
	without=0 with=0
	for ((r = 0; r < rounds; r++)); do
		# Alternated: the first storm of a round runs on a cooler cache.
		((r % 2)) || without=$((without + $(storm "$who")))
		start taskset -c 0
		t0=$(ticks "$w")
		with=$((with + $(storm "$who")))
		t1=$(ticks "$w")
		stop
		((r % 2)) && without=$((without + $(storm "$who")))
		cpu_us=$(((t1 - t0) * 1000000 / $(getconf CLK_TCK)))
		ev=$(key events)
	done
	echo "scenario=fork_storm_$who forks_per_s_without=$((without / rounds)) forks_per_s_with=$((with / rounds)) ratio=$(awk -v a=$with -v b=$without 'BEGIN { printf "%.3f", b ? a / b : 0 }') watcher_cpu_us_per_event=$(awk -v c=$cpu_us -v e=$ev 'BEGIN { printf "%.1f", e ? c / e : 0 }') moves_fork=$(key fork)"
done

# Rss of a watching leash, after the storms above made its tables warm.
start
"$kit" forks 500 >/dev/null
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$w/status")
echo "scenario=rss rss_kib=$rss"

# 200 double forks racing a uid change.
for ((i = 0; i < 40; i++)); do "$kit" fork "$ua" 5 double 3; done >"$tmp/pids"
sleep 0.6
out=0
for p in $(cat "$tmp/pids"); do
	grep -qE "^[0-9]+:(cpu[^:]*|):/.*uid_$ua(/watch)?\$" "/proc/$p/cgroup" || out=$((out + 1))
done
stop
echo "scenario=race_double_fork outside=$out of=200 fork_rule=$(key fork_rule) uid_to_moved_p50_us=$(grep -o '"uid_change_to_moved_us":{"p50":[0-9]*,"p99":[0-9]*' "$tmp/r.json" | grep -o '[0-9]*,"p99":[0-9]*' | sed 's/,"p99":/ uid_to_moved_p99_us=/') write_p50_us=$(grep -o '"write_us":{"p50":[0-9]*' "$tmp/r.json" | grep -o '[0-9]*$')"

# A stopped watcher flooded past its socket (ENOBUFS), then continued.
start
kill -STOP "$w"
"$kit" threads 30000
"$kit" fork "$ub" 5 double 5 >"$tmp/pids"
setpriv --reuid="$ub" --regid="$ub" --clear-groups sleep 5 &
echo $! >>"$tmp/pids"
t1=$(date +%s%N)
kill -CONT "$w"
n=6
for ((i = 0; i < 300 && n > 0; i++)); do
	n=0
	for p in $(cat "$tmp/pids"); do
		grep -qE "^[0-9]+:(cpu[^:]*|):/.*uid_$ub(/watch)?\$" "/proc/$p/cgroup" || n=$((n + 1))
	done
	((n > 0)) && sleep 0.005
done
t2=$(date +%s%N)
stop
echo "scenario=loss_recovery in_place_ms=$(((t2 - t1) / 1000000)) left_outside=$n lost_events=$(key lost_events) stops=$(key stops)"
