#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# hints.bats: the usual mistakes of a timeout or su user get one more
# line saying what was meant; the exit status stays what it was.  No root
# needed.

bats_require_minimum_version 1.5.0

load helpers

@test "leash 5 cmd (timeout's habit): 127, then did you mean 'leash -t 5 -- cmd'" {
	run -127 "$LEASH" 5 true
	assert_status 127
	assert_output "leash: failed to run command '5': No such file or directory
leash: did you mean 'leash -t 5 -- true'?"
	run -127 "$LEASH" 1.5m sleep 10
	assert_status 127
	[[ ${lines[1]} == "leash: did you mean 'leash -t 1.5m -- sleep ...'?" ]]
	run -127 "$LEASH" 5
	assert_status 127
	[[ ${lines[1]} == "leash: did you mean 'leash -t 5 -- COMMAND'?" ]]
}

@test "no duration hint with -t, for a command that is no duration, or a path" {
	run -127 "$LEASH" -t 10 5 true
	assert_status 127
	assert_lines 1
	run -127 "$LEASH" leash-no-such-command
	assert_status 127
	assert_lines 1
	run -127 "$LEASH" ./5 true
	assert_status 127
	assert_lines 1
	# A command's own 127 is not a lookup failure of a duration.
	run -127 "$LEASH" sh -c 'exit 127'
	assert_status 127
	assert_output ""
}

@test "leash -c (su's habit): the invalid option, then the two ways to say it" {
	run "$LEASH" -c 'id -u'
	assert_status 125
	assert_output "leash: invalid option -- 'c'
leash: -c is su's option: use 'leash su -c ...' or 'leash -u USER -- sh -c ...'
Try 'leash --help' for more information."
	# Another invalid option gets no such line.
	run "$LEASH" -z true
	assert_status 125
	assert_lines 2
}

@test "an unknown user or group: leash says it reads only the files, unless it asked NSS" {
	run "$LEASH" --no-nss -u leash_no_such_user_x -- true
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_no_such_user_x': no such user (leash reads /etc/passwd only)"
	run "$LEASH" --no-nss -u 0 -g leash_no_such_group -- true
	assert_status 125
	assert_output "leash: cannot resolve group 'leash_no_such_group': no such group (leash reads /etc/group only)"
	# With a getent to ask, the files were not all: no hint.
	run "$LEASH" -u leash_no_such_user_x -- true
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_no_such_user_x': no such user$(nss_hint passwd)"
	run "$LEASH" -u 0 -g leash_no_such_group -- true
	assert_output "leash: cannot resolve group 'leash_no_such_group': no such group$(nss_hint group)"
}

@test "a deadline without -k at a command that ignores its signal: one line points to -k; the status stays 124" {
	# An interactive shell ignores TERM; so does this one.
	BOUND=20 run bounded "$LEASH" -t 0.2 -- sh -c 'trap "" TERM; sleep 0.6; exit 3'
	assert_status 124
	assert_output "leash: the command ignores TERM and runs on past the deadline: add -k DURATION to send KILL after it"
	# -s names the signal.
	BOUND=20 run bounded "$LEASH" -s HUP -t 0.2 -- sh -c 'trap "" HUP; sleep 0.6'
	assert_status 124
	assert_output "leash: the command ignores HUP and runs on past the deadline: add -k DURATION to send KILL after it"
	# Not with -k, nor for a command the signal ends, nor for timeout.
	BOUND=20 run bounded "$LEASH" -t 0.2 -k 5 -- sh -c 'trap "" TERM; sleep 0.6'
	assert_status 124
	assert_output ""
	BOUND=20 run bounded "$LEASH" -t 0.2 -- sleep 5
	assert_status 124
	assert_output ""
	BOUND=20 run bounded "$TIMEOUT" 0.2 sh -c 'trap "" TERM; sleep 0.6'
	assert_status 124
	assert_output ""
}
