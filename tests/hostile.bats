#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The deadline is a guarantee (DESIGN.md, Supervision and Terminal):
# typed at a prompt on a terminal of tests/ptyrun.c, a hostile target of
# `leash -u` (its pty path), `-u -l`, `--pty`, `su` and `su -c` cannot
# hold leash past its deadline plus -k, nor run on behind a stopped
# leash, nor keep a session alive that root ended.  Each case bounds the
# time generously (the machine may be busy), and asserts the caller's
# terminal modes restored, no live process of the target left and no
# cgroup leaf left.  Needs root.

bats_require_minimum_version 1.5.0
load helpers
load pty-helpers
load users
load cgroup-helpers

SU=$(_helpers_abs "${SU:-$TOP/build/su}")

setup_file() {
	users_setup
	cg_tops_note
}

teardown_file() {
	users_teardown
	cg_tops_tidy
}

setup() {
	common_setup
	need_root "switching identity"
	need_pty
	cg_detect
	# What a leftover of the target runs: it ignores TERM and HUP and
	# writes to its terminal every 20 ms, for ever.
	WRITER='(trap "" TERM HUP; while :; do echo x; sleep 0.02; done)'
	# One that takes its terminal and reads it, silent, and keeps it
	# after a hangup (its stdin the caller's fd 3: a background job's
	# own is /dev/null).
	HOLDER="(trap \"\" TERM HUP; stty raw -echo; readlink /proc/self/fd/0 > $U_HOME/held; while :; do cat; sleep 0.1; done > /dev/null)"
	# One that floods its terminal until it hangs up.
	FLOODER='(trap "" TERM HUP; exec yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)'
}

teardown() {
	# The test user's own processes, should a case fail half-way.
	[[ -n ${U_UID:-} ]] && pkill -KILL -u "$U_UID" 2>/dev/null
	common_teardown
}

# target_gone: no live process of the test user (zombies, which init
# reaps when it gets to them, do not count), within a second.
target_gone() {
	local i
	for ((i = 0; i < 40; i++)); do
		ps -u "$U_UID" -o stat= | grep -qv '^Z' || return 0
		sleep 0.05
	done
	echo "processes of the target left:" >&2
	ps -u "$U_UID" -o pid,ppid,stat,args >&2
	return 1
}

no_leaf() {
	local left
	left=$(leaves_of "$U_UID")
	[[ -z $left ]] || { echo "leaves left: $left" >&2; return 1; }
}

# elapsed: seconds between $TMP/t0 and $TMP/t1 (date +%s.%N).
elapsed() {
	awk '{ t[NR] = $1 } END { printf "%.3f\n", t[2] - t[1] }' "$TMP/t0" "$TMP/t1"
}

# at_prompt WORDS...: the line that runs WORDS at the prompt, with the
# time and the terminal's modes before and after, and st:STATUS.
at_prompt() {
	printf '%s' "stty -g > $TMP/before; date +%s.%N > $TMP/t0; $*; s=\$?; " \
		"date +%s.%N > $TMP/t1; stty -g > $TMP/after; echo s''t:\$s"
}

# writer_case FORM...: a command that leaves the writer behind and
# ignores TERM itself until the deadline: TERM at 1 s ends it (124), the
# writer gets the KILL at 2 s and leash is gone then, terminal restored.
writer_case() {
	on_pty <<EOF
line $(at_prompt "$LEASH" "$@" -t 1 -k 1 -- sh -c "'$WRITER & sleep 30'")
timeout 15
expect st:124
EOF
	echo "leash took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 3.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
	no_leaf
}

@test "hostile: a leftover writing to the pty for ever: -t 1 -k 1 ends all at 2 s (-u)" {
	writer_case -u "$U_NAME"
}

@test "hostile: a leftover writing to the pty for ever: -t 1 -k 1 ends all at 2 s (-u -l)" {
	writer_case -u "$U_NAME" -l
}

@test "hostile: a leftover writing to the pty for ever: -t 1 -k 1 ends all at 2 s (--pty, no cgroup)" {
	writer_case --pty --cgroup=off -u "$U_NAME"
}

# holder_case FORM...: the command leaves a process that takes its
# terminal (raw, no echo), ignores TERM and HUP and reads it for ever,
# silent: the pty never goes quiet-and-closed.  TERM at 1 s ends the
# command, the holder gets the KILL at 2 s and leash is back then, the
# caller's modes as they were; a line typed next reaches the caller's
# shell, and the holder never had a descriptor of the caller's terminal.
holder_case() {
	local f=$U_HOME/held
	: >"$f"
	chmod 666 "$f"
	on_pty <<EOF
line tty > $TMP/tty; $(at_prompt "$LEASH" "$@" -t 1 -k 1 -- sh -c "'exec 3<&0; $HOLDER <&3 & sleep 30'")
timeout 15
expect st:124
line echo ty''ped:ok
expect typed:ok
EOF
	echo "leash took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 3.5
	cmp "$TMP/before" "$TMP/after"
	# The holder ran and held a terminal: the pty, not the caller's.
	[[ $(cat "$f") == /dev/pts/* ]]
	[[ $(cat "$f") != "$(cat "$TMP/tty")" ]]
	target_gone
	no_leaf
}

@test "hostile: a leftover holds its terminal raw and reads it for ever: -t 1 -k 1 ends all at 2 s, the caller's terminal is free (-u)" {
	holder_case -u "$U_NAME"
}

@test "hostile: a leftover holds its terminal raw and reads it for ever: -t 1 -k 1 ends all at 2 s, the caller's terminal is free (-u -l)" {
	holder_case -u "$U_NAME" -l
}

@test "hostile: a leftover holds its terminal raw and reads it for ever: -t 1 -k 1 ends all at 2 s, the caller's terminal is free (--pty, no cgroup)" {
	holder_case --pty --cgroup=off -u "$U_NAME"
}

# stop_case FORM...: the command stops itself at once, and a process it
# left (a ticker) runs on; the caller gets its prompt.  Half a second in,
# the target sends SIGCONT to its monitor, the root process that leads
# its session (the kernel lets a SIGCONT through within a session), and
# the caller sends the target's own SIGCONT from outside (as its user)
# and root's to the monitor.  With a leaf none of it runs anything while
# leash is stopped (the ticks between ticks: and later: do not change,
# the command is not resumed, not even by the deadline's wake-up);
# without one the command does resume.  Either way the deadline (2 s)
# ends it all while the job is stopped, and its status is 124.
stop_case() {
	local d=$U_HOME f cmd
	for f in ticks conts resumed mon; do
		: >"$d/$f"
		chmod 666 "$d/$f"
	done
	cmd="m=\$PPID; echo \$m > $d/mon; while :; do echo t >> $d/ticks; sleep 0.1; done &"
	cmd+=" (sleep 0.5; kill -CONT \$m && echo c >> $d/conts) & kill -STOP \$\$; echo r >> $d/resumed; wait"
	on_pty <<EOF
line $(at_prompt "$LEASH" "$@" -t 2 -- sh -c "'$cmd'")
expect Stopped
line echo ti''cks:\$(wc -l < $d/ticks); setpriv --reuid=$U_UID --regid=$G_PRIM_GID --clear-groups pkill -CONT -u $U_UID; kill -CONT \$(cat $d/mon); sleep 0.5; echo la''ter:\$(wc -l < $d/ticks) co''nts:\$(wc -l < $d/conts) re''sumed:\$(wc -l < $d/resumed)
expect later:
at 3.5
line ps -u $U_UID -o stat= | grep -qv Z || echo go''ne:yes
timeout 5
expect gone:yes
line echo fi''nally:\$(wc -l < $d/resumed)
expect finally:
EOF
	# The job ended while stopped: bash tells it at a later prompt.
	grep -aq 'Exit 124' "$TMP/screen"
	cmp "$TMP/before" "$TMP/after"
	target_gone
	no_leaf
}

@test "hostile: the target stops itself and continues itself and its monitor: its leaf stays frozen, the deadline fires while leash is stopped" {
	need_leaf
	stop_case -u "$U_NAME"
	[[ $(screen_value ticks) == "$(screen_value later)" ]]
	[[ $(screen_value conts) == 0 && $(screen_value resumed) == 0 ]]
	# Nor when the deadline continues leash: the signal goes out before
	# the leaf thaws, so the command dies of it still stopped.
	[[ $(screen_value finally) == 0 ]]
}

@test "hostile: the target stops itself and continues itself and its monitor (no cgroup): the deadline fires while leash is stopped" {
	stop_case --cgroup=off -u "$U_NAME"
	# The attack ran: the monitor took the target's SIGCONT and
	# continued the command, behind a leash that stays stopped.
	[[ $(screen_value conts) == 1 && $(screen_value resumed) == 1 ]]
}

# flood_case PTYRUN-LINE FORM...: a command that floods the pty while
# the caller's terminal does PTYRUN-LINE (stops reading, or reads
# slowly); -t 1 -k 1 ends the run at 1 s (the flood dies of TERM) all
# the same.
flood_case() {
	local how=$1
	shift
	on_pty <<EOF
line $(at_prompt "$LEASH" "$@" -t 1 -k 1 -- sh -c "'while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done'")
$how
timeout 30
expect st:124
EOF
	echo "leash took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 2.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
	no_leaf
}

@test "hostile: the caller's terminal stops reading for 5 s: -t 1 still ends the run at 1 s" {
	flood_case "stall 5" -u "$U_NAME"
}

@test "hostile: the caller's terminal reads 10 KB/s: -t 1 -k 1 still ends the run at 1 s" {
	flood_case "rate 10000" -u "$U_NAME"
}

@test "hostile: the caller's terminal stops reading for 5 s: -t 1 still ends the run at 1 s, -v's lines do not wait for it (--pty, no cgroup)" {
	flood_case "stall 5" -v --pty --cgroup=off -u "$U_NAME"
}

# bomb_case TRAP FORM...: a fork bomb within RLIMIT_NPROC, which runs
# TRAP first; -t 1 -k 1 ends all of it by 2 s.
bomb_case() {
	local trap=$1
	shift
	on_pty <<EOF
line $(at_prompt "$LEASH" "$@" -t 1 -k 1 -- bash -c "'$trap ulimit -u 60 || exit 9; b() { b & b; }; b 2>/dev/null'")
timeout 20
expect st:1
EOF
	echo "leash took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 3.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
	no_leaf
}

@test "hostile: a fork bomb within RLIMIT_NPROC that ignores TERM: the KILL at 2 s ends all of it (-u)" {
	bomb_case 'trap "" TERM HUP;' -u "$U_NAME"
	[[ $(screen_value st) == 137 ]]
}

@test "hostile: a fork bomb within RLIMIT_NPROC that ignores TERM: the KILL at 2 s ends all of it (--pty, no cgroup)" {
	bomb_case 'trap "" TERM HUP;' --pty --cgroup=off -u "$U_NAME"
	[[ $(screen_value st) == 137 ]]
}

# su_killed_later SU-ARGS...: su at the prompt, sent ${SIG:-TERM} 2 s
# after it started, by a background job of the caller's shell, which
# notes the time it sent it ($TMP/ts) and the time su was gone ($TMP/te:
# the caller's shell may be slower to tell, as bash's "Terminated" waits
# for a terminal that stopped reading).
su_killed_later() {
	printf '%s' "(p=; while [ -z \"\$p\" ]; do sleep 0.1; p=\$(pgrep -n -x su -P \$\$); done; sleep 2; date +%s.%N > $TMP/ts; kill -${SIG:-TERM} \$p; while kill -0 \$p 2>/dev/null; do sleep 0.02; done; date +%s.%N > $TMP/te) & $(at_prompt PS1="'I''N> '" "$SU" "$@")"
}

# since_signal: seconds from the signal su_killed_later sent to su's end.
since_signal() {
	awk '{ t[NR] = $1 } END { printf "%.3f\n", t[2] - t[1] }' "$TMP/ts" "$TMP/te"
}

@test "hostile: su's shell ignores TERM: su kills it 2 s later and dies of TERM (143), as util-linux" {
	on_pty <<EOF
line $(su_killed_later "$U_NAME")
expect IN> 
line trap '' TERM HUP INT QUIT
timeout 10
expect Session terminated, killing shell...
expect ...killed.
expect st:143
EOF
	echo "su took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 5.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
}

@test "hostile: su -c whose command ignores TERM: killed 2 s later, 143" {
	on_pty <<EOF
line $(su_killed_later "$U_NAME" -c "'trap \"\" TERM; while :; do sleep 0.1; done'")
timeout 10
expect st:143
EOF
	echo "su took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 5.5
	target_gone
}

@test "hostile: HUP to su: the shell gets the hangup and su ends at once; a shell that ignores it is killed 2 s later; 129" {
	# A shell that takes the hangup as it comes (a login shell does, and
	# saves its history): HUP goes on as itself, not as TERM, which an
	# interactive shell ignores.
	on_pty <<EOF
line $(SIG=HUP su_killed_later "$U_NAME")
expect IN> 
timeout 10
expect st:129
EOF
	echo "su ended $(since_signal) s after the HUP" >&2
	secs_lt "$(since_signal)" 1.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
	on_pty <<EOF
line $(SIG=HUP su_killed_later "$U_NAME")
expect IN> 
line trap '' TERM HUP INT QUIT
timeout 10
expect Session terminated, killing shell...
expect ...killed.
expect st:129
EOF
	echo "su ended $(since_signal) s after the HUP" >&2
	secs_lt "$(since_signal)" 3.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
}

@test "hostile: su's shell floods a terminal that stopped reading: TERM still ends su 2 s later (143)" {
	on_pty <<EOF
line $(su_killed_later "$U_NAME")
expect IN> 
line trap '' TERM HUP INT QUIT; while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done
stall 8
timeout 20
expect st:143
EOF
	echo "su ended $(since_signal) s after the TERM" >&2
	secs_lt "$(since_signal)" 3.5
	cmp "$TMP/before" "$TMP/after"
	target_gone
}

@test "hostile: su -c with a fork bomb within RLIMIT_NPROC that ignores TERM: all of it killed 2 s after TERM, 143" {
	on_pty <<EOF
line $(su_killed_later -s /bin/bash "$U_NAME" -c "'trap \"\" TERM HUP; ulimit -u 60 || exit 9; b() { b & b; }; b 2>/dev/null'")
timeout 20
expect st:143
EOF
	echo "su ended $(since_signal) s after the TERM" >&2
	secs_lt "$(since_signal)" 3.5
	target_gone
}

@test "hostile: su -c sent INT: its command gets TERM (as util-linux's), su dies of INT (130)" {
	local f=$U_HOME/traps
	printf '%s\n' "trap 'echo got-term; exit 3' TERM" "trap 'echo got-int; exit 4' INT" \
		'while :; do sleep 0.1; done' >"$f"
	# dash reports the status: bash would take the INT death for its own.
	# The su is the one under that sh, never another test's (files run
	# side by side, su.bats and this file under each strategy).
	on_pty <<EOF
line (p=; while [ -z "\$p" ]; do sleep 0.1; p=\$(pgrep -n -x su -P "\$(pgrep -d, -x sh -P \$\$)"); done; sleep 2; kill -INT \$p) & sh -c '"$SU" "$U_NAME" -c "exec sh $f"; echo s''t:\$?'
timeout 10
expect got-term
expect st:130
EOF
	target_gone
}

@test "hostile: su's shell exits leaving a flood on its pty: su returns at once" {
	on_pty <<EOF
line $(at_prompt PS1="'I''N> '" "$SU" "$U_NAME")
expect IN> 
line $FLOODER &
sleep 0.3
line exit
timeout 10
expect st:0
EOF
	echo "su took $(elapsed) s" >&2
	secs_lt "$(elapsed)" 3
	cmp "$TMP/before" "$TMP/after"
	# util-linux's su leaves what ignores the hangup; so does su here.
	pkill -KILL -u "$U_UID" 2>/dev/null || true
}

@test "hostile: the caller's shell dies while the job is stopped: the orphaned leash kills what ignores HUP 2 s later and exits" {
	local cmd='trap "" HUP; kill -STOP $$; while :; do sleep 0.1; done'
	# An inner shell with job control runs leash and is killed (KILL:
	# it cannot pass a hangup on); leash's stopped group is orphaned, so
	# the kernel sends it HUP and CONT.
	on_pty <<EOF
line (sleep 2; pkill -KILL -f ^inner-$MARK) & (exec -a inner-$MARK bash --norc --noprofile --noediting -i)
expect $PROMPT
line "$LEASH" -u "$U_NAME" -- sh -c '$cmd'
expect Stopped
timeout 10
expect Killed
EOF
	local i
	for ((i = 0; i < 100; i++)); do
		ps -u "$U_UID" -o stat= | grep -qv '^Z' || break
		sleep 0.05
	done
	target_gone
	no_leaf
}
