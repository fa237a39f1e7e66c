#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# --report=FILE and --report-fd=N (one JSON object when leash ends, checked
# with jq), the -v identity and summary lines, and no silent drops of a
# cgroup option.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	common_setup
	command -v jq >/dev/null || must_run_or_skip "no jq (build-aux/deps.sh check installs it)"
	R=$TMP/report.json
	OPEN=
}

teardown() {
	common_teardown
	[[ $OPEN == /tmp/leash_t.* ]] && rm -rf "$OPEN"
	return 0
}

# as_nobody CMD...: CMD as uid/gid 65534, no groups, no capabilities.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@"
}

# jqr FILTER [FILE]: jq -r FILTER on the report (default $R); fails on
# anything that is not exactly one valid JSON object.
jqr() {
	local f=${2:-$R}
	[ "$(jq -s 'length' "$f")" = 1 ] || { echo "not one JSON value: $(cat "$f")" >&2; return 1; }
	jq -er "$1" "$f"
}

# Every key the man page documents, in every report.
KEYS='["argv","cgroup","cgroup_reason","core_dumped","cpu","deadline_from","error","exit_status","fallbacks","identity","kills_failed","last_cpu_progress","last_output","leftovers","leftovers_killed","leftovers_not_listed","limits","measured","pty","reraised","result","signal","signals_not_listed","signals_sent","status","systemd_unit","tree_kill","wall_time"]'

assert_keys() {
	assert_jq "keys == $KEYS" true
}

# --- one report per result ------------------------------------------------------

@test "report: exited, with the command's status, argv and the caller's identity" {
	run "$LEASH" --report="$R" -t 10 -- sh -c 'exit 3'
	assert_status 3
	assert_keys
	assert_jq .result exited
	assert_jq .status 3
	assert_jq .signal null
	assert_jq .exit_status 3
	assert_jq '.argv == ["sh","-c","exit 3"]' true
	assert_jq .identity.source caller
	assert_jq .identity.uid "$(id -u)"
	assert_jq .identity.gid "$(id -g)"
	assert_jq '.signals_sent | length' 0
	assert_jq .error null
	assert_jq .pty false
	# This host has every interface leash uses (tests/fallback.bats
	# takes them away).
	assert_jq '.fallbacks == []' true
	assert_jq '.wall_time >= 0 and .wall_time < 10' true
	assert_jq '.cpu.source' rusage
}

@test "report: the command's own exit 124 is result exited, status 124" {
	run "$LEASH" --report="$R" -t 10 -- sh -c 'exit 124'
	assert_status 124
	assert_jq .result exited
	assert_jq .status 124
	assert_jq '.signals_sent | length' 0
}

@test "report: timeout: TERM at the deadline, with its time and the processes it reached" {
	run "$LEASH" --report="$R" --cgroup=off -t 0.3 -- sh -c 'sleep 10 & sleep 10'
	assert_status 124
	assert_jq .result timeout
	assert_jq .status null
	assert_jq .signal TERM
	assert_jq .exit_status 124
	assert_jq .tree_kill subreaper
	assert_jq '.signals_sent | length' 1
	assert_jq '.signals_sent[0].signal' TERM
	assert_jq '.signals_sent[0].why' deadline
	# sh and its two sleeps.
	assert_jq '.signals_sent[0].processes' 3
	assert_jq '.signals_sent[0].at >= 0.3 and .signals_sent[0].at < 5' true
	assert_jq '.wall_time >= .signals_sent[0].at' true
}

@test "report: killed-after-timeout: TERM caught, KILL after -k" {
	BOUND=20 run bounded "$LEASH" --report="$R" -t 0.2 -k 0.2 -- probe -t -s 10 -q
	assert_status 137
	assert_jq .result killed-after-timeout
	assert_jq .signal KILL
	assert_jq .exit_status 137
	assert_jq '[.signals_sent[].why] == ["deadline","kill-after"]' true
	assert_jq '[.signals_sent[].signal] == ["TERM","KILL"]' true
}

@test "report: idle and stalled: --idle and --stall ended it, with the last output and the last CPU progress" {
	run "$LEASH" --report="$R" --cgroup=off --idle=0.4 -t 20 -k 5 -- \
		sh -c 'echo one; sleep 0.2; echo two; sleep 10'
	assert_status 124
	assert_keys
	assert_jq .result idle
	assert_jq .signal TERM
	assert_jq '[.signals_sent[].why] == ["idle"]' true
	assert_jq '.last_output > 0.1 and .last_output < 1' true
	assert_jq .last_cpu_progress null
	run "$LEASH" --report="$R" --cgroup=off --stall=0.4 -t 20 -- sleep 10
	assert_status 124
	assert_jq .result stalled
	assert_jq '.signals_sent[0].why' stalled
	assert_jq '.last_cpu_progress < .signals_sent[0].at' true
	assert_jq .last_output null
	# Not watched: null, whatever ended it.
	run "$LEASH" --report="$R" --warn=USR1@0.1 -t 0.3 -- sh -c 'trap "" USR1; sleep 10'
	assert_status 124
	assert_jq .result timeout
	assert_jq '[.signals_sent[].why] == ["warn","deadline"]' true
	assert_jq '.last_output == null and .last_cpu_progress == null' true
}

@test "report: killed-from-outside: a SIGKILL leash did not send" {
	"${DFL[@]}" "$LEASH" --report="$R" -t 30 -- probe -o "$TMP/ready" -m "$MARK" -s 30 -q &
	local lpid=$! st=0
	track "$lpid"
	wait_file "$TMP/ready"
	kill -KILL "$(report_get pid "$TMP/ready")"
	wait "$lpid" || st=$?
	[ "$st" -eq 137 ]
	assert_jq .result killed-from-outside
	assert_jq .signal KILL
	assert_jq .reraised true
	assert_jq .exit_status 137
	assert_jq '.signals_sent | length' 0
}

@test "report: signaled: the command's own signal, passed on" {
	run "$PROBE" -W -- "$LEASH" --report="$R" -- sh -c 'kill -USR1 $$'
	[ "${lines[0]}" = status=signal:10 ]
	assert_jq .result signaled
	assert_jq .signal USR1
	assert_jq .reraised true
	assert_jq .exit_status 138
}

@test "report: a core dump: signaled, core_dumped true (leash itself dumps none)" {
	[ "$(ulimit -Hc)" != 0 ] || skip "core dumps are disabled by the hard limit"
	cd "$TMP"
	run --separate-stderr "$PROBE" -W -C -- "$LEASH" --report="$R" -- sh -c 'ulimit -c unlimited; kill -SEGV $$'
	[ "${lines[0]}" = status=signal:11 ]
	[ "${lines[1]}" = core=0 ]
	[ "$stderr" = "leash: the monitored command dumped core" ]
	assert_jq .result signaled
	assert_jq .signal SEGV
	assert_jq .status null
	assert_jq .core_dumped true
	rm -f "$TMP"/core*
}

@test "report: an exit after the deadline's TERM is a timeout with a status, no signal" {
	run "$LEASH" --report="$R" --cgroup=off -t 0.3 -- sh -c 'trap "exit 3" TERM; sleep 10 & wait'
	assert_status 124
	assert_jq .result timeout
	assert_jq .status 3
	assert_jq .signal null
	assert_jq .core_dumped false
}

@test "report: a forwarded signal is listed as forwarded" {
	"${DFL[@]}" "$LEASH" --report="$R" -t 30 -- probe -c HUP -E -x 4 -o "$TMP/ready" -m "$MARK" -s 30 -q &
	local lpid=$! st=0
	track "$lpid"
	wait_file "$TMP/ready"
	kill -HUP "$lpid"
	wait "$lpid" || st=$?
	[ "$st" -eq 4 ]
	assert_jq .result exited
	assert_jq '.signals_sent[0].signal' HUP
	assert_jq '.signals_sent[0].why' forwarded
}

# --- leash's own failures ----------------------------------------------------------

@test "report: leash's own failures are reported with the message, result failed" {
	run "$LEASH" --report="$R" -u no-such-user-$MARK -- true
	assert_status 125
	assert_keys
	assert_jq .result failed
	assert_jq .exit_status 125
	assert_jq .error "cannot resolve user 'no-such-user-$MARK': no such user$(nss_hint passwd)"
	# The command was given: the report names it.
	assert_jq '.argv == ["true"]' true
	# -l without a command: the shell is the user's, unknown.
	run "$LEASH" --report="$R" -l -u no-such-user-$MARK
	assert_status 125
	assert_jq .argv null
	# A usage error after the option.
	run "$LEASH" --report="$R" -t 1x -- true
	assert_status 125
	assert_jq .result failed
	assert_jq .error "invalid time interval '1x'"
	# The command not found: 127, the exec's message.
	run -127 "$LEASH" --report="$R" -t 5 -- no-such-command-$MARK
	assert_status 127
	assert_jq .result failed
	assert_jq .exit_status 127
	assert_jq '.argv[0]' "no-such-command-$MARK"
	[[ $(jqr .error) == "failed to run command 'no-such-command-$MARK': "* ]]
	# A cgroup failure: a --cgroup-root that is no cgroup directory.
	run "$LEASH" --report="$R" --cgroup-root "$TMP" -- true
	assert_status 125
	assert_jq .result failed
	[[ $(jqr .error) == "--cgroup-root '$TMP' is not on a cgroup filesystem"* ]]
}

@test "report: a cgroup failure under --cgroup=require is reported" {
	[[ $(id -u) == 0 ]] || skip "as root: require fails where the cgroup cannot be made"
	run as_nobody "$LEASH" --report-fd=1 --cgroup=require -- true
	assert_status 125
	R=$TMP/out
	printf '%s\n' "${lines[@]:1}" >"$R"
	assert_jq .result failed
	[[ $(jqr .error) == *cgroup* ]]
	[[ ${lines[0]} == leash:*cgroup* ]]
}

@test "report: an unwritable path fails before the command starts: 125, one line" {
	run "$LEASH" --report="$TMP/no/such/dir/r.json" -- touch "$TMP/ran"
	assert_status 125
	assert_lines 1
	[[ $output == "leash: cannot write report to '$TMP/no/such/dir/r.json': No such file or directory" ]]
	[ ! -e "$TMP/ran" ]
	run "$LEASH" --report="$TMP" -- touch "$TMP/ran"
	assert_status 125
	assert_lines 1
	[[ $output == "leash: cannot write report to '$TMP': Is a directory" ]]
	[ ! -e "$TMP/ran" ]
	run "$LEASH" --report-fd=9 -- touch "$TMP/ran"
	assert_status 125
	assert_lines 1
	[[ $output == "leash: cannot write report to descriptor 9: Bad file descriptor" ]]
	run "$LEASH" --report-fd=0 -- touch "$TMP/ran" </dev/null
	assert_status 125
	run "$LEASH" --report-fd=x -- touch "$TMP/ran"
	assert_status 125
	[ ! -e "$TMP/ran" ]
}

@test "report: the file is replaced whole, no temporary left; --report-fd writes the descriptor and the command does not get it" {
	local fds
	fds=$("$LEASH" -- probe -k fds)
	echo old >"$R"
	run "$LEASH" --report="$R" -- probe -k fds
	assert_output "$fds"
	assert_jq .result exited
	[ "$(ls "$TMP")" = report.json ]
	run bash -c 'exec "$LEASH" --report-fd=5 -- probe -k fds 5>"$1"' bash "$R"
	assert_output "$fds"
	assert_jq .result exited
}

@test "report: the new file gets the mode a shell's > gives; a reader holding the old one still reads it whole" {
	echo old >"$R"
	exec 7<"$R"
	run bash -c 'umask 027; exec "$LEASH" --report="$1" -- true' bash "$R"
	assert_status 0
	assert_jq .result exited
	[ "$(stat -c %a "$R")" = 640 ]
	[ "$(cat <&7)" = old ]
	exec 7<&-
	[ "$(ls "$TMP")" = report.json ]
}

@test "report: the temporary is mode 0600 until the report is complete, whatever the umask" {
	# The command looks at the temporary while leash runs it.
	run bash -c 'umask 0; exec "$LEASH" --report="$1" -- sh -c "stat -c %a \"\$1\".??????" sh "$1"' bash "$R"
	assert_status 0
	assert_output 600
	# Complete, it has the mode a shell's > gives, less the group's
	# and others' write (harden.bats).
	[ "$(stat -c %a "$R")" = 644 ]
	[ "$(ls "$TMP")" = report.json ]
}

@test "report: not a regular file (a device, a FIFO, /dev/fd/N, a link to a descriptor): written in place, never replaced" {
	# A descriptor by name: the report goes to the file behind it,
	# after what the command wrote there.
	run bash -c 'exec "$LEASH" --report=/dev/fd/5 -- echo out 5>"$1"' bash "$TMP/fd5"
	assert_status 0
	assert_output out
	R=$TMP/fd5 assert_jq .result exited
	# A link to a descriptor (a name for /dev/stdout): the link stays.
	ln -s /dev/stdout "$TMP/to-stdout"
	run "$LEASH" --report="$TMP/to-stdout" -- echo out
	assert_status 0
	[ "${lines[0]}" = out ]
	jq -e '.argv == ["echo","out"]' <<<"${lines[1]}"
	[ -L "$TMP/to-stdout" ]
	# A FIFO: opened for its reader, written, still a FIFO.
	mkfifo "$TMP/fifo"
	cat "$TMP/fifo" >"$TMP/from-fifo" &
	local reader=$!
	run "$LEASH" --report="$TMP/fifo" -- true
	assert_status 0
	wait "$reader"
	[ -p "$TMP/fifo" ]
	R=$TMP/from-fifo assert_jq .result exited
	# The null device, for a caller who may not write its directory.
	run as_nobody "$LEASH" --report=/dev/null -- true
	assert_status 0
	[ -c /dev/null ]
	# A device node of one's own (as root: mknod).
	if [[ $(id -u) == 0 ]]; then
		mknod -m 666 "$TMP/null" c 1 3
		run "$LEASH" --report="$TMP/null" -- true
		assert_status 0
		[ -c "$TMP/null" ]
	fi
	[ -z "$(ls "$TMP" | grep -v -x -e fd5 -e to-stdout -e fifo -e from-fifo -e null)" ]
}

@test "report: /dev/null, /dev/stdout and /dev/stderr as root: written in place, the device and the links stay (a private /dev)" {
	need_root "a private mount namespace"
	need_mountns
	# A /dev of the test's own, so that a leash that replaced them
	# harms nothing outside.
	run unshare -m --propagation private -- bash -c '
		mount -t tmpfs -o mode=755 leash-test-dev /dev || exit 99
		ln -s /proc/self/fd /dev/fd && ln -s fd/1 /dev/stdout &&
		ln -s fd/2 /dev/stderr && mknod -m 666 /dev/null c 1 3 || exit 98
		"$LEASH" --report=/dev/null -- true || exit 1
		"$LEASH" --report=/dev/stdout -- echo out >"$1" || exit 2
		"$LEASH" --report=/dev/stderr -- true 2>"$2" || exit 3
		[ -c /dev/null ] && [ -L /dev/stdout ] && [ -L /dev/stderr ] || exit 4
		[ -z "$(ls /dev | grep -v -x -e fd -e stdout -e stderr -e null)" ] || exit 5
		echo /dev unchanged' bash "$TMP/out" "$TMP/err"
	[[ $status != 99 && $status != 98 ]] || skip "cannot make a private /dev here"
	assert_status 0
	assert_output "/dev unchanged"
	[ "$(head -n 1 "$TMP/out")" = out ]
	sed -n 2p "$TMP/out" >"$TMP/out.json"
	R=$TMP/out.json assert_jq .result exited
	R=$TMP/err assert_jq .result exited
}

@test "report: a path in a directory others may write is refused before the command starts: 125, one line" {
	local d dirs=(sticky other-owner)
	mkdir "$TMP/sticky" "$TMP/other-owner" "$TMP/group-writable"
	chmod 1777 "$TMP/sticky"
	# Another owner (root gives it away), else a write bit for all.
	chown 65534 "$TMP/other-owner" 2>/dev/null || chmod 777 "$TMP/other-owner"
	# A group write bit, for a group that is neither root's nor
	# leash's own (root: nogroup; others: one of their other groups).
	chmod 775 "$TMP/group-writable"
	if chgrp 65534 "$TMP/group-writable" 2>/dev/null ||
	   chgrp "$(id -G | tr ' ' '\n' | grep -v -x -e 0 -e "$(id -g)" | head -n 1)" "$TMP/group-writable" 2>/dev/null; then
		dirs+=(group-writable)
	fi
	for d in "${dirs[@]}"; do
		run "$LEASH" --report="$TMP/$d/r.json" -- touch "$TMP/ran"
		assert_status 125
		assert_output "leash: cannot write report to '$TMP/$d/r.json': others may write its directory (use one of your own, or --report-fd)"
		[ ! -e "$TMP/ran" ]
		[ -z "$(ls -A "$TMP/$d")" ]
	done
	# Where the target of -u may write, what it plants at the path (a
	# directory) made leash fail after the command ran: now nothing
	# runs.
	if [[ $(id -u) == 0 ]]; then
		run "$LEASH" --report="$TMP/sticky/r.json" -u nobody -- mkdir "$TMP/sticky/r.json"
		assert_status 125
		[ ! -e "$TMP/sticky/r.json" ]
	fi
	# A directory of one's own, group-writable for leash's own group:
	# written.
	mkdir "$TMP/mine"
	chmod 775 "$TMP/mine"
	run "$LEASH" --report="$TMP/mine/r.json" -- true
	assert_status 0
	R=$TMP/mine/r.json assert_jq .result exited
}

@test "report: a full disk: the message names the command's status, exit 125" {
	run bash -c 'exec "$LEASH" --report-fd=5 -- sh -c "exit 3" 5>/dev/full'
	assert_status 125
	[[ $output == "leash: cannot write report: No space left on device"* ]]
}

@test "report: strings are valid JSON: quotes, backslashes, control characters, invalid UTF-8 as U+FFFD" {
	local a=$'q"b\\s\n\t\x01\x7f' b=$'caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80' c=$'x\xffy\xc0\xafz\xed\xa0\x80w\xe2\x82'
	run "$LEASH" --report="$R" -- true "$a" "$b" "$c"
	assert_status 0
	[ "$(jq -r '.argv[1]' "$R")" = "$a" ]
	[ "$(jq -r '.argv[2]' "$R")" = "$b" ]
	# Every byte that is no part of valid UTF-8 is one U+FFFD.
	[ "$(jq -r '.argv[3]' "$R")" = $'x\xef\xbf\xbdy\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdw\xef\xbf\xbd\xef\xbf\xbd' ]
	grep -qF '\u0001' "$R"
	grep -qF '\u007f' "$R"
}

@test "report: a report larger than its first buffer (long arguments) is whole, in order" {
	# 2 KiB are formatted in place; beyond that the buffer moves to the
	# heap, and what was written so far must move with it.
	local long
	long=$(printf 'a%.0s' {1..3000})$'\x01'
	run "$LEASH" --report="$R" -- true x "$long" "$long" y
	assert_status 0
	[ "$(jq -r '.argv | length' "$R")" = 5 ]
	[ "$(jq -r '.argv[0] + .argv[1] + .argv[4]' "$R")" = truexy ]
	[ "$(jq -r '.argv[2]' "$R")" = "$long" ]
	[ "$(jq -r '.argv[3]' "$R")" = "$long" ]
	[ "$(jq -r .result "$R")" = exited ]
}

@test "report: given more than once, every path is checked first and the last one written" {
	mkdir "$TMP/many"
	run "$LEASH" --report="$TMP/many/a" --report-fd=1 --report="$TMP/many/c" -- true
	assert_status 0
	[ -z "$output" ]
	[ "$(ls "$TMP/many")" = c ]
	[ "$(jq -r .result "$TMP/many/c")" = exited ]
	# An unwritable one among them: 125 before the command, nothing left.
	rm "$TMP/many/c"
	run "$LEASH" --report="$TMP/many/a" --report="$TMP/many/b" \
		--report="$TMP/nonexistent/c" -- touch "$TMP/ran"
	assert_status 125
	[ -z "$(ls "$TMP/many")" ]
	[ ! -e "$TMP/ran" ]
}

@test "report: a kill that failed (RLIMIT_NOFILE) is reported and said on stderr" {
	command -v prlimit >/dev/null || skip "no prlimit"
	local n seen=
	for n in 5 6 7 8 9 10 11 12; do
		rm -f "$R"
		# Never 0: the deadline (124), or a failure under the limit
		# (125-127, which bats would take for a missing command).
		BOUND=20 run ! bounded prlimit --nofile="$n" -- bash -c \
			'for f in /proc/$$/fd/*; do f=${f##*/}; ((f > 2)) && eval "exec $f>&-"; done
			 exec "$LEASH" -v --report="$1" --cgroup=off -t 0.2 -- sh -c "setsid probe -m \"\$1\" -s 5 -q & sleep 5" sh "$2"' \
			bash "$R" "$MARK"
		[ -s "$R" ] || continue
		echo "nofile $n: $status: $output" >&2
		if [[ $(jq -r '.kills_failed | length' "$R") -gt 0 ]]; then
			assert_jq '.kills_failed[0].errno' 24
			assert_jq '.kills_failed[0].target' tree
			assert_jq .result timeout
			[[ $output == *"leash: cannot send signal TERM to every process of the command (tree): "* ]]
			[[ $output == *", 1 kill failed, CPU "* ]]
			seen=1
		fi
	done
	[ -n "$seen" ]
	for n in $(marked_pids); do kill -KILL "$n"; done
}

@test "report: CPU of a tree burning about 0.5 s in two processes, within 20%" {
	local burn=${LEASH_BUILDDIR:-$TOP/build}/burn
	[[ -x $burn ]] || skip "no burn helper"
	run "$LEASH" --report="$R" --cgroup=off -- sh -c \
		'"$1" 0.25 >"$2.a" & "$1" 0.25 >"$2.b"; wait' sh "$burn" "$TMP/burn"
	assert_status 0
	local want got
	# What the two burners say they used (their own getrusage).
	want=$(sed -n 's/^cpu=//p' "$TMP/burn.a" "$TMP/burn.b" | awk '{ s += $1 } END { print s }')
	got=$(jq -r '.cpu.user + .cpu.system' "$R")
	echo "burners $want s, report $got s" >&2
	awk -v w="$want" -v g="$got" 'BEGIN { exit !(w >= 0.5 && g >= w * 0.8 && g <= w * 1.2) }'
}

@test "report: CPU includes an adopted process leash reaped" {
	local burn=${LEASH_BUILDDIR:-$TOP/build}/burn
	[[ -x $burn ]] || skip "no burn helper"
	run "$LEASH" --report="$R" --cgroup=off -- sh -c \
		'setsid sh -c "\"\$1\" 0.3 >\"\$2\" & exit 0" sh "$1" "$2"
		 while [ ! -s "$2" ]; do sleep 0.05; done; sleep 0.1' sh "$burn" "$TMP/burn"
	assert_status 0
	jq -e '.cpu.user + .cpu.system >= 0.3 * 0.8' "$R"
}

# --- -v: the identity first, the summary last ------------------------------------

@test "-v: starts with the identity, ends with one summary line" {
	run --separate-stderr "$LEASH" -v --cgroup=off -t 0.3 -- sh -c 'sleep 10 & sleep 10'
	assert_status 124
	[[ ${stderr_lines[0]} =~ ^leash:\ running\ as\ the\ caller,\ uid\ $(id -u),\ groups\ [0-9,]+$ ]]
	[[ ${stderr_lines[-1]} =~ ^leash:\ timeout\ after\ 0\.[3-9][0-9]\ s:\ TERM\ to\ 3\ processes,\ CPU\ [0-9]+\.[0-9][0-9]\ s$ ]]
	run --separate-stderr "$LEASH" -v -- sh -c 'exit 5'
	assert_status 5
	[[ ${stderr_lines[-1]} =~ ^leash:\ exited\ with\ status\ 5\ after\ [0-9.]+\ s,\ CPU\ [0-9.]+\ s$ ]]
}

@test "-v: the identity line of -u USER says how it was resolved" {
	need_root "-u"
	run --separate-stderr "$LEASH" -v -u nobody -- true
	assert_status 0
	[[ ${stderr_lines[0]} == "leash: running as nobody ($(id -u nobody)), groups "*", from /etc/passwd" ]]
	run --separate-stderr "$LEASH" -v -u 3999999 --cgroup=off -- true
	[[ ${stderr_lines[0]} == "leash: running as 3999999 (3999999), groups 3999999, a number without a passwd entry" ]]
}

@test "report: as a non-root caller too (tree kill by the subreaper)" {
	[[ $(id -u) == 0 ]] || skip "runs leash as nobody from root"
	# A directory of its own: one others may write is refused.
	OPEN=$(mktemp -d /tmp/leash_t.XXXXXX)
	chown 65534:65534 "$OPEN"
	R=$OPEN/r.json
	run as_nobody "$LEASH" --report="$R" -t 0.3 -- sh -c 'setsid sleep 10 & sleep 10'
	assert_status 124
	assert_jq .result timeout
	assert_jq .tree_kill subreaper
	assert_jq .identity.uid 65534
	assert_jq .cgroup null
	assert_jq .cgroup_reason "leash is not root (--cgroup=auto)"
	assert_jq '.signals_sent[0].processes' 3
}

@test "report: as root with a cgroup leaf, the cgroup, its leaf and cpu.stat" {
	need_root "cgroups"
	run "$LEASH" --report="$R" --cgroup=require -u nobody -t 1 -- sh -c 'setsid sleep 10 & sleep 10'
	[[ $status == 124 || $status == 125 ]]
	if [[ $status == 125 ]]; then
		assert_jq .result failed
		skip "no usable cgroup here: $(jq -r .error "$R")"
	fi
	assert_jq .result timeout
	[[ $(jqr .cgroup.hierarchy) == v[12] ]]
	[[ $(jqr .cgroup.path) == */uid_$(id -u nobody) ]]
	[[ $(jqr .cgroup.uid_group) == created || $(jqr .cgroup.uid_group) == joined ]]
	assert_jq .identity.source passwd
	assert_jq .identity.user nobody
	assert_jq '.signals_sent[0].processes >= 2' true
	if [[ $(jqr .cgroup.leaf) != null ]]; then
		assert_jq .tree_kill cgroup
		assert_jq .cpu.source cgroup
	fi
}

@test "report: --cgroup=track names the leaf it used" {
	need_root "a cgroup leaf"
	run "$LEASH" --report="$R" --cgroup=track -t 0.3 -- sh -c 'sleep 10 & sleep 10'
	[[ $status == 124 || $status == 125 ]]
	if [[ $status == 125 ]]; then
		assert_jq .result failed
		skip "no cgroup2 here: $(jq -r .error "$R")"
	fi
	assert_jq .tree_kill cgroup
	assert_jq .cgroup.hierarchy v2
	assert_jq .cgroup_reason null
	[[ $(jqr .cgroup.path) == */leash/uid_0 ]]
	[[ $(jqr .cgroup.leaf) == "$(jqr .cgroup.path)"/run_* ]]
	assert_jq .cgroup.uid_group null
	assert_jq .cgroup.weight null
	assert_jq .cpu.source cgroup
	assert_jq '.signals_sent[0].processes' 3
}

@test "report: a signal's processes are counted before it is sent: a command that dies of it at once is counted (a leaf, the subreaper)" {
	need_strace
	local mode modes=(off) tree='for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 10 & done; wait'
	[[ $(id -u) == 0 ]] && modes+=(track)
	for mode in "${modes[@]}"; do
		# strace holds leash 0.2 s after its first kill(2), the
		# command's TERM: sh is gone by then, its 12 sleeps not yet.
		BOUND=20 run bounded "${TRACED[@]}" -qq -o /dev/null -e trace=kill \
			-e inject=kill:delay_exit=200000:when=1 \
			"$LEASH" --report="$R" --cgroup=$mode -t 1 -- sh -c "$tree"
		[[ $mode == track && $status == 125 ]] && continue
		assert_status 124
		echo "$mode: $(jq -c '[.tree_kill, .signals_sent]' "$R")" >&2
		assert_jq '.signals_sent[0].processes' 13
	done
	# The command ended of the TERM, its child did not: -k's KILL
	# reaches that child alone.
	for mode in "${modes[@]}"; do
		BOUND=20 run bounded "$LEASH" --report="$R" --cgroup=$mode -t 0.3 -k 0.3 -- \
			sh -c 'probe -t -m "$1" -s 30 -q & wait' sh "$MARK"
		assert_status 124
		echo "$mode: $(jq -c '[.tree_kill, .signals_sent]' "$R")" >&2
		assert_jq '[.signals_sent[] | [.signal, .processes]] == [["TERM", 2], ["KILL", 1]]' true
	done
}

# leftovers MODE [LEASH-ARGS...]: leash -v --report, its cgroup MODE, runs
# a command that leaves a probe running (once it runs: its -o file), its
# output elsewhere (else `run` waits for it); PID is the probe's.
leftovers() {
	local mode=$1
	shift
	rm -f "$TMP/ready"
	run --separate-stderr "$LEASH" -v --report="$R" --cgroup="$mode" "$@" -- \
		sh -c 'probe -m "$1" -o "$2" -s 30 -q >/dev/null 2>&1 &
		       until [ -e "$2" ]; do sleep 0.01; done; echo $!' sh "$MARK" "$TMP/ready"
	assert_status 0
	PID=$output
	[[ $PID =~ ^[0-9]+$ ]]
}

# leaf_tidy: the leaf a leftover kept, removed once the leftover is gone.
leaf_tidy() {
	local leaf
	leaf=$(jq -r '.cgroup.leaf // empty' "$R")
	kill -KILL "$PID" 2>/dev/null || true
	wait_gone "$PID"
	[[ -z $leaf ]] || rmdir "$leaf" 2>/dev/null || true
}

@test "report and -v: what the command left running, by pid and name (the subreaper, a leaf)" {
	local mode modes=(off)
	[[ $(id -u) == 0 ]] && modes+=(track)
	for mode in "${modes[@]}"; do
		leftovers "$mode"
		[[ $mode == track ]] && assert_jq .tree_kill cgroup
		assert_jq ".leftovers == [{\"pid\": $PID, \"name\": \"probe\"}]" true
		assert_jq .leftovers_not_listed 0
		assert_jq .leftovers_killed 0
		pid_alive "$PID"
		[ "${stderr_lines[-2]}" = "leash: 1 process left running after the command exited: $PID (probe)" ]
		[[ ${stderr_lines[-1]} == "leash: exited with status 0 after "*", 1 left running, CPU "* ]]
		leaf_tidy
	done
}

@test "report and -v: --kill-leftovers names what it killed (the subreaper, a leaf)" {
	local mode modes=(off)
	[[ $(id -u) == 0 ]] && modes+=(track)
	for mode in "${modes[@]}"; do
		leftovers "$mode" --kill-leftovers
		assert_jq ".leftovers == [{\"pid\": $PID, \"name\": \"probe\"}]" true
		assert_jq .leftovers_killed 1
		assert_jq '[.signals_sent[] | select(.why == "leftovers") | .processes] == [1]' true
		wait_gone "$PID" 2
		[ "${stderr_lines[-2]}" = "leash: killed 1 leftover process: $PID (probe)" ]
		[[ ${stderr_lines[-1]} == *", 1 leftover killed, CPU "* ]]
		leaf_tidy
	done
}

@test "report: what the deadline's signal reached and is dying of is not named a leftover" {
	local mode modes=(off)
	[[ $(id -u) == 0 ]] && modes+=(track)
	for mode in "${modes[@]}"; do
		run "$LEASH" --report="$R" --cgroup="$mode" -t 0.3 -- sh -c 'sleep 10 & sleep 10 & sleep 10'
		assert_status 124
		assert_jq '.leftovers == []' true
	done
	# --foreground without --kill-leftovers: no subreaper, no leaf, so
	# nothing to look with.
	run "$LEASH" --report="$R" --cgroup=off --foreground -- true
	assert_jq .leftovers null
}

@test "man page: the bats example works as it says for any user, 124 in time and nothing left running" {
	[[ $(id -u) == 0 ]] || skip "runs the example as nobody from root"
	command -v bats >/dev/null || skip "no bats"
	local man=$TOP/man/leash.1 intro
	# The sentence that introduces it claims no privilege.
	intro=$(grep -B 12 '^@test "the client gives up" {' "$man" | tr '\n' ' ')
	[[ $intro == *"run by any user"* && $intro != *"as root"* ]]
	OPEN=$(mktemp -d /tmp/leash_t.XXXXXX)
	chown 65534:65534 "$OPEN"
	sed -n '/^@test "the client gives up" {$/,/^}$/p' "$man" >"$OPEN/example.bats"
	[ "$(wc -l <"$OPEN/example.bats")" -ge 3 ]
	ln -s "$LEASH" "$OPEN/leash"
	# Run by nobody, under a leash that says what the example left, from
	# a directory nobody may enter (bats goes back to its cwd; the tree
	# may sit under a 0700 /root).
	R=$OPEN/outer.json
	cd "$OPEN"
	BOUND=30 run bounded setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$LEASH" --report="$R" --kill-leftovers -- \
		env PATH="$OPEN:$PATH" TMPDIR="$OPEN" bats --tap "$OPEN/example.bats"
	assert_status 0
	[[ $output == *"ok 1 the client gives up"* ]]
	assert_jq '.leftovers == []' true
	assert_jq '.wall_time < 10' true
}

@test "-v: a leftover's name reaches the terminal without its control characters; the report escapes them" {
	ln -s "$PROBE" "$TMP/"$'x\e[1mbold'
	rm -f "$TMP/ready"
	run --separate-stderr "$LEASH" -v --report="$R" --cgroup=off -- \
		sh -c '"$1" -m "$2" -o "$3" -s 30 -q >/dev/null 2>&1 &
		       until [ -e "$3" ]; do sleep 0.01; done; echo $!' sh "$TMP/"$'x\e[1mbold' "$MARK" "$TMP/ready"
	assert_status 0
	PID=$output
	[ "${stderr_lines[-2]}" = "leash: 1 process left running after the command exited: $PID (x?[1mbold)" ]
	assert_jq '.leftovers[0].name' $'x\e[1mbold'
	grep -qF '"name":"x\u001b[1mbold"' "$R"
	kill -KILL "$PID"
}
