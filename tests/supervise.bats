#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# leash's supervision core, native personality:
#   leash [-t DURATION] [-s SIG] [-k DUR] [--preserve-status] [--foreground]
#         [-v] [--] COMMAND [ARG]...
# `make check` runs this file once per LEASH_WAIT strategy (thread, pidfd,
# poll); the tests that loop over strategies take the one set in
# LEASH_WAIT then, and all three when it is unset.

bats_require_minimum_version 1.5.0
load helpers

WAITS=${LEASH_WAIT:-thread pidfd poll}

# A shell with only descriptors 0, 1 and 2 open runs "$@".
only_std_fds() {
	bash -c 'for f in /proc/$$/fd/*; do n=${f##*/}; ((n > 2)) && eval "exec $n>&-"; done; exec "$@"' bash "$@"
}

# --- what the command sees ---------------------------------------------------

@test "child: in the process group leash leads (GNU's model), same session, parent is leash" {
	run bash -c 'echo $$; exec "$LEASH" -t 10 probe'
	assert_status 0
	local lpid=${lines[0]}
	printf '%s\n' "$output" >"$TMP/r"
	[ "$(report_get ppid "$TMP/r")" = "$lpid" ]
	[ "$(report_get pgid "$TMP/r")" = "$lpid" ]
	[ "$(report_get sid "$TMP/r")" = "$(probe -k sid)" ]
}

@test "child: without -t too (no deadline)" {
	run leash probe -k pgid -s 0.3 -x 4
	assert_status 4
	[ "$output" != "$(probe -k pgid)" ]
}

@test "child: --foreground keeps the caller's process group" {
	run leash --foreground -t 10 probe -k pgid
	assert_status 0
	assert_output "$(probe -k pgid)"
}

@test "child: signal mask as the caller had it, nothing of leash's" {
	local mine
	mine=$(probe -k sigmask)
	run leash -t 10 probe -k sigmask
	assert_output "$mine"
	run "$PROBE" -b USR1,WINCH -- leash -t 10 -k 5 probe -k blocked
	assert_output USR1,WINCH
	# SYS, which leash never blocks for itself (lib/signal/sigsys.h).
	run "$PROBE" -b SYS -- leash -t 10 probe -k blocked
	assert_output SYS
}

@test "child: dispositions reset: nothing ignored that the caller did not ignore" {
	run "${DFL[@]}" leash -t 10 probe -k ignored
	assert_output none
	# SIGCHLD ignored by the caller: default again (DESIGN.md).
	run "$PROBE" -d "$DFL_SIGS" -i CHLD -- leash -t 10 probe -k ignored
	assert_output none
}

@test "child: signals ignored by the caller stay ignored" {
	run "$PROBE" -d "$DFL_SIGS" -i HUP,PIPE -- leash -t 10 probe -k ignored
	assert_output HUP,PIPE
	# SYS, which leash catches for itself (lib/signal/sigsys.h).
	run "$PROBE" -d "$DFL_SIGS" -i SYS -- leash -t 10 probe -k ignored
	assert_output SYS
}

@test "child: ignored signals are found without /proc too (a recovery image)" {
	need_root
	need_mountns
	# An empty tmpfs over /proc, in a private mount namespace: leash asks
	# the disposition of a signal when it comes (no /proc needed).
	local noproc=(unshare -m --propagation private sh -c
		'mount -t tmpfs none /proc && exec "$@"' sh)
	# A sanitizer runtime needs /proc itself (SANITIZE=1 builds).
	"${noproc[@]}" leash -t 5 true 2>/dev/null ||
		skip "this leash build does not run without /proc"
	assert_hup_ignored "${noproc[@]}" \
		leash -v -k 0.1 -t 30 probe -o "$TMP/ready" -m "$MARK" -s 0.5 -x 5 -q
}

@test "child: keeps the caller's timer slack (leash sets its own after the fork)" {
	[[ -r /proc/self/timerslack_ns ]] || skip "no /proc/PID/timerslack_ns"
	local mine
	mine=$(cat /proc/self/timerslack_ns)
	run leash -t 10 cat /proc/self/timerslack_ns
	assert_status 0
	assert_output "$mine"
}

@test "child: no leash descriptor leaks into the command" {
	local w
	for w in $WAITS; do
		LEASH_WAIT=$w run --separate-stderr only_std_fds "$LEASH" -t 10 -k 5 -v probe -k fds
		echo "LEASH_WAIT=$w" >&2
		assert_output 0,1,2
		LEASH_WAIT=$w run only_std_fds "$LEASH" probe -k fds
		assert_output 0,1,2
	done
	# Inherited descriptors do pass.
	run only_std_fds bash -c 'exec 5</dev/null; exec "$LEASH" -t 10 probe -k fds'
	assert_output 0,1,2,5
}

@test "child: environment, cwd and argv[0] are the caller's" {
	cd "$TMP"
	LEASH_TEST_VAR=x run leash -t 10 probe -k env:LEASH_TEST_VAR
	assert_output x
	run leash -t 10 probe -k cwd
	assert_output "$TMP"
	run leash -t 10 probe -k argv0
	assert_output probe
}

# --- parent death --------------------------------------------------------------

@test "PDEATHSIG: kill -9 leash and the command dies" {
	local w
	for w in $WAITS; do
		rm -f "$TMP/ready"
		LEASH_WAIT=$w start_ready leash -t 30 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
		local lpid=$READY_PID
		local cpid
		cpid=$(report_get pid "$TMP/ready")
		[ "$(report_get ppid "$TMP/ready")" = "$lpid" ]
		kill -KILL "$lpid"
		wait "$lpid" || true
		echo "LEASH_WAIT=$w: command $cpid" >&2
		wait_gone "$cpid" 5
	done
}

@test "PDEATHSIG: also without a deadline" {
	start_ready leash probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	local lpid=$READY_PID
	kill -KILL "$lpid"
	wait "$lpid" || true
	wait_gone "$(report_get pid "$TMP/ready")" 5
}

@test "PDEATHSIG: native sends KILL, not the -s signal (the timeout personality sends -s)" {
	start_ready leash -t 30 -s USR1 probe -c USR1 -E -x 0 -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 30 -q
	local cpid
	cpid=$(report_get pid "$TMP/ready")
	kill -KILL "$READY_PID"
	wait "$READY_PID" || true
	wait_gone "$cpid" 5
	[ ! -s "$TMP/log" ]
}

@test "native: a caller that ignores TERM still gets the deadline, and -s HUP with HUP ignored" {
	BOUND=5 run bounded "$PROBE" -i TERM -- "$LEASH" -t 0.2 sleep 10
	assert_status 124
	BOUND=5 run bounded "$PROBE" -i HUP -- "$LEASH" -s HUP -t 0.2 sleep 10
	assert_status 124
}

@test "parent check: leash as PID 1 of a pid namespace still runs the command" {
	need_root "unshare of a pid namespace"
	command -v unshare >/dev/null || must_run_or_skip "no unshare(1)"
	unshare -fp true 2>/dev/null || must_run_or_skip "cannot unshare a pid namespace here"
	run unshare -fp "$LEASH" -t 10 sh -c 'exit 3'
	assert_status 3
	run unshare -fp "$LEASH" -t 0.1 sleep 10
	assert_status 124
}

# --- exit detection and the one reap ----------------------------------------------

@test "wait strategies: exit status, deadline and prompt exit with each" {
	local w t0
	for w in $WAITS; do
		echo "LEASH_WAIT=$w" >&2
		LEASH_WAIT=$w run bounded leash -t 30 sh -c 'exit 5'
		assert_status 5
		LEASH_WAIT=$w run bounded leash -t 0.1 sleep 10
		assert_status 124
		# Exit noticed, not the 30 s deadline: generous bound.
		t0=$(now_us)
		LEASH_WAIT=$w run bounded leash -t 30 true
		assert_status 0
		(($(now_us) - t0 < 10000000))
	done
}

# bats test_tags=no_waiter
@test "wait strategies: an invalid LEASH_WAIT is a clear error, 125, nothing run" {
	LEASH_WAIT=bogus run leash -t 10 touch "$TMP/ran"
	assert_status 125
	[[ $output == leash:*LEASH_WAIT* ]]
	[ ! -e "$TMP/ran" ]
	LEASH_WAIT=threads run leash touch "$TMP/ran"
	assert_status 125
	[ ! -e "$TMP/ran" ]
}

# bats test_tags=no_waiter
@test "wait strategies: poll exits promptly for a command that already exited" {
	local t0 i
	t0=$(now_us)
	for i in 1 2 3 4 5; do
		LEASH_WAIT=poll run bounded leash -t 60 sh -c 'exit 2'
		assert_status 2
	done
	(($(now_us) - t0 < 20000000))
}

@test "reap: nothing orphaned, nothing left (child subreaper view)" {
	local w
	for w in $WAITS; do
		echo "LEASH_WAIT=$w" >&2
		LEASH_WAIT=$w run "$PROBE" -R -T 20 -- leash -t 10 true
		assert_output "status=exit:0
left=none
orphans=0"
		LEASH_WAIT=$w run "$PROBE" -R -T 20 -- leash -t 0.1 sleep 10
		assert_output "status=exit:124
left=none
orphans=0"
		# The KILL to the group ends leash too, as GNU timeout's does.
		LEASH_WAIT=$w run "$PROBE" -R -T 20 -- leash -t 0.1 -k 0.1 probe -t -s 10 -q
		assert_output "status=signal:9
core=0
left=none
orphans=0"
	done
}

@test "reap: leash reaps and exits when the command exits, a grandchild lives on" {
	local w t0
	for w in $WAITS; do
		echo "LEASH_WAIT=$w" >&2
		t0=$(now_us)
		LEASH_WAIT=$w run "$PROBE" -R -G 0.1 -T 20 -- leash -t 30 sh -c 'probe -m "$1" -s 30 -q & exit 6' sh "$MARK"
		[ "${lines[0]}" = status=exit:6 ]
		# Not held up by the grandchild (the subreaper kills it: left=).
		[[ ${lines[1]} == left=*:probe ]]
		(($(now_us) - t0 < 15000000))
	done
}

@test "reap: a command exiting right at the deadline gives 0 or 124, nothing else" {
	local i w st
	for w in $WAITS; do
		for i in $(seq 10); do
			st=0
			LEASH_WAIT=$w bounded leash -t 0.02 sleep 0.02 || st=$?
			[[ $st == 0 || $st == 124 ]] || { echo "LEASH_WAIT=$w: status $st" >&2; false; }
			st=0
			LEASH_WAIT=$w bounded leash -t 0.02 -k 0.001 sleep 0.021 || st=$?
			[[ $st == 0 || $st == 124 || $st == 137 ]] || { echo "LEASH_WAIT=$w -k: status $st" >&2; false; }
		done
	done
}

# audit_trace DIR: strace -ff files of one leash run.  Fails when a signal
# is sent after the reap (but to leash itself or, for GNU's KILL death,
# to the group leash leads, which its leader pins), by a thread that does
# not reap, or to -1; or when a pid leash reaped (an adopted process,
# waitid without WNOWAIT) is signalled or opened as a pidfd afterwards.
audit_trace() {
	local f reaper=
	for f in "$1"/st.*; do
		grep -Eq '^(waitid\(P_PID, [0-9]+, .*\}, WEXITED, NULL\) = 0|wait4\([0-9]+, .*\) = [0-9]+)$' "$f" && reaper=$f
	done
	[ -n "$reaper" ] || { echo "no reap found in $1" >&2; cat "$1"/st.* >&2; return 1; }
	for f in "$1"/st.*; do
		if [ "$f" = "$reaper" ]; then
			# After the reap only leash itself may be signalled (the
			# re-raised death of the command, or GNU's KILL death).
			awk -v self="${f##*.}" '
			     /^(kill|tkill|tgkill|pidfd_send_signal|pidfd_open)\(/ {
				t = $0; sub(/^[a-z_]+\(/, "", t); sub(/[^-0-9].*/, "", t)
				if (!/^pidfd_send_signal/ && (t in gone)) {
					print FILENAME ": to a pid leash reaped: " $0; bad = 1 }
			     }
			     /^waitid\(/ && !/WNOWAIT/ && match($0, /si_pid=[0-9]+/) {
				gone[substr($0, RSTART + 7, RLENGTH - 7)] = 1 }
			     /^(waitid\(P_PID, [0-9]+, .*\}, WEXITED, NULL\) = 0|wait4\()/ { reaped = 1; next }
			     reaped && /^(kill|tkill|tgkill|pidfd_send_signal|pidfd_open)\(/ {
				if (index($0, "kill(" self ",") || index($0, "tgkill(" self ", " self ",")) next
				if (index($0, "kill(0, SIGKILL)")) next
				print FILENAME ": after the reap: " $0; bad = 1 }
			     END { exit bad }' "$f" || return 1
		else
			# A process re-raising a signal on itself signals no one
			# else (qemu-user does, for a guest that dies of one).
			local self=${f##*.} sent
			sent=$(grep -E '^(kill|tkill|tgkill|pidfd_send_signal)\(' "$f" |
				grep -vE "^(kill|tkill)\\($self, |^tgkill\\($self, " || true)
			if [ -n "$sent" ]; then
				printf '%s\n' "$sent" >&2
				echo "$f: a signal sent by a thread or process that does not reap" >&2
				return 1
			fi
		fi
	done
	! grep -E '^kill\(-1, ' "$1"/st.* >&2
}

STRACE_SET=kill,tkill,tgkill,pidfd_send_signal,pidfd_open,waitid,wait4

@test "reap: never a signal after the reap, at the deadline boundary (strace)" {
	need_strace
	local w i n=0
	for w in $WAITS; do
		for i in 1 2 3 4 5 6; do
			n=$((n + 1))
			mkdir "$TMP/$n"
			if ((i % 2)); then
				LEASH_WAIT=$w bounded strace -ff -qq -o "$TMP/$n/st" \
					-e trace=$STRACE_SET \
					"$LEASH" -t 0.02 sleep 0.02 || true
			else
				LEASH_WAIT=$w bounded strace -ff -qq -o "$TMP/$n/st" \
					-e trace=$STRACE_SET \
					"$LEASH" -t 0.02 -k 0.005 "$PROBE" -t -s 0.03 -q || true
			fi
			echo "LEASH_WAIT=$w run $n" >&2
			audit_trace "$TMP/$n"
		done
	done
}

# The waiter thread makes a command that keeps leash's uid, without a
# leaf or a pty, sharing leash's memory until the exec (CLONE_VFORK: no
# page table copied); one that runs as another uid, or under another
# strategy, is forked (lib/spawn/spawn.h, spawn_job).
@test "launch: the waiter thread starts a same-uid command vfork-style; -u and LEASH_WAIT=pidfd fork" {
	need_strace
	[ "${SANITIZE:-0}" != 1 ] || skip "the sanitizer build forks (spawn.c: VFORK_OK)"
	[ -z "${LEASH_EMULATOR:-}" ] || skip "under $LEASH_EMULATOR: a vfork-style clone is made by fork"
	[[ $WAITS == *thread* ]] || skip "LEASH_WAIT=$LEASH_WAIT"
	LEASH_WAIT=thread run "${TRACED[@]}" -f -qq -o "$TMP/t" -e trace=clone,clone3,fork,vfork \
		"$LEASH" -t 5 true
	assert_status 0
	grep -q 'CLONE_VM|CLONE_VFORK' "$TMP/t"
	LEASH_WAIT=pidfd run "${TRACED[@]}" -f -qq -o "$TMP/p" -e trace=clone,clone3,fork,vfork \
		"$LEASH" -t 5 true
	assert_status 0
	! grep -q 'CLONE_VFORK' "$TMP/p"
	[[ $(id -u) == 0 ]] || return 0
	LEASH_WAIT=thread run "${TRACED[@]}" -f -qq -o "$TMP/u" -e trace=clone,clone3,fork,vfork \
		"$LEASH" -u nobody --cgroup=off -t 5 true
	assert_status 0
	! grep -q 'CLONE_VFORK' "$TMP/u"
}

@test "wait: the command's SIGCHLD wakes the main thread at its exit, with every strategy, subreaper or not" {
	need_strace
	# --foreground: no subreaper.  Before, only a subreaper had SIGCHLD
	# on its signalfd; the others slept until the waiter's own news
	# (polling: until its next 100 ms tick).
	local w sfd
	for w in $WAITS; do
		LEASH_WAIT=$w run bounded "${TRACED[@]}" -qq -o "$TMP/st.$w" \
			-e trace=poll,ppoll,signalfd4,read "$LEASH" --foreground -t 10 true
		assert_status 0
		sfd=$(sed -n 's/^signalfd4(.*) = \([0-9]*\)$/\1/p' "$TMP/st.$w")
		echo "LEASH_WAIT=$w signalfd $sfd" >&2
		[[ -n $sfd ]]
		# Polling asks before it first sleeps: a command already gone
		# by then leaves no poll to look at.
		grep -q "{fd=$sfd, revents=POLLIN}" "$TMP/st.$w" ||
			{ [[ $w == poll ]] && ! grep -q 'poll(' "$TMP/st.$w"; }
		# One read takes what is pending: none finds the signalfd empty.
		! grep -E "^read\($sfd, .*EAGAIN" "$TMP/st.$w"
	done
}

@test "native: signals that come together are all forwarded (with and without a signalfd)" {
	# leash stopped while six come, so that one wake-up finds them all
	# pending: more than one read's batch.
	local how st s
	for how in signalfd nosys; do
		rm -f "$TMP/ready" "$TMP/log"
		local pre=()
		if [[ $how == nosys ]]; then
			[[ -x $NOSYS ]] || continue
			pre=("$NOSYS" signalfd4 --)
		fi
		start_ready "${pre[@]}" "$LEASH" -t 30 "$PROBE" -c HUP,INT,QUIT,USR1,USR2,TERM,SYS \
			-l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 2 -x 5 -q
		local lpid=$READY_PID
		kill -STOP "$lpid"
		kill -HUP "$lpid"; kill -INT "$lpid"; kill -QUIT "$lpid"
		kill -USR1 "$lpid"; kill -USR2 "$lpid"; kill -TERM "$lpid"
		# SYS, caught (lib/signal/sigsys.c), comes to the loop another way.
		kill -SYS "$lpid"
		kill -CONT "$lpid"
		st=0
		wait "$lpid" || st=$?
		echo "$how: status $st, log: $(tr '\n' ' ' < "$TMP/log")" >&2
		[ "$st" -eq 5 ]
		for s in HUP INT QUIT USR1 USR2 TERM SYS; do
			grep -qx "$s" "$TMP/log"
		done
	done
	assert_no_leftovers
}

# bats test_tags=no_waiter
@test "wait: the main thread sleeps until it has read the waiter thread's news (strace holds the thread after its write)" {
	need_strace
	# glibc (SANITIZE=1) makes threads with clone3: where the filter
	# traps it, leash makes no thread (lib/supervise/waiter.c); musl's use clone.
	[[ ${SANITIZE:-0} == 1 && ${LEASH_NOSYS_ERRNO:-} == TRAP && ,${LEASH_NOSYS:-}, == *,clone3,* ]] &&
		skip "glibc's threads need clone3, which this filter traps"
	# The thread's write to its eventfd returns 0.2 s late.  A main
	# thread that waited for a flag set after that write found the
	# eventfd ready and polled it again and again meanwhile (thousands
	# of times); now it reads the eventfd and is done.
	LEASH_WAIT=thread run bounded "${TRACED[@]}" -f -qq -o "$TMP/st" \
		-e trace=poll,ppoll,write,read,eventfd2 \
		-e inject=write:delay_exit=200000 "$LEASH" -t 10 true
	assert_status 0
	local polls efd
	polls=$(grep -c 'poll(' "$TMP/st")
	echo "polls: $polls" >&2
	[ "$polls" -le 3 ]
	# The eventfd is read when poll says it is ready, never on the
	# chance (a read that finds nothing is a system call per wake-up).
	efd=$(sed -n 's/.*eventfd2(.*) = \([0-9]*\)$/\1/p' "$TMP/st")
	[[ -n $efd ]]
	grep -q "read($efd, \"" "$TMP/st"
	! grep -E "read\($efd, .*EAGAIN" "$TMP/st"
}

@test "reap: signal noise while waiting changes nothing" {
	local w i st t0
	for w in $WAITS; do
		LEASH_WAIT=$w "${DFL[@]}" leash -t 0.6 probe -m "$MARK" -s 30 -q &
		local lpid=$!
		track "$lpid"
		t0=$(now_us)
		for i in $(seq 20); do
			kill -WINCH "$lpid" 2>/dev/null || true
			kill -CHLD "$lpid" 2>/dev/null || true
			kill -CONT "$lpid" 2>/dev/null || true
			sleep 0.01
		done
		st=0
		wait "$lpid" || st=$?
		echo "LEASH_WAIT=$w: status $st" >&2
		[ "$st" -eq 124 ]
		(($(now_us) - t0 < 15000000))
	done
	assert_no_leftovers
}

# --- the deadline, native spelling ---------------------------------------------------

@test "native: -t, -s, -k, --preserve-status, -v" {
	run bounded leash -t 0.1 sleep 10
	assert_status 124
	run bounded leash -t 0.1 -s HUP --preserve-status sleep 10
	assert_status 129
	run bounded leash -t 0.1 -k 0.1 probe -t -s 10 -q
	assert_status 137
	run bounded leash --timeout=0.1 --signal=KILL sleep 10
	assert_status 137
	run --separate-stderr bounded leash -v -t 0.1 sleep 10
	assert_status 124
	[[ $'\n'$stderr$'\n' == *$'\n'"leash: sending signal TERM to command 'sleep'"$'\n'* ]]
}

@test "native: the command's status and signal death pass through" {
	run leash sh -c 'exit 9'
	assert_status 9
	run "$PROBE" -W -T 20 -- leash -t 10 sh -c 'kill -USR1 $$'
	assert_status 138
	[ "${lines[0]}" = status=signal:10 ]
}

# The grandchild is running before the deadline (its report written), so
# a slow machine cannot pass the first half with nothing to kill, nor
# fail the second with nothing yet to spare.
@test "native: grandchildren die at the deadline; --foreground spares them" {
	local up='probe -m "$1" -s 30 -q -o "$2" >/dev/null 2>&1 & while [ ! -e "$2" ]; do sleep 0.02; done'
	run bounded leash -t 1 sh -c "$up; wait" sh "$MARK" "$TMP/r1"
	assert_status 124
	[ -e "$TMP/r1" ]
	assert_no_leftovers
	run bounded leash --foreground -t 1 sh -c "$up; exec sleep 10" sh "$MARK" "$TMP/r2"
	assert_status 124
	[ -e "$TMP/r2" ]
	[ -n "$(marked_pids)" ]
}

@test "native: a stopped command is continued and dies" {
	run bounded leash -t 0.2 sh -c 'kill -STOP $$; : "$1"' sh "$MARK"
	assert_status 124
	assert_no_leftovers
}

@test "native: signals sent to leash are forwarded" {
	local s st
	# SYS too: not read from the signalfd, but through lib/signal/sigsys.c.
	for s in TERM INT HUP QUIT USR1 USR2 SYS; do
		rm -f "$TMP/ready" "$TMP/log"
		start_ready leash -t 30 probe -c "$s" -E -x 42 -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 30 -q
		local lpid=$READY_PID
		kill -"$s" "$lpid"
		st=0
		wait "$lpid" || st=$?
		echo "signal $s: status $st, log $(cat "$TMP/log" 2>&1)" >&2
		[ "$st" -eq 42 ]
		grep -qx "$s" "$TMP/log"
	done
}

@test "native: exec failures are 126 and 127 with a leash: message" {
	run -127 leash no-such-command-$MARK
	[[ $output == "leash: "*"no-such-command-$MARK"*"No such file or directory" ]]
	run leash "$TMP"
	assert_status 126
	[[ $output == "leash: "*"Permission denied" ]]
}

@test "native: leash timeout ... is the timeout personality" {
	run bounded leash timeout 0.1 sleep 10
	assert_status 124
	run leash timeout 10 sh -c 'exit 4'
	assert_status 4
	run leash timeout -z 1 true
	assert_status 125
}

# --- usage errors ----------------------------------------------------------------

# bats test_tags=no_waiter
@test "usage: bad native options say leash:, exit 125, run nothing" {
	local args
	while IFS= read -r args; do
		eval "run \"\$LEASH\" $args touch \"\$TMP/ran\""
		echo "leash $args -> $status: $output" >&2
		assert_status 125
		[[ ${lines[0]} == "leash: "* ]]
	done <<'EOF'
-z
--no-such-option
-t 1x
-t ''
-t -1
-k 1x -t 1
-s FOO -t 1
-s 200 -t 1
--timeout=
--foreground=yes -t 1
EOF
	[ ! -e "$TMP/ran" ]
	run "$LEASH" -t
	assert_status 125
	[[ ${lines[0]} == "leash: "* ]]
	run "$LEASH"
	assert_status 125
	run "$LEASH" -t 5
	assert_status 125
}

# --- kernel fallbacks, forced by a seccomp filter (tests/nosys.c) ------------

NOSYS=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}

@test "fallback: without timerfd the deadline still holds, by the clock; -v says so" {
	[[ -x $NOSYS ]] || skip "no nosys helper"
	local e
	for e in ENOSYS EPERM TRAP; do
		BOUND=8 run --separate-stderr bounded "$NOSYS" -e "$e" timerfd_create -- "$LEASH" -v -t 0.3 sleep 5
		assert_status 124
		[[ $stderr == *"leash: fallback: no-timerfd: the deadline polls the clock: "* ]]
	done
	# -k too: the KILL after the grace period.
	BOUND=8 run bounded "$NOSYS" timerfd_create -- "$LEASH" -t 0.2 -k 0.2 probe -t -s 5 -q
	assert_status 137
}

@test "fallback: without timerfd a stop of leash costs at most about 100 ms" {
	[[ -x $NOSYS ]] || skip "no nosys helper"
	deadline_after_stop 1.5 "$NOSYS" timerfd_create -- "$LEASH" -t 1 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	[ "$ST" -eq 124 ]
	((AFTER_CONT_US < 800000))
}

# bats test_tags=no_waiter
@test "fallback: LEASH_WAIT=pidfd without pidfd_open polls instead, same results" {
	[[ -x $NOSYS ]] || skip "no nosys helper"
	LEASH_WAIT=pidfd BOUND=8 run bounded "$NOSYS" pidfd_open -- "$LEASH" -t 0.2 sleep 5
	assert_status 124
	LEASH_WAIT=pidfd run "$NOSYS" pidfd_open -- "$LEASH" -t 5 sh -c 'exit 3'
	assert_status 3
}

@test "fallback: without signalfd, signals are polled: forwarded, and the deadline holds; -v says so" {
	[[ -x $NOSYS ]] || skip "no nosys helper"
	BOUND=8 run --separate-stderr bounded "$NOSYS" signalfd4 -- "$LEASH" -v -t 0.3 sleep 5
	assert_status 124
	[[ $stderr == *"leash: fallback: no-signalfd: signals are polled: "* ]]
	start_ready "$NOSYS" signalfd4 -- "$LEASH" -t 30 probe -c TERM -E -x 42 -o "$TMP/ready" -m "$MARK" -s 30 -q
	kill -TERM "$READY_PID"
	local st=0
	wait "$READY_PID" || st=$?
	[ "$st" -eq 42 ]
}

# --- tree kill without a cgroup: leash as a child subreaper ------------------------

# A directory every user may write (the test's own tmpdir may sit under a
# 0700 /root); removed by teardown.
open_tmpdir() {
	OPEN=$(mktemp -d /tmp/leash_t.XXXXXX)
	chmod 1777 "$OPEN"
	TRACKED_DIRS+=("$OPEN")
}

setup() {
	common_setup
	TRACKED_DIRS=()
}

teardown() {
	common_teardown
	local d
	for d in "${TRACKED_DIRS[@]}"; do
		[[ $d == /tmp/leash_t.* ]] && rm -rf "$d"
	done
	return 0
}

# as_caller WHO CMD...: CMD as root with --cgroup=off in "$@" already, or
# as uid 65534 (a non-root caller, no groups, no capabilities).
as_caller() {
	local who=$1
	shift
	# PATH: the copies every user may run (the test's bin may be 0700).
	if [[ $who == nobody ]]; then
		PATH=${PROBE%/*}:$PATH setpriv --reuid=65534 --regid=65534 \
			--clear-groups --inh-caps=-all -- "$@"
	else
		PATH=${PROBE%/*}:$PATH "$@"
	fi
}

# callers: root (with --cgroup=off) and, when we are root, nobody.
CALLERS="root nobody"
cgoff() {
	[[ $1 == root ]] && echo --cgroup=off
	return 0
}

# An escapee: a new session and a double fork, its pid in $OPEN/esc.$1.
ESCAPE='setsid sh -c "probe -m \"$1\" -o \"$2\" -s 30 -q >/dev/null 2>&1 & exit 0" & sleep 30'

@test "tree kill: a setsid + double-fork escapee dies at the deadline (root --cgroup=off, and not root)" {
	need_root "running leash as another user"
	open_tmpdir
	local who pid
	for who in $CALLERS; do
		rm -f "$OPEN/esc"
		BOUND=20 run as_caller "$who" "$PROBE" -W -T 20 -d "$DFL_SIGS" -- \
			"$LEASH" $(cgoff "$who") -t 1 -- sh -c "$ESCAPE" sh "$MARK" "$OPEN/esc"
		echo "caller $who: $output" >&2
		[ "${lines[0]}" = status=exit:124 ]
		pid=$(report_get pid "$OPEN/esc")
		[ -n "$pid" ]
		wait_gone "$pid" 5
		assert_no_leftovers
	done
}

@test "tree kill: -k KILLs an escapee that ignores TERM, and a forwarded signal reaches it" {
	need_root "running leash as another user"
	open_tmpdir
	local who
	for who in $CALLERS; do
		rm -f "$OPEN/esc"
		BOUND=20 run as_caller "$who" "$PROBE" -W -T 20 -d "$DFL_SIGS" -- \
			"$LEASH" $(cgoff "$who") -t 0.5 -k 0.5 -- sh -c \
			'setsid sh -c "probe -t -m \"$1\" -o \"$2\" -s 30 -q & exit 0" & exec probe -t -s 30 -q' sh "$MARK" "$OPEN/esc"
		echo "caller $who: $output" >&2
		[ "${lines[0]}" = status=signal:9 ]
		assert_no_leftovers
		# Forwarded: USR1 to leash reaches the escapee too.
		rm -f "$OPEN/esc"
		rm -f "$OPEN/ready"
		# Not through the function: $! must be leash's pid.
		local pre=()
		[[ $who == nobody ]] && pre=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --)
		PATH=${PROBE%/*}:$PATH "${pre[@]}" "${DFL[@]}" "$LEASH" $(cgoff "$who") -t 30 -- sh -c \
			'setsid sh -c "probe -m \"$1\" -o \"$2\" -s 30 -q & exit 0" & exec probe -c USR1 -E -x 7 -o "$3" -s 30 -q' sh "$MARK" "$OPEN/esc" "$OPEN/ready" &
		local lpid=$! st=0
		track "$lpid"
		wait_file "$OPEN/esc"
		wait_file "$OPEN/ready"
		kill -USR1 "$lpid"
		wait "$lpid" || st=$?
		[ "$st" -eq 7 ]
		assert_no_leftovers
	done
}

@test "tree kill: --kill-leftovers kills a leftover daemon at the command's exit; without it leash does not wait for it" {
	need_root "running leash as another user"
	open_tmpdir
	local who t0 pid
	local cmd='setsid sh -c "probe -m \"$1\" -o \"$2\" -s 30 -q >/dev/null 2>&1 & exit 0"
		while [ ! -e "$2" ]; do sleep 0.02; done; exit 3'
	for who in $CALLERS; do
		rm -f "$OPEN/esc"
		BOUND=20 run as_caller "$who" "$PROBE" -W -T 20 -d "$DFL_SIGS" -- \
			"$LEASH" $(cgoff "$who") --kill-leftovers -- sh -c "$cmd" sh "$MARK" "$OPEN/esc"
		echo "caller $who: $output" >&2
		[ "${lines[0]}" = status=exit:3 ]
		assert_no_leftovers
		# Without the option the daemon lives on and leash is not held.
		rm -f "$OPEN/esc"
		t0=$(now_us)
		BOUND=20 run as_caller "$who" "$PROBE" -W -T 20 -d "$DFL_SIGS" -- \
			"$LEASH" $(cgoff "$who") -t 30 -- sh -c "$cmd" sh "$MARK" "$OPEN/esc"
		[ "${lines[0]}" = status=exit:3 ]
		(($(now_us) - t0 < 10000000))
		pid=$(report_get pid "$OPEN/esc")
		pid_alive "$pid"
		kill -KILL "$pid"
	done
}

@test "tree kill: bats as a non-root user: run leash -t 1 -- sh -c 'setsid sleep 30 & sleep 30' takes about 1 s" {
	need_root "running bats as another user"
	open_tmpdir
	# printf: bats would rewrite a heredoc line that starts with @test.
	printf '%s\n' '@test "escapee" {' \
		"	run \"\$LEASH\" -t 1 -- sh -c 'setsid probe -m \"\$1\" -s 30 -q & probe -s 30 -q' sh \"\$MARK\"" \
		'	[ "$status" -eq 124 ]' '}' >"$OPEN/t.bats"
	chmod 644 "$OPEN/t.bats"
	# bats cds back to where it was started: a place nobody may enter
	# (the tree may sit under a 0700 /root).
	cd "$OPEN"
	local t0 st=0
	t0=$(now_us)
	BOUND=25 run as_caller nobody env HOME="$OPEN" TMPDIR="$OPEN" \
		LEASH="$LEASH" MARK="$MARK" "$PROBE" -W -T 25 -- bats "$OPEN/t.bats"
	echo "$output" >&2
	[ "${lines[0]}" = 1..1 ]
	[ "${lines[-1]}" = status=exit:0 ]
	# bats waits for every holder of its output pipe: the escapee is gone.
	(($(now_us) - t0 < 12000000))
	assert_no_leftovers
}

@test "tree kill: adopted processes are reaped while the command runs (no zombie), and none at the end" {
	open_tmpdir
	local w
	for w in $WAITS; do
		rm -f "$OPEN/ready"
		LEASH_WAIT=$w "${DFL[@]}" "$LEASH" --cgroup=off -t 30 -- sh -c \
			'for i in 1 2 3 4 5; do setsid sh -c "sleep 0.05 & exit 0"; done
			 sleep 0.5; : >"$2"; exec probe -m "$1" -s 30 -q' sh "$MARK" "$OPEN/ready" &
		local lpid=$!
		track "$lpid"
		wait_file "$OPEN/ready"
		echo "LEASH_WAIT=$w" >&2
		assert_no_zombie_children "$lpid"
		kill -TERM "$lpid"
		wait "$lpid" || true
	done
	# At the end nothing is left alive for the reaper above; what leash
	# signalled may still be dying when it exits (then that reaper reaps
	# it: orphans= may count it).
	run "$PROBE" -R -G 0.5 -T 20 -- "$LEASH" --cgroup=off -t 0.3 -- sh -c \
		'setsid sh -c "sleep 0.1 & exit 0"; setsid sh -c "probe -m \"$1\" -s 30 -q & exit 0"; sleep 10' sh "$MARK"
	[ "${lines[0]}" = status=exit:124 ]
	[ "${lines[1]}" = left=none ]
}

@test "tree kill: the timeout personality stays GNU: no subreaper, an escapee outlives the deadline" {
	open_tmpdir
	local pid
	run "$PROBE" -W -T 20 -d "$DFL_SIGS" -- "$TIMEOUT" 0.3 sh -c "$ESCAPE" sh "$MARK" "$OPEN/esc"
	[ "${lines[0]}" = status=exit:124 ]
	wait_file "$OPEN/esc"
	pid=$(report_get pid "$OPEN/esc")
	pid_alive "$pid"
	[ "$(report_get ppid "$OPEN/esc")" != "$$" ]
	kill -KILL "$pid"
}

@test "reap: never a signal to a pid leash reaped, adopted processes exiting at the deadline (strace)" {
	need_strace
	local w i n=0
	for w in $WAITS; do
		for i in 1 2 3 4; do
			n=$((n + 1))
			mkdir "$TMP/$n"
			LEASH_WAIT=$w bounded strace -ff -qq -o "$TMP/$n/st" -e trace=$STRACE_SET \
				"$LEASH" --cgroup=off -t 0.1 $( ((i % 2)) && echo -k 0.05) -- sh -c \
				'for d in 0.09 0.1 0.1 0.11; do setsid sh -c "sleep $d & exit 0"; done
				 setsid sh -c "probe -t -m \"$1\" -s 5 -q & exit 0"; probe -t -s 0.2 -q' sh "$MARK" || true
			echo "LEASH_WAIT=$w run $n" >&2
			grep -q '^kill(' "$TMP/$n"/st.*
			audit_trace "$TMP/$n"
		done
	done
	assert_no_leftovers
}
