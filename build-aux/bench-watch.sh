#!/bin/bash
# SPDX-License-Identifier: ISC
# bench-watch.sh: what leash watch costs and how fast it puts things
# right, for `make bench` (tests/bench/watch.c reads the key=value lines).
# Side by side in one run: the host's fork rate during a fork storm with
# and without a watcher, rounds alternated; the watcher's CPU per event
# and its Rss; 200 double forks racing a uid change; a stopped watcher
# flooded past its socket, then continued; the race and the loss again
# with cgrulesengd (Debian's cgroup-tools, installed for this when
# missing) in leash watch's place.  The watcher is limited to two uids of
# its own (--uids; cgrulesengd: rules for two users of those uids, made
# for the run); what the run made is removed at the end.
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
	# Sleepers a watcher left outside the groups: every process of the
	# run's two uids (a range of its own) is one of ours.
	for p in $(grep -lE "^Uid:[[:space:]]+($ua|$ub)[[:space:]]" /proc/[0-9]*/status 2>/dev/null); do
		p=${p#/proc/}
		kill -KILL "${p%/status}"
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
stop() { kill -TERM "$w"; wait "$w" 2>/dev/null; w=; }
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

# The race and the loss, for leash watch (start, stop, its report's
# keys) and then for cgrulesengd (start_cgre) on the same processes.
inside() {  # inside UID PIDFILE: "OUT LIVE": live pids outside UID's group
	local p n=0 live=0 c
	for p in $(cat "$2"); do
		c=$(cat "/proc/$p/cgroup" 2>/dev/null) || continue  # gone: not counted
		live=$((live + 1))
		grep -qE "^[0-9]+:(cpu[^:]*|):/.*uid_$1(/watch)?\$" <<<"$c" || n=$((n + 1))
	done
	echo "$n $live"
}

race() {  # race TOOL: 200 double forks racing a uid change
	local out live
	# Sleepers of 20 s: on a loaded machine the 40 rounds take seconds.
	for ((i = 0; i < 40; i++)); do "$kit" fork "$ua" 5 double 20; done >"$tmp/pids"
	sleep 0.6
	read -r out live < <(inside "$ua" "$tmp/pids")
	stop
	if [[ $1 == leash ]]; then
		echo "scenario=race_double_fork tool=leash outside=$out of=$live fork_rule=$(key fork_rule) uid_to_moved_p50_us=$(grep -o '"uid_change_to_moved_us":{"p50":[0-9]*,"p99":[0-9]*' "$tmp/r.json" | grep -o '[0-9]*,"p99":[0-9]*' | sed 's/,"p99":/ uid_to_moved_p99_us=/') write_p50_us=$(grep -o '"write_us":{"p50":[0-9]*' "$tmp/r.json" | grep -o '[0-9]*$')"
	else
		echo "scenario=race_double_fork tool=$1 outside=$out of=$live"
	fi
}

loss() {  # loss TOOL: the watcher stopped, flooded past its socket, continued
	local n live t1 t2
	kill -STOP "$w"
	"$kit" uids 30000
	"$kit" fork "$ub" 5 double 20 >"$tmp/pids"
	setpriv --reuid="$ub" --regid="$ub" --clear-groups sleep 20 &
	echo $! >>"$tmp/pids"
	disown $!  # cleanup kills it: no "Killed" line
	t1=$(date +%s%N)
	kill -CONT "$w"
	# Up to 3 s: leash's bound is 1 s; a watcher that lost them for
	# good is seen here as left_outside=6.
	while :; do
		read -r n live < <(inside "$ub" "$tmp/pids")
		t2=$(date +%s%N)
		((n > 0 && t2 - t1 < 3000000000)) || break
		sleep 0.01
	done
	stop
	if ((n > 0)); then
		echo "scenario=loss_recovery tool=$1 in_place_ms=none left_outside=$n of=$live"
	elif [[ $1 == leash ]]; then
		echo "scenario=loss_recovery tool=leash in_place_ms=$(((t2 - t1) / 1000000)) left_outside=0 of=$live lost_events=$(key lost_events) stops=$(key stops)"
	else
		echo "scenario=loss_recovery tool=$1 in_place_ms=$(((t2 - t1) / 1000000)) left_outside=0 of=$live"
	fi
}

race leash  # the Rss watcher's
start
loss leash

# cgrulesengd (Debian's cgroup-tools), the tool people use for this, on
# the same cases: rules for two users of these uids, made for the run,
# into the same uid_N groups.  Its /etc/cgrules.conf and its socket in
# /run are private to it: an overlay on /etc and a directory on /run in
# a mount namespace of its own; the users and groups go at the end.
cgre_users=()
start_cgre() {
	# The groups leash watch made above: v1's cpu mount, else cgroup2's
	# (the places cleanup removes); never a new "cpu" group on cgroup2.
	local d=/sys/fs/cgroup/cpu/leash
	[[ -d $d ]] || d=/sys/fs/cgroup/leash
	mkdir -p "$d/uid_$ua" "$d/uid_$ub" "$tmp/etc/cgrules.d" "$tmp/etc/cgconfig.d" "$tmp/run"
	: >"$tmp/etc/cgconfig.conf"  # without it, it refuses to start
	printf '%s\tcpu\tleash/uid_%s/\n' "lwb$ua" "$ua" "lwb$ub" "$ub" >"$tmp/etc/cgrules.conf"
	unshare -m --propagation private sh -c "mount -t overlay lwb -o 'lowerdir=$tmp/etc:/etc' /etc &&
		mount --bind '$tmp/run' /run && exec cgrulesengd -n -q" &
	w=$!
	# Ready once it has read its rules and opened the connector: a
	# process that changes to the uid is moved.
	for ((i = 0; i < 100; i++)); do
		"$kit" fork "$ua" 1 child 1 >"$tmp/probe"
		sleep 0.05
		[[ $(inside "$ua" "$tmp/probe") == "0 1" ]] && return 0
		kill -0 "$w" 2>/dev/null || break
	done
	echo "scenario=cgrulesengd skipped=did_not_start" 
	return 1
}
cgre_cleanup() {
	local u
	for u in "${cgre_users[@]}"; do userdel "$u" 2>/dev/null; groupdel "$u" 2>/dev/null; done
}
trap 'cleanup; cgre_cleanup' EXIT

if ! command -v cgrulesengd >/dev/null && [[ ${DEPS:-1} != 0 ]]; then
	"$(dirname "$0")/deps.sh" cgrulesengd:cgroup-tools >&2 || true
fi
if ! command -v cgrulesengd >/dev/null; then
	echo "scenario=cgrulesengd skipped=not_installed"
else
	for u in "$ua" "$ub"; do
		groupadd -g "$u" "lwb$u" && cgre_users+=("lwb$u") &&
			useradd -M -N -g "$u" -u "$u" -d / -s /usr/sbin/nologin "lwb$u" 2>/dev/null
	done
	start_cgre && race cgrulesengd
	start_cgre && loss cgrulesengd
fi
