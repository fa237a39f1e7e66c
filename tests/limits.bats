#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Limits on the per-launch leaf (DESIGN.md, Budgets and limits):
# --memory-max, --pids-max, --cpu-max.  Read strictly (one line, 125);
# all or nothing: a limit that cannot be applied stops the launch before
# the command starts, and no leaf is left.  The limits themselves need
# memory, pids and cpu on cgroup2: make check-vm runs those tests in its
# pure cgroup2 guests (6.1 and 5.10); on a hybrid host they skip and the
# refusal is tested instead.

bats_require_minimum_version 1.5.0
load helpers
load cgroup-helpers

HOG=$(_helpers_abs "${HOG:-$TOP/build/hog}")

setup() {
	common_setup
	host_mode && skip "leash's own options"
	# 1777: the command as nobody must be able to leave its mark.
	W=$(mktemp -d /tmp/leash-lim.XXXXXX) && chmod 1777 "$W"
	R=$BATS_TEST_TMPDIR/r.json     # reports: in a directory of ours
}

teardown() {
	common_teardown
	[[ -n ${W:-} && -d $W ]] && rm -rf "$W"
	return 0
}

# refused OPTION=VALUE TEXT: one line, 125, the command never ran.
refused() {
	run "$LEASH" "$1" -- touch "$W/ran"
	assert_status 125
	assert_output "leash: invalid ${1%%=*} '${1#*=}': $2"
	[[ ! -e $W/ran ]]
}

# parsed OPTION=VALUE FIELD WANT: the value as the cgroup file takes it,
# from the report of a launch refused for want of a leaf (any host).
parsed() {
	run --separate-stderr "$LEASH" --cgroup=off --report=/dev/stdout "$1" -- true
	assert_status 125
	[[ $(jq -r ".limits.$2" <<<"$output") == "$3" ]] ||
		{ echo "$output"; return 1; }
}

MEMG="use BYTES, or BYTES with K, M, G, T, P or E (1024-based), or max"
PIDG="use 1..4194304 (the command is one), or max"
CPUG="use QUOTA[/PERIOD] or cpu.max's 'QUOTA PERIOD': QUOTA in microseconds (1000 or more), P% of one CPU, or max; PERIOD in microseconds, 1000..1000000"

@test "limits: --memory-max reads BYTES, K M G T P E (1024-based; lowercase as the kernel), max and infinity; nothing else" {
	parsed --memory-max=0 memory_max 0
	parsed --memory-max=1 memory_max 1
	parsed --memory-max=1K memory_max 1024
	parsed --memory-max=3M memory_max 3145728
	parsed --memory-max=2G memory_max 2147483648
	parsed --memory-max=1T memory_max 1099511627776
	parsed --memory-max=1P memory_max 1125899906842624
	parsed --memory-max=15E memory_max 17293822569102704640
	parsed --memory-max=1k memory_max 1024
	parsed --memory-max=3g memory_max 3221225472
	parsed --memory-max=2e memory_max 2305843009213693952
	parsed --memory-max=18446744073709551615 memory_max 18446744073709551615
	parsed --memory-max=16777215T memory_max 18446742974197923840
	parsed --memory-max=max memory_max max
	parsed --memory-max=infinity memory_max max
	for bad in '' ' 1' '1 ' -1 +1 1.5G 1KB 1KiB 1Z 1B G k 50% MAX 0x10 \
		18446744073709551616; do
		refused "--memory-max=$bad" "$MEMG"
	done
	refused --memory-max=16777216T "too large"
	refused --memory-max=16E "too large"
}

@test "limits: --pids-max reads 1..4194304, max and infinity" {
	parsed --pids-max=1 pids_max 1
	parsed --pids-max=4194304 pids_max 4194304
	parsed --pids-max=max pids_max max
	parsed --pids-max=infinity pids_max max
	for bad in 0 4194305 '' -1 +5 5K 1.0 ' 5' 99999999999999999999; do
		refused "--pids-max=$bad" "$PIDG"
	done
}

@test "limits: --cpu-max reads QUOTA[/PERIOD] in microseconds, P% of one CPU, max; as cpu.max takes it" {
	parsed --cpu-max=50000 cpu_max "50000 100000"
	parsed --cpu-max=1000 cpu_max "1000 100000"
	parsed --cpu-max=50000/200000 cpu_max "50000 200000"
	parsed --cpu-max=1000/1000 cpu_max "1000 1000"
	parsed --cpu-max=2000000/1000000 cpu_max "2000000 1000000"
	parsed --cpu-max=50% cpu_max "50000 100000"
	parsed --cpu-max=1% cpu_max "1000 100000"
	parsed --cpu-max=250% cpu_max "250000 100000"
	parsed --cpu-max=33%/10000 cpu_max "3300 10000"
	parsed --cpu-max=max cpu_max "max 100000"
	parsed --cpu-max=max/20000 cpu_max "max 20000"
	parsed --cpu-max='50000 100000' cpu_max "50000 100000"
	parsed --cpu-max='max 20000' cpu_max "max 20000"
	parsed --cpu-max=17592186044415 cpu_max "17592186044415 100000"
	for bad in '' 999 0 50 1000/999 1000/1000001 1000/ /100000 \
		'50000  100000' '50000/ 100000' '50000 100000 ' 50000/100000/1 \
		'50000 100000/1' 1.5% 50%% -50% infinity MAX \
		max/0 17592186044416 50000/1e5; do
		refused "--cpu-max=$bad" "$CPUG"
	done
	for low in 1%/1000 0% 17592186044416%; do
		run "$LEASH" --cpu-max=$low -- true
		assert_status 125
		assert_output "leash: invalid --cpu-max '$low': the quota it gives is below 1000 microseconds or beyond the kernel's"
	done
	parsed --cpu-max=000000000000000000000000001000/0000000000000000001000 cpu_max "1000 1000"
}

@test "limits: no leaf, no launch: --cgroup=off, or auto without root, refuses a limit in one line, 125" {
	run "$LEASH" --cgroup=off --pids-max=5 -- touch "$W/ran"
	assert_status 125
	assert_output "leash: --pids-max needs a per-launch cgroup leaf, and there is none: --cgroup=off"
	[[ ! -e $W/ran ]]
	if [[ $(id -u) != 0 ]]; then
		run "$LEASH" --memory-max=1G -- touch "$W/ran"
	else
		run setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$LEASH" --memory-max=1G -- touch "$W/ran"
	fi
	assert_status 125
	assert_output "leash: --memory-max needs a per-launch cgroup leaf, and there is none: leash is not root (--cgroup=auto)"
	[[ ! -e $W/ran ]]
}

# no_controller CTL: cgroup2 is here and CTL is not (a hybrid host).
no_controller() {
	need_root || return
	cg_detect
	need_leaf || return
	grep -qw "$1" "$CG2/cgroup.controllers" &&
		skip "$1 is available in cgroup2 here"
	return 0
}

@test "limits: a controller cgroup2 lacks here: one line saying so, 125, command not started, no leaf left" {
	for ctl in memory pids cpu; do
		no_controller $ctl
		case $ctl in
		memory) opt=--memory-max=64M ;;
		pids) opt=--pids-max=10 ;;
		cpu) opt=--cpu-max=50% ;;
		esac
		for mode in auto require track; do
			# leash's pid names its leaf (run_<pid>_...): sh's, exec'd.
			run sh -c 'echo $$ >&2; exec "$@"' sh "$LEASH" \
				--cgroup=$mode "$opt" -- touch "$W/ran"
			assert_status 125
			pid=${lines[0]}
			lines=("${lines[@]:1}") output=${output#*$'\n'}
			[[ ${#lines[@]} == 1 ]]
			[[ $output == "leash: ${opt%%=*}: the $ctl controller is not available in cgroup2 here ("*")" ]]
			if awk -v c=$ctl '$1 == c && $2 != 0 { f = 1 } END { exit !f }' /proc/cgroups; then
				assert_output "leash: ${opt%%=*}: the $ctl controller is not available in cgroup2 here (hybrid hierarchy: $ctl is on cgroup v1)"
			fi
			[[ ! -e $W/ran ]]
			[[ -z $(find "$LEAF_TOP" -name "run_${pid}_*" 2>/dev/null) ]]
		done
	done
}

# need_ctl CTL...: root, and each CTL reaches leash's top in cgroup2
# (check-vm's guests; a systemd host enables memory and pids at the root).
need_ctl() {
	need_root || return
	cg_detect
	need_leaf || return
	for c in "$@"; do
		# Not a privilege this run lacks but a host without the
		# controller (a hybrid one): skip, also under LEASH_MUST_RUN;
		# check-vm's guests run these.
		grep -qw "$c" "$CG2/cgroup.subtree_control" ||
			skip "no $c for leash's groups in cgroup2 here (make check-vm runs this)"
	done
}

@test "limits: --memory-max: the OOM killer ends the command: result oom-killed, 137, never a timeout" {
	need_ctl memory
	run "$LEASH" -t 60 --memory-max=32M --report="$R" -v -- "$HOG" mem 256
	assert_status 137
	[[ $(jq -r .result "$R") == oom-killed ]]
	[[ $(jq -r .signal "$R") == KILL ]]
	[[ $(jq -r .exit_status "$R") == 137 ]]
	[[ $(jq -r .limits.memory_max "$R") == 33554432 ]]
	[[ $(jq -r .measured.oom_kills "$R") -ge 1 ]]
	[[ $(jq -c .signals_sent "$R") == "[]" ]]
	[[ $output == *"leash: oom-killed after "*", 1 OOM kill"* ]]
	echo "# ${lines[-1]}" >&3        # the man page's example
	peak=$(jq -r .measured.memory_peak "$R")
	if [[ -e $LEAF_TOP/cgroup.controllers && $peak != null ]]; then
		# memory.peak (5.19+): near the limit, never past it.
		((peak > 8 * 1048576 && peak <= 33554432))
	else
		echo "no memory.peak on $(uname -r): null" >&2
		[[ $peak == null ]]
	fi
	grep -qw memory "$LEAF_TOP/cgroup.subtree_control"
	[[ -z $(leaves_of 0) ]]
}

@test "limits: under the memory limit the command runs to its end: exited 0, no OOM kill" {
	need_ctl memory
	run "$LEASH" --memory-max=64M --report="$R" -- "$HOG" mem 8
	assert_status 0
	assert_output "touched 8 MiB"
	[[ $(jq -r .result "$R") == exited ]]
	[[ $(jq -r .measured.oom_kills "$R") == 0 ]]
}

@test "limits: --pids-max=3: the command and two children, the third fork fails (EAGAIN)" {
	need_ctl pids
	run "$LEASH" --pids-max=3 --report="$R" -- "$HOG" fork 5
	assert_status 0
	assert_output "forked 2 of 5: Resource temporarily unavailable"
	[[ $(jq -r .limits.pids_max "$R") == 3 ]]
	peak=$(jq -r .measured.pids_peak "$R")
	# pids.peak is 6.1's; 5.10 has none: null.
	[[ $peak == 3 || ( $peak == null && ! -e /sys/fs/cgroup/leash/uid_0/pids.peak ) ]]
}

@test "limits: --cpu-max=20%/10000 throttles a spinning command (throttled time > 0, generous bounds)" {
	need_ctl cpu
	run "$LEASH" -v --cpu-max=20%/10000 --report="$R" -- "$HOG" spin 1
	assert_status 0
	[[ $(jq -r .limits.cpu_max "$R") == "2000 10000" ]]
	thr=$(jq -r .measured.cpu_throttled "$R")
	awk -v t="$thr" 'BEGIN { exit !(t > 0.1) }'
	# At most 20% of one CPU: well under the wall time.
	cpu=$(jq -r '.cpu.user + .cpu.system' "$R")
	awk -v c="$cpu" 'BEGIN { exit !(c < 0.7) }'
	[[ ${lines[-1]} == *", throttled "*" s" ]]
	echo "# ${lines[-1]}" >&3        # the man page's example
}

# limited_race [NOSYS clone3 --]: 30 launches with --pids-max=1000 while
# cgvandal removes empty leaves and groups under them.  A launch whose
# leaf went is either made whole again, limits and all, or fails whole
# (125, one line); never a command in a leaf without its limit.
limited_race() {
	need_ctl pids
	VANDAL=${VANDAL:-${LEASH_BUILDDIR:-$TOP/build}/cgvandal}
	[[ -x $VANDAL ]] || must_run_or_skip "build/cgvandal not built"
	lp=$(leaf_parent 0)
	"$VANDAL" "$W/stop" "$lp" "$lp" >"$W/vandal" &
	vandal=$!
	pids=()
	for i in $(seq 30); do
		"$@" "$LEASH" --pids-max=1000 -- sh -c \
			'cat "'"$CG2"'$(sed -n "s/^0:://p" /proc/self/cgroup)/pids.max"' \
			>"$W/out.$i" 2>&1 &
		pids+=($!)
	done
	ok=0
	for i in $(seq 30); do
		rc=0
		wait "${pids[i-1]}" || rc=$?
		out=$(cat "$W/out.$i")
		if [[ $rc == 0 && $out == 1000 ]]; then
			ok=$((ok + 1))
		elif [[ $rc != 125 || $out != "leash: "* || $out == *$'\n'* ]]; then
			echo "launch $i (status $rc): $out" >&2
			kill "$vandal"
			return 1
		fi
	done
	touch "$W/stop"
	wait "$vandal"
	cat "$W/vandal" >&2
	echo "whole: $ok of 30" >&2
	# With clone3 some launches come through whole; on the fork path the
	# vandal may empty every leaf before its child joins, and the child
	# never remakes a limited one: all may fail whole there.
	(($# > 0 || ok > 0))
	grep -Eq 'leaves=[1-9]' "$W/vandal"
}

@test "limits: a leaf removed before the command joins it is made again with its limits, or the launch fails whole" {
	limited_race
}

@test "limits: the same on the fork path (no clone3): the child never remakes a limited leaf" {
	NOSYS=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}
	[[ -x $NOSYS ]] || must_run_or_skip "no nosys helper"
	limited_race "$NOSYS" clone3 --
}
