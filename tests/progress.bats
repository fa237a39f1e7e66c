#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Deadlines that know about progress (DESIGN.md, Progress; issue 33):
# --warn=SIG@DURATION before the deadline in force, --idle=DURATION (no
# output), --stall=DURATION (no CPU in the tree), each ending the command
# as the deadline does; the report's result names which fired.  Times
# are asserted with wide bounds only: speed is make bench's.

bats_require_minimum_version 1.5.0
load helpers
load pty-helpers

setup() {
	common_setup
	command -v jq >/dev/null || must_run_or_skip "no jq (build-aux/deps.sh check installs it)"
	R=$TMP/report.json
}

# --- --warn ---------------------------------------------------------------------

@test "progress: --warn sends its signal once, DURATION before the deadline, to the tree; reported and said under -v" {
	run "$LEASH" -v --report="$R" --cgroup=off --warn=USR1@1 -t 1.8 -- \
		sh -c 'trap "echo warned" USR1; sleep 5 & wait; sleep 5' "$MARK"
	assert_status 124
	# Once: the command is in the group the group's signal reaches.
	[[ $(grep -c '^warned$' <<<"$output") == 1 ]]
	[[ $output == *"leash: sending warning signal USR1 to command 'sh'"* ]]
	assert_jq '[.signals_sent[].why] == ["warn","deadline"]' true
	assert_jq '.signals_sent[0].signal' USR1
	# sh and its sleep.
	assert_jq '.signals_sent[0].processes' 2
	assert_jq '.signals_sent[0].at >= 0.8 and .signals_sent[0].at < 1.3' true
	assert_jq '.result' timeout
}

@test "progress: several --warn go out in the order they fall due, whatever the order given" {
	run "$LEASH" --report="$R" --cgroup=off --warn=HUP@0.4 --warn=USR2@1.2 \
		--warn=USR1@0.8 -t 1.6 -- sh -c 'trap "" HUP USR1 USR2; sleep 3' "$MARK"
	assert_status 124
	assert_jq '[.signals_sent[].signal] == ["USR2","USR1","HUP","TERM"]' true
	assert_jq '[.signals_sent[].at] | . == sort' true
}

@test "progress: a warning whose handler forks: -k waits for the deadline, and the deadline reaches the child it forked" {
	BOUND=20 run bounded "$LEASH" --report="$R" --cgroup=off --warn=USR1@1 -t 1.5 -k 0.5 -- \
		sh -c 'trap "sh -c \"trap \\\"\\\" TERM; sleep 30\" $0 & " USR1; trap "" TERM
		       while :; do sleep 0.1; done' "$MARK"
	assert_status 137
	assert_jq '[.signals_sent[].why] == ["warn","deadline","kill-after"]' true
	# The KILL is -k after the deadline, not after the warning.
	assert_jq '.signals_sent[2].at >= 1.9' true
	# The deadline's TERM reached the forked child too: sh, its sleep
	# 0.1 and the child with its sleep 30.
	assert_jq '.signals_sent[1].processes >= 3' true
	assert_no_leftovers
}

@test "progress: --warn counts from an inherited deadline (LEASH_DEADLINE) that comes first" {
	run "$LEASH" --cgroup=off -t 2 -- "$LEASH" --report="$R" --cgroup=off --warn=USR1@1 -t 30 -- \
		sh -c 'trap "" USR1; sleep 10' "$MARK"
	assert_status 124
	assert_jq '.deadline_from' LEASH_DEADLINE
	assert_jq '.signals_sent[0].why' warn
	assert_jq '.signals_sent[0].at >= 0.7 and .signals_sent[0].at < 1.5' true
}

@test "progress: --warn needs a deadline, and room before it: one line, 125, nothing started" {
	run "$LEASH" --warn=USR1@1 -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: --warn 'USR1@1' needs a deadline: -t DURATION, or LEASH_DEADLINE"
	run "$LEASH" --warn=USR1@3 -t 2 -- touch "$TMP/ran"
	assert_status 125
	assert_lines 1
	[[ $output == "leash: --warn 'USR1@3': not before the deadline"* ]]
	# Inherited: the outer leash's deadline is the one in force.
	run "$LEASH" -t 2 -- "$LEASH" --warn=USR1@5 -- touch "$TMP/ran"
	assert_status 125
	[[ $output == *"(LEASH_DEADLINE)" ]]
	[[ ! -e $TMP/ran ]]
}

@test "progress: bad --warn, --idle, --stall: one line, 125, nothing started" {
	local a
	for a in --warn=USR1 --warn=NOPE@1 --warn=USR1@0 --warn=USR1@-1 --idle=0 \
		 --idle=-2 --idle=1x --stall=0 --stall= --stall=abc; do
		run "$LEASH" "$a" -t 5 -- touch "$TMP/ran"
		assert_status 125
		assert_lines 1
		[[ $output == "leash: invalid --"* ]]
	done
	[[ ! -e $TMP/ran ]]
}

@test "progress: the timeout personality stays GNU's: no --warn, --idle or --stall" {
	local a
	for a in --warn=USR1@1 --idle=1 --stall=1; do
		run "$TIMEOUT" "$a" 5 true
		assert_status 125
		[[ ${lines[0]} == *"timeout: unrecognized option '$a'" ]]
	done
}

# --- --idle ---------------------------------------------------------------------

@test "progress: --idle: output within DURATION keeps it running; then silence ends it as the deadline, 124" {
	run "$LEASH" -v --report="$R" --cgroup=off --idle=0.6 -t 20 -- \
		sh -c 'for i in 1 2 3 4 5; do echo out$i; sleep 0.3; done; sleep 10' "$MARK"
	assert_status 124
	[[ $(grep -c '^out[1-5]$' <<<"$output") == 5 ]]
	assert_jq '.result' idle
	assert_jq '.signals_sent[0].why' idle
	# out5 came near 1.2 s; the end came --idle after it, not before.
	assert_jq '.last_output >= 1 and .last_output < 2.5' true
	assert_jq '.signals_sent[0].at - .last_output >= 0.6' true
	assert_jq '.signals_sent[0].at - .last_output < 1.5' true
	assert_jq '.last_cpu_progress' null
	[[ $output == *"leash: idle after "*" s (no output since "* ]]
}

@test "progress: --idle passes stdout and stderr through unchanged, each to its own, the last line included" {
	"$LEASH" --idle=5 -t 20 -- sh -c 'printf "a\0b"; echo err >&2; seq 1 20000; printf last' \
		>"$TMP/out" 2>"$TMP/err"
	[[ $(head -c 3 "$TMP/out" | od -An -c | tr -d ' ') == 'a\0b' ]]
	[[ $(tail -c 10 "$TMP/out") == $'20000\nlast' ]]
	[[ $(cat "$TMP/err") == err ]]
	# 2>&1: one pipe, the order kept.
	"$LEASH" --idle=5 -t 20 -- sh -c 'for i in 1 2 3; do echo o$i; echo e$i >&2; done' \
		>"$TMP/both" 2>&1
	[[ $(tr '\n' ' ' <"$TMP/both") == 'o1 e1 o2 e2 o3 e3 ' ]]
}

@test "progress: --idle: what waits for a slow reader at the command's exit still reaches it; a leftover holding the pipe does not hold leash" {
	local n t0 t1
	n=$("$LEASH" --idle=5 -t 20 -- sh -c 'head -c 300000 /dev/zero' | (sleep 0.3; wc -c))
	[[ $n == 300000 ]]
	t0=$(now_us)
	run "$LEASH" --idle=5 -t 20 -- sh -c 'echo hi; sleep 4 & exit 0' "$MARK"
	t1=$(now_us)
	assert_status 0
	assert_output hi
	(( t1 - t0 < 2000000 ))
}

@test "progress: --idle: the command's output is a pipe (isatty false) when leash's is no terminal" {
	run "$LEASH" --idle=5 -t 20 -- sh -c '[ -p /dev/stdout ] && echo pipe; [ -t 1 ] || echo notty'
	assert_status 0
	assert_output $'pipe\nnotty'
}

@test "progress: --idle with a reader that stalls does not stretch the deadline" {
	local t0 t1
	mkfifo "$TMP/fifo"
	# The reader opens the FIFO, then reads nothing for 6 s.
	(exec 3<"$TMP/fifo"; sleep 6) &
	track $!
	disown
	t0=$(now_us)
	status=0
	"$LEASH" --report="$R" --cgroup=off --idle=10 -t 0.5 -k 0.5 -- \
		sh -c 'yes' "$MARK" 2>/dev/null 1>"$TMP/fifo" || status=$?
	t1=$(now_us)
	assert_status 124
	assert_jq '.result' timeout
	(( t1 - t0 < 3000000 ))
}

@test "progress: --idle where the output is another user's pipe, which leash cannot make non-blocking: one line, 125, nothing started" {
	need_root "leash as nobody on root's pipe"
	local out
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- \
		"$LEASH" --idle=5 -t 5 -- touch "$TMP/ran" 2>&1 | cat; echo "st=${PIPESTATUS[0]}")
	[[ $out == $'leash: cannot relay the output for --idle: Permission denied\nst=125' ]] ||
		{ echo "$out" >&2; return 1; }
	[[ ! -e $TMP/ran ]]
}

@test "progress: --idle -k: a command that ignores TERM is killed -k after; result idle, exit 137" {
	BOUND=20 run bounded "$LEASH" --report="$R" --cgroup=off --idle=0.3 -t 20 -k 0.3 -- \
		sh -c 'trap "" TERM; echo hi; sleep 10' "$MARK"
	assert_status 137
	assert_jq '.result' idle
	assert_jq '[.signals_sent[].why] == ["idle","kill-after"]' true
}

@test "progress: --idle --preserve-status: the command's own status" {
	run "$LEASH" --report="$R" --cgroup=off --preserve-status --idle=0.3 -t 20 -- \
		sh -c 'trap "exit 3" TERM; sleep 10 & wait' "$MARK"
	assert_status 3
	assert_jq '.result' idle
}

@test "progress: --idle where the output is a terminal: a pty, so stdio stays line-buffered (a line a second is output)" {
	need_pty
	command -v perl >/dev/null || skip "no perl"
	on_pty <<EOF
line "$LEASH" --idle=2.5 -t 20 -- perl -e 'for (1..4) { print "li", "ne \$_\n"; sleep 1 }'; echo s''t:\$?
expect line 4
expect st:0
EOF
}

@test "progress: toybox timeout -i as a peer: the same end for silence (host mode, when toybox is here)" {
	command -v toybox >/dev/null && toybox timeout --help 2>&1 | grep -q -- '-i' ||
		skip "no toybox with timeout -i"
	local cmd='echo a; sleep 0.3; echo b; sleep 3; echo c'
	run toybox timeout -i 1 sh -c "$cmd"
	local peer_status=$status peer_output=$output
	run "$LEASH" --cgroup=off --idle=1 -- sh -c "$cmd"
	assert_status "$peer_status"
	assert_output "$peer_output"
}

# --- --stall --------------------------------------------------------------------

# burn SECS: a busy loop for about SECS of CPU (tests/spin.c's job, in sh).
BURN='burn() { local e=$(( $(date +%s%N) + $1 * 1000000 )); while [ $(date +%s%N) -lt $e ]; do :; done; }'

stall_case() {
	# --stall=2 against a pause of 0.6 s, bursts of 0.5 s: at a load of
	# 13 (the sanitizer build beside three suites) a burst of 0.3 s got
	# too little CPU for /proc's ticks and --stall=1 fired in the pause.
	run "$LEASH" --report="$R" "$@" --stall=2 -t 20 -- \
		sh -c "$BURN"'; burn 500; sleep 0.6; burn 500; sleep 10' "$MARK"
	assert_status 124
	assert_jq '.result' stalled
	assert_jq '.signals_sent[0].why' stalled
	# The pause of 0.6 s was no stall; the end came a --stall after the
	# second burst (about 1.6 s in), not a --stall after the first.
	assert_jq '.last_cpu_progress >= 1 and .last_cpu_progress < 5' true
	assert_jq '.signals_sent[0].at - .last_cpu_progress >= 2' true
	assert_jq '.last_output' null
}

@test "progress: --stall without a leaf (the tree from /proc): a pause shorter than DURATION is no stall" {
	stall_case --cgroup=off
	assert_jq '.tree_kill' subreaper
}

@test "progress: --stall with a leaf (its cpu.stat): a pause shorter than DURATION is no stall" {
	need_root "a tracking leaf"
	stall_case --cgroup=track
	[[ $(jq -r .tree_kill "$R") == cgroup ]] || skip "no cgroup2 leaf here: $(jq -r .cgroup_reason "$R")"
}

@test "progress: --stall: a busy loop is not stalled; the deadline ends it" {
	run "$LEASH" --report="$R" --cgroup=off --stall=0.5 -t 1.5 -- sh -c 'while :; do :; done' "$MARK"
	assert_status 124
	assert_jq '.result' timeout
	assert_jq '.last_cpu_progress > 1' true
}
