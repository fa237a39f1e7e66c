#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# watch.bats: leash watch, every uid change into its uid's group (issue
# 34).  Every watcher here is limited to the test's own uids (--uids),
# so it never moves a process the test did not start; the test's
# processes, groups and the watcher (by pid) are removed in teardown.

load helpers
load cgroup-helpers

setup_file() {
	cg_tops_note
}

teardown_file() {
	cg_tops_tidy
}

setup() {
	common_setup
	W=
	FOREIGN=
	# check-vm's guest sets no LEASH_BUILDDIR: build/ beside tests/.
	KIT=${LEASH_BUILDDIR:-$BATS_TEST_DIRNAME/../build}/watchkit
	need_cgroup || return
	cg_uids
	GTOP=${CG_TOP#"$CG_CPU"}
}

teardown() {
	stop_watch 2>/dev/null
	kill_ours
	common_teardown
	if [[ -n ${UA:-} ]]; then
		# v2: the watched processes' leaf, uid_<uid>/watch, first.
		cg_sandbox_remove "$CG_TOP/uid_$UA/watch" "$CG_TOP/uid_$UB/watch"
		cg_remove_uid "$UA"
		cg_remove_uid "$UB"
	fi
	cg_sandbox_remove "$FOREIGN"
	return 0
}

# start_watch ARG...: a watcher (-v, no periodic audit) in the
# background, W its pid; returns once it says it is watching.
start_watch() {
	"$LEASH" watch -v --audit=0 "$@" 2>"$TMP/werr" 3>&- &
	W=$!
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q '^leash watch: watching ' "$TMP/werr" && return 0
		kill -0 "$W" 2>/dev/null || break
		sleep 0.05
	done
	cat "$TMP/werr" >&2
	return 1
}

# stop_watch: TERM to the watcher; WST its status.
stop_watch() {
	[[ -n $W ]] || return 0
	# CONT first, and only to a watcher a failed test left stopped: a
	# CONT after TERM can land while the exiting watcher is being
	# stopped by ASan's leak check, whose SIGSTOP a CONT discards (the
	# check then waits forever and the watcher spins in sched_yield).
	[[ $(awk '{ print $3 }' "/proc/$W/stat" 2>/dev/null) == [Tt] ]] &&
		kill -CONT "$W"
	kill -TERM "$W"
	WST=0
	wait "$W" || WST=$?
	W=
}

# Processes of the test's uids whose pids the test wrote to $TMP/pids*:
# only those still of UA or UB are killed (a pid another took is not).
kill_ours() {
	local p u
	for p in $(cat "$TMP"/pids* 2>/dev/null); do
		u=$(awk '/^Uid:/ { print $2, $3 }' "/proc/$p/status" 2>/dev/null)
		[[ " $u " == *" ${UA:-x} "* || " $u " == *" ${UB:-x} "* ]] && kill -KILL "$p" 2>/dev/null
	done
	return 0
}

# cpu_of PID: its group in the cpu hierarchy.
cpu_of() {
	awk -F: -v v="$CG_V" 'v == 2 && $1 == 0 { print $3 }
		v == 1 && index("," $2 ",", ",cpu,") { print $3 }' "/proc/$1/cgroup"
}

# group_of UID: where watch puts the uid's processes (v2: a leaf).
group_of() {
	if [[ $CG_V == 2 ]]; then
		echo "$GTOP/uid_$1/watch"
	else
		echo "$GTOP/uid_$1"
	fi
}

# outside UID FILE: the pids of FILE not (or no longer alive) in UID's group.
outside() {
	local p want
	want=$(group_of "$1")
	for p in $(cat "$2"); do
		[[ $(cpu_of "$p" 2>/dev/null) == "$want" ]] || echo "$p:$(cpu_of "$p" 2>&1)"
	done
}

# settle UID FILE: wait until FILE's pids are in UID's group, 10 s at
# most (a slow guest's watcher may lag its events); then outside's list.
settle() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -z $(outside "$1" "$2") ]] && return 0
		sleep 0.1
	done
	outside "$1" "$2"
}

# uid_is UID PID: wait until PID's real uid is UID (a slow guest's
# setpriv may not have switched yet), 10 s at most.
uid_is() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ $(awk '/^Uid:/ { print $2 }' "/proc/$2/status") == "$1" ]] && return 0
		sleep 0.1
	done
	return 1
}

# as UID CMD...: CMD as UID, started by setpriv, not through leash.
as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$u" --clear-groups -- "$@"
}

# cpu_ticks PID: utime + stime.
cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# share SECS: B's part of the CPU time of the pids in $TMP/pids.hogs
# (the last is B's) over SECS, in thousandths.
share() {
	local p a=() b=() sum=0 last=0 i=0
	for p in $(cat "$TMP/pids.hogs"); do a+=("$(cpu_ticks "$p")"); done
	sleep "$1"
	for p in $(cat "$TMP/pids.hogs"); do b+=("$(cpu_ticks "$p")"); done
	for ((i = 0; i < ${#a[@]}; i++)); do
		last=$((b[i] - a[i]))
		sum=$((sum + last))
	done
	echo $((sum ? last * 1000 / sum : 0))
}

# hogs: 4 yes loops of UA and 1 of UB, pinned to one CPU, by setpriv.
hogs() {
	local i cpu setpriv
	cpu=$(($(nproc) - 1))
	# A path: busybox's taskset (check-vm's guest) runs its own applet
	# for a bare name, and busybox's setpriv has no --reuid.
	setpriv=$(command -v setpriv)
	: >"$TMP/pids.hogs"
	for i in A A A A B; do
		if [[ $i == A ]]; then
			taskset -c "$cpu" "$setpriv" --reuid="$UA" --regid="$UA" --clear-groups yes >/dev/null 3>&- &
		else
			taskset -c "$cpu" "$setpriv" --reuid="$UB" --regid="$UB" --clear-groups yes >/dev/null 3>&- &
		fi
		echo $! >>"$TMP/pids.hogs"
	done
	sleep 0.5
}

@test "watch: the kernel patch's table with no launch through leash: 4 + 1 setpriv loops on one CPU, B gets half (without the watcher a fifth)" {
	hogs
	local without with
	without=$(share 2)
	kill_ours
	start_watch --uids="$UA,$UB"
	hogs
	with=$(share 3)
	echo "share of B: without watch 0.$without, with watch 0.$with" >&2
	[[ -z $(outside "$UA" <(head -4 "$TMP/pids.hogs")) ]]
	[[ -z $(outside "$UB" <(tail -1 "$TMP/pids.hogs")) ]]
	((without <= 300))
	((with >= 490))
}

@test "watch: 200 double forks racing a uid change: no grandchild left outside (the dead middle is recorded)" {
	start_watch --uids="$UA" --report="$TMP/r.json"
	local i
	for ((i = 0; i < 40; i++)); do
		"$KIT" fork "$UA" 5 double 60
	done >"$TMP/pids"
	run settle "$UA" "$TMP/pids"
	echo "${#lines[@]} of $(wc -l <"$TMP/pids") outside: $output" >&2
	[[ $(wc -l <"$TMP/pids") == 200 && -z $output ]]
	stop_watch
	((WST == 0))
	grep -o '"fork_rule":[0-9]*' "$TMP/r.json" >&2
}

@test "watch: 200 children forked right after a uid change: none left outside" {
	start_watch --uids="$UA"
	local i
	for ((i = 0; i < 40; i++)); do
		"$KIT" fork "$UA" 5 child 60
	done >"$TMP/pids"
	run settle "$UA" "$TMP/pids"
	echo "${#lines[@]} of $(wc -l <"$TMP/pids") outside: $output" >&2
	[[ $(wc -l <"$TMP/pids") == 200 && -z $output ]]
}

@test "watch: a stopped watcher flooded past its socket (ENOBUFS), then continued: the uid's 6 processes in place within 1 s" {
	start_watch --uids="$UA" --report="$TMP/r.json"
	kill -STOP "$W"
	"$KIT" uids 30000
	"$KIT" fork "$UA" 5 double 60 >"$TMP/pids"
	setpriv --reuid="$UA" --regid="$UA" --clear-groups sleep 60 3>&- &
	echo $! >>"$TMP/pids"
	local t1 i n=1
	t1=$(now_us)
	kill -CONT "$W"
	for ((i = 0; i < 100; i++)); do
		n=$(outside "$UA" "$TMP/pids" | wc -l)
		((n == 0)) && break
		sleep 0.01
	done
	echo "$n outside, $((($(now_us) - t1) / 1000)) ms after SIGCONT" >&2
	((n == 0))
	stop_watch
	grep -q '"lost_events":[1-9]' "$TMP/r.json"
	grep -q '"stops":1,' "$TMP/r.json"
}

@test "watch: PID reuse: a root process given a gone child's pid is never taken by the fork rule" {
	start_watch --uids="$UA" --report="$TMP/r.json"
	kill -STOP "$W"
	local r c b
	read -r r c b < <("$KIT" reuse "$UA" 60)
	echo "$b" >"$TMP/pids.b"
	track "$b"
	[[ $c == "$b" ]]
	sleep 0.1
	kill -CONT "$W"
	sleep 0.5
	[[ $(cpu_of "$b") != */uid_* ]]
	kill -KILL "$b"
	stop_watch
	grep -q '"pid_reused":1,' "$TMP/r.json"
}

@test "watch: at start a scan moves what already runs; -v says each move; TERM: the summary line, exit 0, the report" {
	setpriv --reuid="$UA" --regid="$UA" --clear-groups sleep 60 3>&- &
	echo $! >"$TMP/pids"
	uid_is "$UA" "$(cat "$TMP/pids")"
	start_watch --uids="$UA" --report="$TMP/r.json"
	[[ -z $(outside "$UA" "$TMP/pids") ]]
	stop_watch
	((WST == 0))
	cat "$TMP/werr" >&2     # shown when the test fails
	run cat "$TMP/werr"
	[[ ${lines[0]} =~ ^"leash watch: cgroup v"[12]": "(created|joined)" $CG_TOP/uid_$UA"(/watch)?$ ]]
	[[ ${lines[1]} == "leash watch: moved $(cat "$TMP/pids") (uid $UA, scan) from /" ]]
	[[ ${lines[2]} == "leash watch: watching 1 uid range by real uid; groups in $GTOP (v$CG_V)" ]]
	[[ ${lines[3]} =~ ^"leash watch: "[0-9]+" events, 1 moves (uid 0, fork 0, scan 1), 0 caught by the fork rule, 0 rescans (lost events 0, stops 0, audits 0), 0 errors"$ ]]
	assert_lines 4
	grep -q '^{"personality":"watch",.*"moves":{"total":1,"uid":0,"fork":0,"scan":1},.*"exit_status":0}$' "$TMP/r.json"
}

@test "watch: never moved: a process outside the allow-list (a group of another manager) unless --from names it, root's, a live leash leaf" {
	need_leaf
	FOREIGN=$CG_CPU/leashwatch_$$_$BATS_SUITE_TEST_NUMBER
	mkdir "$FOREIGN"
	# A foreign group's process changes its uid there.
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$3" --reuid="$2" --regid="$2" --clear-groups sleep 60' \
		sh "$FOREIGN" "$UA" "$(command -v setpriv)" 3>&- &
	echo $! >"$TMP/pids"
	# A leash leaf (cgroup2 run_*): root's launch that becomes UA inside.
	"$LEASH" --cgroup=track -- setpriv --reuid="$UA" --regid="$UA" --clear-groups sleep 60 3>&- &
	echo $! >"$TMP/pids.leash"
	sleep 0.3
	local inleaf
	inleaf=$(pgrep -P "$(cat "$TMP/pids.leash")")
	echo "$inleaf" >"$TMP/pids.leaf"
	# Root's own, in the root group.
	sleep 60 3>&- &
	echo $! >"$TMP/pids.root"
	track $!
	start_watch --uids="$UA"
	sleep 0.3
	[[ $(cpu_of "$(cat "$TMP/pids")") == "${FOREIGN#"$CG_CPU"}" ]]
	# v1: a cgroup2 leaf of leash's; v2: uid_0/run_*, no uid_*/watch.
	[[ $(cpu_of "$inleaf") != "$(group_of "$UA")" ]]
	grep -Eq "not moved: $inleaf \(uid $UA\): its (cgroup2 )?group is not on the allow-list" "$TMP/werr"
	[[ $(cpu_of "$(cat "$TMP/pids.root")") != */uid_* ]]
	kill -KILL "$(cat "$TMP/pids.root")"
	stop_watch
	start_watch --uids="$UA" --from="${FOREIGN#"$CG_CPU"}"
	[[ -z $(outside "$UA" "$TMP/pids") ]]
}

@test "watch: --from's patterns: * ? [a-z] [!a-z] within one part of a path, never across a /" {
	FOREIGN=$CG_CPU/leashwatch_$$_$BATS_SUITE_TEST_NUMBER
	local rel=${FOREIGN#"$CG_CPU"} deep
	mkdir -p "$FOREIGN/s7/deep"
	# A process of UA in s7 ($TMP/pids), another in s7/deep
	# ($TMP/pids.deep), each there before its uid change.
	start_in() {
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$3" --reuid="$2" --regid="$2" --clear-groups sleep 60' \
			sh "$FOREIGN/$1" "$UA" "$(command -v setpriv)" 3>&- &
		echo $! >"$TMP/$2"
		uid_is "$UA" $!
	}
	start_in s7 pids
	start_in s7/deep pids.deep
	deep=$(cat "$TMP/pids.deep")
	[[ $(cpu_of "$deep") == "$rel/s7/deep" ]]
	# * takes 7, not 7/deep.
	start_watch --uids="$UA" --from="$rel/s*"
	[[ -z $(outside "$UA" "$TMP/pids") ]]
	[[ $(cpu_of "$deep") == "$rel/s7/deep" ]]
	grep -q "not moved: $deep (uid $UA): its group is not on the allow-list" "$TMP/werr"
	stop_watch
	start_watch --uids="$UA" --from="$rel/?[5-9]/[!a-c]e?p"
	[[ -z $(outside "$UA" "$TMP/pids.deep") ]]
}

@test "watch: the periodic audit puts back a process moved out of its group behind the watcher's back" {
	setpriv --reuid="$UA" --regid="$UA" --clear-groups sleep 60 3>&- &
	echo $! >"$TMP/pids"
	"$LEASH" watch --uids="$UA" --audit=3 2>"$TMP/werr" 3>&- &
	W=$!
	sleep 0.5
	[[ -z $(outside "$UA" "$TMP/pids") ]]
	# Back to the root group: no event says so; only the audit sees it.
	echo "$(cat "$TMP/pids")" >"$CG_CPU/cgroup.procs"
	[[ -n $(outside "$UA" "$TMP/pids") ]]
	run settle "$UA" "$TMP/pids"
	[[ -z $output ]]
	stop_watch
	grep -q ', audits [1-9]' "$TMP/werr"
}

@test "watch: --by=euid moves an effective-uid change the default (real uid) leaves" {
	setpriv --euid="$UA" sleep 60 3>&- &
	echo $! >"$TMP/pids"
	start_watch --uids="$UA"
	[[ $(cpu_of "$(cat "$TMP/pids")") != */uid_* ]]
	stop_watch
	start_watch --uids="$UA" --by=euid
	[[ -z $(outside "$UA" "$TMP/pids") ]]
}

@test "watch: where it cannot run, one line and 125: not root, another user, pid or cgroup namespace, Android's cpuctl" {
	need_mountns
	# timeout 20: a watcher that did not refuse would run on.
	run as "$UA" timeout 20 "$LEASH" watch --uids="$UA"
	assert_status 125
	assert_output "leash watch: must be run as root"
	run unshare -U -r timeout 20 "$LEASH" watch --uids="$UA"
	assert_status 125
	assert_output "leash watch: not in the initial user namespace (a container?): the proc connector ignores listeners there"
	run unshare -p -f timeout 20 "$LEASH" watch --uids="$UA"
	assert_status 125
	assert_output "leash watch: not in the initial pid namespace (a container?): the proc connector ignores listeners there"
	run unshare -C timeout 20 "$LEASH" watch --uids="$UA"
	assert_status 125
	assert_output "leash watch: in a cgroup namespace of its own (a container?): the host's groups are not its to move"
	run unshare -m --propagation private sh -c 'mount -t tmpfs leash-android /dev &&
		mkdir /dev/cpuctl && : >/dev/cpuctl/tasks && exec timeout 20 "$1" watch --uids="$2"' sh "$LEASH" "$UA"
	assert_status 125
	assert_output "leash watch: on Android the framework moves tasks between its own cpu groups and undoes any move: give --cgroup-root a tree it does not write"
	[[ ! -d $CG_TOP/uid_$UA ]]
}

@test "watch: bad usage: one line, the Try line, 125, nothing made" {
	local bad
	for bad in "--uids=x|invalid uid ranges ‘x’: use N or N-M, comma-separated" \
		"--uids=9-3|invalid uid ranges ‘9-3’: use N or N-M, comma-separated" \
		"--by=gid|invalid --by ‘gid’: use ruid or euid" \
		"--cpu-weight=0|invalid cpu weight ‘0’: use 1..10000" \
		"--audit=-1|invalid audit period ‘-1’: use 0..86400 seconds" \
		"--from=rel|invalid --from ‘rel’: a path from / (at most 16 of them)" \
		"--from=/a[b|invalid --from ‘/a[b’: a [ without its ] (\\[ matches a [)" \
		"--from=/a[b/]|invalid --from ‘/a[b/]’: a / inside [ ] (only a / matches a /)" \
		"--from=/[[:digit:]]|invalid --from ‘/[[:digit:]]’: [:class:], [.x.] and [=x=] are not supported (ranges such as [0-9] are)" \
		"extra|extra operand ‘extra’"; do
		LC_ALL=C.UTF-8 run "$LEASH" watch --uids="$UA" "${bad%%|*}"
		assert_status 125
		assert_output "leash watch: ${bad#*|}
Try 'leash watch --help' for more information."
	done
	[[ ! -d $CG_TOP/uid_$UA ]]
}

@test "watch: leash -- watch is still watch(1), and a link named watch is not leash watch" {
	[[ $(watch -v 2>&1) == *procps* ]] || skip "no procps watch(1)"
	run "$LEASH" --cgroup=off -- watch -v
	[[ $output == *procps* ]]
	ln -s "$LEASH" "$TMP/watch"
	run "$TMP/watch" --version
	[[ $output == "leash "* ]]
}
