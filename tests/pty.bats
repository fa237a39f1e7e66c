#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The pty of an interactive identity switch (DESIGN.md, Terminal): typed
# at a prompt on a terminal of tests/ptyrun.c, `leash -u USER` and su's
# interactive shell get a pseudo-terminal of their own; nothing they do
# reaches the caller's terminal, which is left as it was.  Needs root.

bats_require_minimum_version 1.5.0
load helpers
load pty-helpers
load users

SU=$(_helpers_abs "${SU:-$TOP/build/su}")

setup() {
	common_setup
	need_root "switching identity"
	need_pty
	SHELL_IN="bash --norc --noprofile --noediting -i"
	# The inner prompt differs from the outer one.
	IN='IN> '
}

teardown() {
	common_teardown
	shared_cleanup
}

# inner CMD...: the line that starts an inner shell with prompt $IN.
# The prompt is typed split ('I''N> '), so the echo of this line never
# matches it.
inner() {
	printf "PS1='I''N> ' %s" "$*"
}

# Within 5 s no process of the test's user is left; else list them, fail.
user_procs_gone() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -z $(pgrep -u "$U_UID") ]] && return 0
		sleep 0.05
	done
	ps -o pid,stat,args -u "$U_UID" >&2
	return 1
}

# screen_word KEY: the last KEY:WORD the screen shows, WORD only.
screen_word() {
	local w
	w=$(tr -d '\r' <"$TMP/screen" | grep -aoE "$1:[^ ]+" | grep -v "\\\$" | tail -n 1)
	printf '%s\n' "${w#"$1":}"
}

@test "pty: native -u gets a terminal of its own: another tty and session, job control inside" {
	on_pty <<EOF
line echo o''ut:\$(tty)
expect $PROMPT
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line echo i''n:\$(tty)
expect $IN
line sleep 30 &
expect $IN
line jobs
expect Running
expect $IN
line kill %1; wait; echo k''illed
expect killed
expect $IN
line exit 7
expect $PROMPT
line echo s''t:\$?
expect st:7
EOF
	local out in
	out=$(screen_word out)
	in=$(screen_word in)
	echo "outer $out, inner $in" >&2
	[[ $out == /dev/pts/* && $in == /dev/pts/* && $out != "$in" ]]
}

@test "pty: a resize of the caller's terminal reaches the inner session" {
	on_pty -g 24x80 <<EOF
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line stty size
expect 24 80
resize 33 101
line stty size
expect 33 101
expect $IN
line exit
EOF
}

@test "pty: output at exit is not lost, the status passes, the caller's modes are restored" {
	on_pty <<EOF
line stty -g > $TMP/before
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line echo LA''ST; exit 7
expect LAST
expect $PROMPT
line echo s''t:\$?; stty -g > $TMP/after
expect st:7
EOF
	cmp "$TMP/before" "$TMP/after"
}

@test "pty: ^C interrupts the inner foreground command, not the session" {
	on_pty <<EOF
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line sleep 30
sleep 0.5
key ^C
expect $IN
line echo af''ter:\$?
expect after:130
expect $IN
line exit 3
expect $PROMPT
line echo s''t:\$?
expect st:3
EOF
}

@test "pty: TIOCSTI from inside cannot reach the caller's terminal" {
	tiocsti_setup
	on_pty <<EOF
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line perl $TIOCSTI; exit 0
expect $PROMPT
line echo E''ND
expect END
EOF
	# The byte went into the pty's own queue: the caller's next line is
	# exactly what was typed.
	! grep -aq 'xecho' "$TMP/screen"
	! grep -aq 'command not found' "$TMP/screen"
}

@test "pty: the deadline and -k end an interactive session; the caller's modes are restored" {
	on_pty <<EOF
line stty -g > $TMP/before
line sh -c "$(inner "$LEASH" -u "$U_NAME" -t 1 -k 1 -- $SHELL_IN)"'; echo s''t:\$?; stty -g > $TMP/after'
expect $IN
timeout 10
expect st:137
EOF
	cmp "$TMP/before" "$TMP/after"
}

@test "pty: the command killed from outside, or leash sent TERM: the caller's modes are restored" {
	on_pty <<EOF
line stty -g > $TMP/before
line sh -c "$(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)"'; echo s''t:\$?; stty -g > $TMP/after1'
expect $IN
line kill -KILL \$\$
expect st:137
line sh -c '"$LEASH" -u "$U_NAME" -- sleep 30 & sleep 0.5; kill -TERM \$!; wait \$!; echo s''t:\$?; stty -g > $TMP/after2'
expect st:143
EOF
	cmp "$TMP/before" "$TMP/after1"
	cmp "$TMP/before" "$TMP/after2"
}

@test "pty: pipes stay pipes (no \\r), no pty without a terminal" {
	on_pty <<EOF
line "$LEASH" -u "$U_NAME" -- sh -c 'echo hi' | od -c | head -n 1
expect 0000000
EOF
	tr -d '\r' <"$TMP/screen" | grep -aq '^0000000   h   i  \\n$'
	run "$LEASH" -u "$U_NAME" -- tty </dev/null
	assert_output "not a tty"
	run "$SU" "$U_NAME" -c tty </dev/null
	assert_output "not a tty"
}

@test "pty: su USER, su - USER and Android su WHO get a terminal of their own; su -T shares the caller's" {
	on_pty <<EOF
line echo o''ut:\$(tty)
expect out:
expect $PROMPT
line "$SU" "$U_NAME" -s /bin/sh
line echo i''n1:\$(tty); exit
expect in1:
expect $PROMPT
line "$SU" - "$U_NAME" -s /bin/sh
line echo i''n2:\$(tty); exit
expect in2:
expect $PROMPT
line "$SU" "$U_NAME,$G_PRIM"
line echo i''n3:\$(tty); exit
expect in3:
expect $PROMPT
line "$SU" -T "$U_NAME" -s /bin/sh
line echo i''n4:\$(tty); exit
expect in4:
EOF
	local out k
	out=$(screen_word out)
	echo "outer $out: $(screen_word in1) $(screen_word in2) $(screen_word in3) $(screen_word in4)" >&2
	for k in in1 in2 in3; do
		[[ $(screen_word $k) == /dev/pts/* && $(screen_word $k) != "$out" ]]
	done
	[[ $(screen_word in4) == "$out" ]]
}

# fds_never_the_tty FILE...: each FILE lists a command's descriptors 0-2
# (readlink), and none is the caller's terminal ($TMP/tty).
fds_never_the_tty() {
	cat "$@" >&2
	local f
	for f; do [[ $(wc -l <"$f") == 3 ]]; done
	run grep -xF "$(cat "$TMP/tty")" "$@"
	assert_status 1
}

@test "pty: without an interactive stdin (</dev/null, a background job) the command still never holds the caller's terminal" {
	local f=$U_HOME/fds
	on_pty <<EOF
line tty > $TMP/tty; "$LEASH" -u "$U_NAME" -- sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.1' </dev/null; echo o''ne:\$?
expect one:0
line "$LEASH" -u "$U_NAME" -- sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.2' & wait \$!; echo t''wo:\$?
expect two:0
EOF
	fds_never_the_tty "$f.1" "$f.2"
	[[ $(head -n 1 "$f.1") == /dev/null ]]
}

@test "pty: --pty (su -P) with a uid change: a pty also when only output is the terminal, as without --pty" {
	local f=$U_HOME/fds
	on_pty <<EOF
line tty > $TMP/tty; "$LEASH" --pty -u "$U_NAME" -- sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.1' </dev/null; echo o''ne:\$?
expect one:0
line "$SU" -P "$U_NAME" -s /bin/sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.2' </dev/null; echo t''wo:\$?
expect two:0
EOF
	fds_never_the_tty "$f.1" "$f.2"
	[[ $(sed -n 3p "$f.1") == /dev/pts/* && $(sed -n 3p "$f.2") == /dev/pts/* ]]
}

@test "pty: no pty to be had: a session without a terminal, /dev/null in place of the caller's terminal, one warning" {
	need_mountns
	local f=$U_HOME/fds
	on_pty <<EOF
line tty > $TMP/tty; unshare -m sh -c 'mount --bind /dev/null /dev/ptmx && exec "$LEASH" -u "$U_NAME" -- sh -c "tty </dev/tty || echo no''tty >&2; readlink /proc/\\\$\\\$/fd/0 /proc/\\\$\\\$/fd/1 /proc/\\\$\\\$/fd/2 > $f"'; echo s''t:\$?
expect st:0
EOF
	grep -aq 'cannot allocate a pseudo-terminal (.*): running without a terminal, /dev/null in its place' "$TMP/screen"
	# What the command writes to its stderr goes to /dev/null.
	run grep -aq 'notty' "$TMP/screen"
	assert_status 1
	cat "$f" >&2
	[ "$(sed -n '1p;3p' "$f")" = $'/dev/null\n/dev/null' ]
}

@test "pty: the session stops itself: the caller gets its prompt and modes back; fg resumes it" {
	on_pty <<EOF
line stty -g > $TMP/before
line $(inner "$LEASH" -u "$U_NAME" -- $SHELL_IN)
expect $IN
line kill -STOP \$\$
expect Stopped
expect $PROMPT
line stty -g > $TMP/stopped; echo sa''ved
expect saved
line fg
line echo ba''ck; exit 5
expect back
expect $PROMPT
line echo s''t:\$?
expect st:5
EOF
	cmp "$TMP/before" "$TMP/stopped"
}

@test "pty: a program that is not a shell stops on ^Z: prompt and modes back; fg resumes it" {
	# The command leads a group of its own under leash's monitor, so the
	# kernel does not take that group for orphaned and drop its ^Z.  (The
	# status is asked for after fg: at the stop, bash goes on with a list.)
	on_pty <<EOF
line stty -g > $TMP/before
line "$LEASH" -u "$U_NAME" --pty -- sh -c 'echo re""ady; exec cat'
expect ready
line abc
expect abc
expect abc
key ^Z
expect Stopped
expect $PROMPT
line stty -g > $TMP/stopped; echo sa''ved
expect saved
line fg
line def
expect def
expect def
key ^D
expect $PROMPT
line echo s''t:\$?
expect st:0
EOF
	cmp "$TMP/before" "$TMP/stopped"
}

@test "pty: a stop on a slow terminal loses no output: what it had not taken comes after fg, in order" {
	# 4000 numbered lines (27 KiB) to a terminal that stopped reading:
	# the caller's pty queue fills up, and leash holds what it read last
	# (up to RELAY_OUT bytes, terminal/relay.h) that the terminal has not
	# taken when the command stops itself.  They are kept, not dropped:
	# after fg every line arrives, each once and in order (before, what
	# leash held was lost).  A stop by ^Z typed at that moment loses what
	# the inner pty held, as on any terminal: its line discipline flushes
	# its output queue on ^Z and ^C (stty noflsh keeps it), before leash
	# sees anything.
	on_pty <<EOF
timeout 30
line "$LEASH" -u "$U_NAME" --pty -- sh -c 'i=0; while [ \$i -lt 4000 ]; do i=\$((i+1)); echo "n:\$i"; done; kill -STOP \$\$; echo do""ne; exec cat'
stall 2
expect Stopped
expect $PROMPT
line fg
mode raw
expect done
key ^D
expect $PROMPT
line echo s''t:\$?
expect st:0
EOF
	tr -d '\r' <"$TMP/screen" | grep -aoE '^n:[0-9]+' | cut -d: -f2 >"$TMP/got"
	seq 1 4000 >"$TMP/want"
	cmp "$TMP/want" "$TMP/got" || {
		echo "lines lost or out of order: $(comm -23 <(sort "$TMP/want") <(sort "$TMP/got") | wc -l) missing" >&2
		false
	}
}

@test "pty: TSTP to leash from outside stops the command in its pty, then leash; fg resumes both" {
	# No job control in sh: leash is in the foreground group, with the
	# terminal as stdin.  TSTP once cat runs (before, it would stop the
	# sh that execs it); xyz typed once leash has the terminal raw again
	# (before, the caller's terminal would echo it too): its echo in the
	# pty, then cat's copy.
	on_pty <<EOF
line sh -c '"$LEASH" -u "$U_NAME" --pty -- sh -c "echo re\"\"ady; exec cat" </dev/tty & p=\$!; until pgrep -u "$U_NAME" -x cat >/dev/null; do sleep 0.02; done; kill -TSTP \$p; wait \$p; echo w:\$?'
expect ready
expect Stopped
expect $PROMPT
line echo c''at:\$(ps -o stat= -p \$(pgrep -u "$U_NAME" -x cat))
expect cat:T
line fg
mode raw
line xyz
expect xyz
expect xyz
key ^D
expect w:0
EOF
}

@test "pty: a full-screen program that handles ^Z itself (raw mode, TSTP to its group) stops and resumes" {
	# As vi does: raw mode, ^Z read as a byte, modes back, TSTP to its
	# own group; continued, raw again.  q ends it with status 3.
	local prog='$|=1; system "stty raw -echo"; print "ra"."w:on\r\n";
		while (sysread STDIN, $c, 1) {
			if ($c eq "\x1a") { system "stty -raw echo"; kill "TSTP", 0;
				system "stty raw -echo"; print "ba"."ck:on\r\n" }
			elsif ($c eq "q") { system "stty -raw echo"; exit 3 } }'
	prog=${prog//$'\n'/ }
	on_pty <<EOF
line stty -g > $TMP/before
line "$LEASH" -u "$U_NAME" --pty -- perl -e '$prog'
expect raw:on
key ^Z
expect Stopped
expect $PROMPT
line stty -g > $TMP/stopped; echo sa''ved
expect saved
line fg
expect back:on
send q
expect $PROMPT
line echo s''t:\$?
expect st:3
EOF
	cmp "$TMP/before" "$TMP/stopped"
}

@test "pty: a hangup of the caller's terminal ends the session, nothing is left" {
	run env PS1="$IN" HISTFILE= TERM=dumb PROMPT_COMMAND= \
		"$PTYRUN" -m "$MARK" -o "$TMP/screen" -- \
		"$LEASH" -u "$U_NAME" -- $SHELL_IN <<EOF
expect $IN
line sleep 30 &
expect $IN
hangup
EOF
	echo "$output" >&2
	[[ ${lines[-1]} == status=* ]]
	assert_no_leftovers
	# The job is gone within moments: the shell passes its hangup on to
	# it, or, when the shell took the closed pty for the end of its input
	# and exited first, leash's HUP to the session (and its KILL after
	# the grace) ends it; leash waits for that before it exits.
	user_procs_gone
}

@test "pty: a hangup of the caller's terminal ends a session that ignores HUP: KILL after the grace, nothing is left" {
	# The other way the job of the test above can end (its shell does
	# not pass the hangup on), made certain: nothing here acts on HUP.
	run env TERM=dumb "$PTYRUN" -m "$MARK" -o "$TMP/screen" -- \
		"$LEASH" -u "$U_NAME" -- \
		sh -c 'trap "" HUP; echo re""ady; sleep 30 & exec sleep 31' <<EOF
expect ready
hangup
EOF
	echo "$output" >&2
	[[ ${lines[-1]} == status=signal:9 ]]
	user_procs_gone
}

@test "pty: a deadline without -k at an interactive shell (it ignores TERM, as -l's does): one line points to -k" {
	on_pty <<EOF2
line sh -c "$(inner "$LEASH" -u "$U_NAME" -t 0.5 -- $SHELL_IN)"'; echo s''t:\$?'
expect $IN
timeout 10
expect add -k DURATION
line exit 0
expect st:124
EOF2
	grep -aq "leash: the command ignores TERM and runs on past the deadline: add -k DURATION to send KILL after it" "$TMP/screen"
}
