#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# A supervisor typed at an interactive prompt: the command must be part of
# the terminal's foreground job, so it can read the terminal and change its
# modes, ^C/^Z/^D reach it, `fg` resumes it, and the deadline keeps
# counting real time while the job is stopped.  Each case runs for the
# `timeout` personality ($TIMEOUT) and for native `leash -t`.  Host mode
# (TIMEOUT=/usr/bin/timeout) runs the `timeout` cases against GNU timeout
# and skips the native ones.  `make check` runs this file once per
# LEASH_WAIT strategy (the shell on the pty inherits it).
#
# tests/ptyrun.c drives a job-control bash on a pty of its own (on_pty in
# pty-helpers.bash; ptyrun's header lists the script commands).  Markers
# typed on a command line are split by quotes (`ti''ck`), so the
# terminal's echo of the line never matches what the command prints.

bats_require_minimum_version 1.5.0
load helpers
load pty-helpers

setup() {
	common_setup
	need_pty
}

# sup timeout|leash SECS: the supervisor prefix a user types.
sup() {
	case $1 in
	timeout) printf 'timeout %s' "$2" ;;
	leash) printf 'leash -t %s --' "$2" ;;
	esac
}

# need_personality timeout|leash: the native cases need leash itself.
need_personality() {
	if [[ $1 == leash ]] && host_mode; then
		skip "host mode: GNU timeout has no native leash personality"
	fi
}

# --- the harness itself, no supervisor -------------------------------------

# bats test_tags=no_waiter
@test "harness: the shell has job control, size, input and ^Z/fg on its pty" {
	on_pty -g 27x91 <<EOF
line stty size
expect 27 91
resize 33 101
line stty size
expect 33 101
line sh -c 'read x; echo got:\$x' $MARK
line hello
expect got:hello
line sh -c 'echo st''arted; read x; echo got:\$x; exit 7' $MARK
expect started
key ^Z
expect Stopped
expect $PROMPT
line fg
line again
expect got:again
expect $PROMPT
line echo r1:\$?
expect r1:7
EOF
}

# bats test_tags=no_waiter
@test "harness: a hangup ends the shell and its stopped job" {
	printf '%s\n' "expect $PROMPT" \
		"line sh -c 'echo st''arted; exec probe -m \$0 -s 30 -q' $MARK" \
		'expect started' 'key ^Z' 'expect Stopped' "expect $PROMPT" \
		'hangup' >"$TMP/script"
	run env PS1="$PROMPT" HISTFILE= TERM=dumb \
		"$PTYRUN" -m "$MARK" -f "$TMP/script" -- bash --norc --noprofile --noediting -i
	assert_status 0
	assert_output status=signal:1
	assert_no_leftovers
}

# --- typed at the prompt ------------------------------------------------------

# The cause of every case below: the command runs in the group the shell
# made the terminal's foreground, the supervisor's.
fg_group_case() {
	need_personality "$1"
	on_pty <<EOF
line $(sup "$1" 5) probe -o "$TMP/report" -q; echo r1:\$?
expect r1:
EOF
	[ "$(screen_value r1)" = 0 ]
	cat "$TMP/report" >&2
	[ "$(report_get pgid "$TMP/report")" = "$(report_get tpgid "$TMP/report")" ]
	[ "$(report_get pgid "$TMP/report")" = "$(report_get ppid "$TMP/report")" ]
}

@test "prompt: the command is in the terminal's foreground group (timeout)" {
	fg_group_case timeout
}

@test "prompt: the command is in the terminal's foreground group (leash -t)" {
	fg_group_case leash
}

# The size the harness set, at once and with status 0.  (TIOCGWINSZ is
# allowed from a background group too; the next case, which sets modes,
# is the one a command in a background group fails.)
stty_size_case() {
	need_personality "$1"
	on_pty -g 27x91 <<EOF
clock
line $(sup "$1" 5) stty size; echo r1:\$?
expect 27 91
expect r1:
time done
EOF
	[ "$(screen_value r1)" = 0 ]
	secs_lt "$(measured done)" 3
}

@test "prompt: stty size prints the size and exits 0 at once (timeout)" {
	stty_size_case timeout
}

@test "prompt: stty size prints the size and exits 0 at once (leash -t)" {
	stty_size_case leash
}

# stty changes the terminal's modes (tcsetattr from a background group
# is stopped by SIGTTOU): the next typed line is not echoed.
stty_set_case() {
	need_personality "$1"
	on_pty <<EOF
clock
line $(sup "$1" 5) stty -echo; echo r1:\$?
expect r1:
time done
expect $PROMPT
line echo qu''iet
expect quiet
line stty echo
EOF
	[ "$(screen_value r1)" = 0 ]
	secs_lt "$(measured done)" 3
	if grep -aF "echo qu''iet" "$TMP/screen"; then
		echo "the line typed after stty -echo was echoed" >&2
		return 1
	fi
}

@test "prompt: stty -echo changes the terminal at once (timeout)" {
	stty_set_case timeout
}

@test "prompt: stty -echo changes the terminal at once (leash -t)" {
	stty_set_case leash
}

read_line_case() {
	need_personality "$1"
	on_pty <<EOF
line $(sup "$1" 5) sh -c 'echo re''ady; read x; echo got:\$x' $MARK
expect ready
clock
line hello
timeout 3
expect got:hello
timeout 10
time done
expect $PROMPT
line echo r1:\$?
expect r1:
EOF
	[ "$(screen_value r1)" = 0 ]
	secs_lt "$(measured done)" 3
}

@test "prompt: a command reads a typed line (timeout)" {
	read_line_case timeout
}

@test "prompt: a command reads a typed line (leash -t)" {
	read_line_case leash
}

# cat copies a typed line (the echo, then cat's copy), then ^D is its EOF.
eof_case() {
	need_personality "$1"
	on_pty <<EOF
line $(sup "$1" 5) cat; echo r1:\$?
send ping\r
timeout 3
expect ping\r\nping\r\n
clock
key ^D
timeout 10
expect r1:
time done
EOF
	[ "$(screen_value r1)" = 0 ]
	secs_lt "$(measured done)" 3
}

@test "prompt: ^D ends cat, status 0 (timeout)" {
	eof_case timeout
}

@test "prompt: ^D ends cat, status 0 (leash -t)" {
	eof_case leash
}

# The probe prints the start marker itself, so ^C cannot come before it
# runs; the shell waits for it, and both carry $MARK, so a process left
# running is seen by on_pty's leftover check.
interrupt_case() {
	need_personality "$1"
	on_pty <<EOF
line GO=st''arted $(sup "$1" 10) sh -c 'probe -k env:GO -m \$0 -s 30; exit 3' $MARK
expect started
clock
key ^C
expect $PROMPT
time done
line echo r1:\$?
expect r1:
EOF
	[ "$(screen_value r1)" = 130 ]
	secs_lt "$(measured done)" 3
}

@test "prompt: ^C ends the job, status 130 (timeout)" {
	interrupt_case timeout
}

@test "prompt: ^C ends the job, status 130 (leash -t)" {
	interrupt_case leash
}

# A counter printing every 0.1 s: while the job is stopped it prints
# nothing and its count file stays the same; `fg` resumes it where it was
# (the first tick after fg follows the last one before ^Z).
suspend_case() {
	need_personality "$1"
	on_pty <<EOF
line $(sup "$1" 20) sh -c 'i=0; while :; do i=\$((i+1)); echo \$i >"$TMP/count"; echo ti''ck:\$i; sleep 0.1; done' $MARK
expect tick:3
key ^Z
expect Stopped
expect $PROMPT
refute 0.5 tick:
line echo c1:\$(cat "$TMP/count")
expect $PROMPT
refute 0.5 tick:
line echo c2:\$(cat "$TMP/count")
expect $PROMPT
line fg
expect tick:
expect \n
key ^C
EOF
	local c1 c2 last next
	c1=$(screen_value c1) c2=$(screen_value c2)
	last=$(tr -d '\r' <"$TMP/screen" | sed -n '1,/Stopped/p' | grep -aoE 'tick:[0-9]+' | tail -n 1)
	next=$(tr -d '\r' <"$TMP/screen" | sed -n '/^c2:[0-9]/,$p' | grep -aoE 'tick:[0-9]+' | head -n 1)
	echo "count while stopped: $c1, $c2; ticks: $last before ^Z, $next after fg" >&2
	[ -n "$c1" ] && [ "$c1" = "$c2" ]
	[ "${next#tick:}" = $((${last#tick:} + 1)) ]
}

@test "prompt: ^Z stops the whole job, fg resumes it (timeout)" {
	suspend_case timeout
}

@test "prompt: ^Z stops the whole job, fg resumes it (leash -t)" {
	suspend_case leash
}

# stopped_deadline_case PERSONALITY FG: deadline 3 s, the job stopped by
# ^Z from 0.5 s to FG s.  Real time, so it ends at about 3 s when FG is
# 2.5 (not 5 s, as a deadline that pauses would), and as soon as it is
# resumed when FG is 3.5 (not 6 s); 124 either way.
stopped_deadline_case() {
	need_personality "$1"
	on_pty <<EOF
line $(sup "$1" 3) sh -c 'echo st''arted; exec sleep 10' $MARK
expect started
clock
at 0.5
key ^Z
expect Stopped
expect $PROMPT
at $2
line fg
expect $PROMPT
time done
line echo r1:\$?
expect r1:
EOF
	echo "ended after $(measured done) s" >&2
	[ "$(screen_value r1)" = 124 ]
	secs_lt "$(measured done)" 4.6
}

@test "deadline: real time while the job is stopped by ^Z (timeout)" {
	stopped_deadline_case timeout 2.5
}

@test "deadline: real time while the job is stopped by ^Z (leash -t)" {
	stopped_deadline_case leash 2.5
}

@test "deadline: passed while stopped, it fires on fg (timeout)" {
	stopped_deadline_case timeout 3.5
}

@test "deadline: passed while stopped, it fires on fg (leash -t)" {
	stopped_deadline_case leash 3.5
}

# A resize reaches the command (SIGWINCH goes to the foreground group).
winch_case() {
	need_personality "$1"
	on_pty -g 24x80 <<EOF
line $(sup "$1" 10) sh -c 'trap "echo wi""nch; stty size" WINCH; echo re""ady; while :; do sleep 0.1; done' $MARK
expect ready
resize 33 101
timeout 3
expect winch
expect 33 101
key ^C
timeout 10
EOF
}

@test "prompt: a resize reaches the command as SIGWINCH (timeout)" {
	winch_case timeout
}

@test "prompt: a resize reaches the command as SIGWINCH (leash -t)" {
	winch_case leash
}
