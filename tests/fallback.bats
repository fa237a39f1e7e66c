#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# fallback.bats: every kernel fallback forced on this host, as an old
# kernel (ENOSYS), a container's seccomp profile (EPERM) or an Android
# app's filter (TRAP: a SIGSYS, which leash takes as ENOSYS) would force
# it: tests/nosys.c refuses pidfd_open, pthread_create's clone, clone3,
# timerfd_create, signalfd4, prctl(PR_SET_CHILD_SUBREAPER) and keyctl;
# strace's fault injection makes a leaf's cgroup.kill missing, as before
# Linux 5.14, and a read-only bind mount in a private mount namespace
# covers it.  For each: the deadline still holds, the tree still dies
# where leash can reach it, and -v and the report name the fallback.
# (close_range, used only in the NSS child, is in nss.bats.)

bats_require_minimum_version 1.5.0

load helpers
load cgroup-helpers

NOSYS=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}

setup_file() {
	cg_tops_note
}

teardown_file() {
	cg_tops_tidy
}

setup() {
	common_setup
	[[ -x $NOSYS ]] || must_run_or_skip "no nosys helper (build/nosys)"
	command -v jq >/dev/null || must_run_or_skip "no jq (build-aux/deps.sh check installs it)"
	cg_detect
	cg_uids
	# Escapee files, written by every user; the reports in a directory
	# of leash's user (one others may write is refused).
	OPEN=$(mktemp -d /tmp/leash_t.XXXXXX)
	chmod 1777 "$OPEN"
	mkdir -m 755 "$OPEN/root" "$OPEN/nobody"
	chown 65534 "$OPEN/nobody" 2>/dev/null || true
	R=$OPEN/root/report.json
	UID0_MADE=()
	# The world-readable copies (setup_suite's) come first on PATH.
	PATH=${PROBE%/*}:$PATH
}

teardown() {
	common_teardown
	[[ -n ${UA:-} && $(id -u) == 0 ]] && cg_remove_uid "$UA"
	# uid 0's groups, only when this test made them (others may use
	# them): what is left in them was ours and has been killed above.
	local d i
	for d in "${UID0_MADE[@]}"; do
		for ((i = 0; i < 20; i++)); do
			rmdir "$d"/run_* 2>/dev/null
			rmdir "$d" 2>/dev/null && break
			[[ -d $d ]] || break
			sleep 0.1
		done
	done
	[[ ${OPEN:-} == /tmp/leash_t.* ]] && rm -rf "$OPEN"
	return 0
}

# An escapee: a new session and a double fork (re-parented to leash as a
# subreaper), its report in $2.  DEEP keeps its parent alive, so the tree
# walk meets a grandchild (signalled through a pidfd where there is one).
ESCAPE='setsid sh -c "probe -m \"$1\" -o \"$2\" -s 30 -q >/dev/null 2>&1 & exit 0" & sleep 30'
DEEP='setsid sh -c "probe -m \"$1\" -o \"$2\" -s 30 -q >/dev/null 2>&1 & wait" & sleep 30'
# As ESCAPE, but the escapee and the command survive TERM (-k's KILL).
STUBBORN='setsid sh -c "probe -t -m \"$1\" -o \"$2\" -s 30 -q >/dev/null 2>&1 & exit 0" & exec probe -t -s 30 -q'

# Each refusal in turn: an old kernel's, a container's, an Android app's
# (a SIGSYS, which leash takes as ENOSYS).
ERRNOS=(ENOSYS EPERM TRAP)

errtext() {
	case $1 in
	ENOSYS) echo "Function not implemented" ;;
	EPERM) echo "Operation not permitted" ;;
	E2BIG) echo "Argument list too long" ;;
	esac
}

# trapped_call NAME: what the -v line of fallback NAME names under TRAP,
# as a pattern (musl's signalfd tries signalfd4, then signalfd).
trapped_call() {
	case $1 in
	no-thread) echo "clone*" ;;
	no-pidfd) echo pidfd_open ;;
	no-clone3) echo clone3 ;;
	no-timerfd) echo timerfd_create ;;
	no-signalfd) echo "signalfd*" ;;
	no-subreaper) echo prctl ;;
	no-keyring) echo keyctl ;;
	esac
}

# denied ERRNO CALLS WHO LEASH-ARGS... -- SCRIPT: leash -v with a report,
# as WHO (root, or uid 65534 without groups or caps), under a filter
# refusing CALLS with ERRNO, running sh -c SCRIPT (an escapee's report in
# $OPEN/esc); bounded, so a hang fails.  Sets status, output, stderr
# (the -v lines).
denied() {
	local err=$1 calls=$2 who=$3 pre=()
	shift 3
	R=$OPEN/root/report.json
	if [[ $who == nobody ]]; then
		pre=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --)
		R=$OPEN/nobody/report.json
	fi
	rm -f "$OPEN/esc" "$R"
	BOUND=20 run --separate-stderr bounded "$NOSYS" -e "$err" "$calls" -- \
		"${pre[@]}" "$LEASH" -v --report="$R" "$@" sh "$MARK" "$OPEN/esc"
	echo "$err $calls as $who: status $status" >&2
	printf '%s\n' "$stderr" >&2
}

# said NAME TEXT ERRNO: the -v line of that fallback; under TRAP it
# names the call the filter trapped.
said() {
	if [[ $3 == TRAP ]]; then
		# shellcheck disable=SC2053  # the call is a pattern
		[[ $stderr == *"leash: fallback: $1: $2: system call "$(trapped_call "$1")" refused (seccomp)"* ]]
	else
		[[ $stderr == *"leash: fallback: $1: $2: $(errtext "$3")"* ]]
	fi
}

# reported NAME: the report lists NAME among its fallbacks.
reported() {
	jq -e --arg n "$1" '.fallbacks | index($n) != null' "$R" >/dev/null ||
		{ echo "report: no $1 in $(cat "$R")" >&2; return 1; }
}

# escapee_dies: the escapee started, and is gone soon after leash.
escapee_dies() {
	local pid
	wait_file "$OPEN/esc" 5
	pid=$(report_get pid "$OPEN/esc")
	[ -n "$pid" ]
	wait_gone "$pid" 5
}

need_root_leaf() {
	need_root "a cgroup leaf needs root" || return
	need_leaf
}

# --- supervision: waiter, timer, signals -----------------------------------------

@test "no waiter thread (pthread_create refused): the exit is polled; deadline and tree kill hold" {
	local e who
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			denied "$e" thread "$who" $([[ $who == root ]] && echo --cgroup=off) \
				-t 0.5 -- sh -c "$ESCAPE"
			assert_status 124
			escapee_dies
			# pthread_create says EAGAIN for any clone failure.
			[[ $stderr == *"leash: fallback: no-thread: the exit is polled: "* ]]
			reported no-thread
			[ "$(jq -r .result "$R")" = timeout ]
		done
	done
	assert_no_leftovers
}

@test "no pidfd_open (LEASH_WAIT=pidfd): the exit is polled; deadline and tree kill hold" {
	local e who
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			LEASH_WAIT=pidfd denied "$e" pidfd_open "$who" \
				$([[ $who == root ]] && echo --cgroup=off) -t 0.5 -- sh -c "$ESCAPE"
			assert_status 124
			escapee_dies
			said no-pidfd "the exit is polled" "$e"
			reported no-pidfd
		done
	done
	# The command's own status all the same.
	LEASH_WAIT=pidfd denied ENOSYS pidfd_open root -t 5 -- sh -c 'exit 3'
	assert_status 3
	assert_no_leftovers
}

@test "no pidfd_open in the tree walk: a grandchild is signalled by pid after the start-time check" {
	local e who
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			denied "$e" pidfd_open "$who" $([[ $who == root ]] && echo --cgroup=off) \
				-t 0.5 -- sh -c "$DEEP"
			assert_status 124
			escapee_dies
			said no-pidfd "descendants are signalled by pid, after a start-time check" "$e"
			reported no-pidfd
			[ "$(jq -r '.kills_failed | length' "$R")" = 0 ]
		done
	done
	assert_no_leftovers
}

@test "no timerfd: the deadline polls the clock; -k's KILL too; the tree dies" {
	local e who
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			denied "$e" timerfd_create "$who" $([[ $who == root ]] && echo --cgroup=off) \
				-t 0.5 -k 0.5 -- sh -c "$STUBBORN"
			assert_status 137
			escapee_dies
			said no-timerfd "the deadline polls the clock" "$e"
			reported no-timerfd
			[ "$(jq -r .result "$R")" = killed-after-timeout ]
		done
	done
	assert_no_leftovers
}

@test "timerfd made but not set (a filter that refuses timerfd_settime): the clock is polled; -k's KILL too" {
	local e
	for e in "${ERRNOS[@]}"; do
		denied "$e" timerfd_settime root --cgroup=off -t 0.5 -k 0.5 -- sh -c "$STUBBORN"
		assert_status 137
		escapee_dies
		if [[ $e == TRAP ]]; then
			[[ $stderr == *"leash: fallback: no-timerfd: the deadline polls the clock: system call timerfd_settime"*" refused (seccomp)"* ]]
		else
			said no-timerfd "the deadline polls the clock" "$e"
		fi
		reported no-timerfd
	done
	assert_no_leftovers
}

@test "no timerfd under the name timeout: --verbose says GNU's one line, no fallback" {
	local e
	for e in "${ERRNOS[@]}"; do
		BOUND=20 run --separate-stderr bounded "$NOSYS" -e "$e" timerfd_create -- \
			"$TIMEOUT" --verbose 0.3 sleep 5
		assert_status 124
		[ "$stderr" = "timeout: sending signal TERM to command 'sleep'" ]
	done
}

@test "no signalfd: signals are polled, adopted processes reaped as they are; the tree dies" {
	local e who
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			denied "$e" signalfd4 "$who" $([[ $who == root ]] && echo --cgroup=off) \
				-t 0.5 -- sh -c "$ESCAPE"
			assert_status 124
			escapee_dies
			said no-signalfd "signals are polled" "$e"
			said no-signalfd "adopted processes are reaped when signals are polled" "$e"
			reported no-signalfd
		done
	done
	assert_no_leftovers
}

@test "pidfd, clone3 and timerfd refused at once (as before Linux 5.3): every one named, in order" {
	need_root_leaf
	denied ENOSYS pidfd_open,clone3,timerfd_create root -u "$UA" -t 0.5 -- sh -c "$ESCAPE"
	assert_status 124
	escapee_dies
	[ "$(jq -c .fallbacks "$R")" = '["no-clone3","no-timerfd"]' ]
	LEASH_WAIT=pidfd denied ENOSYS pidfd_open,clone3,timerfd_create root -u "$UA" \
		-t 0.5 -- sh -c "$ESCAPE"
	assert_status 124
	escapee_dies
	[ "$(jq -c .fallbacks "$R")" = '["no-pidfd","no-clone3","no-timerfd"]' ]
	assert_no_leftovers
}

# --- the launch: clone3, the session keyring ---------------------------------------

@test "no clone3: the child joins its leaf after fork; the escapee dies with the leaf" {
	need_root_leaf
	local e
	for e in "${ERRNOS[@]}" E2BIG; do
		denied "$e" clone3 root -u "$UA" -t 0.5 -- sh -c "$ESCAPE"
		assert_status 124
		escapee_dies
		said no-clone3 "fork, then the child joins its leaf" "$e"
		reported no-clone3
		[ "$(jq -r .tree_kill "$R")" = cgroup ]
		[[ $(jq -r .cgroup.leaf "$R") == */uid_$UA/run_* ]]
	done
	assert_no_leftovers
}

# in_keyring CMD...: CMD in a session keyring of its own, where root has
# just put a key; then whether root still reads it as planted.
in_keyring() {
	keyctl session - bash -c 'key=$(keyctl add user leash_fb planted-by-root @s) || exit 99
		"${@//@KEY@/$key}"
		echo "root-reads=$(keyctl print "$key")"' bash "$@"
}

@test "no keyctl (a kernel without keys, or a container's profile): the command starts, and cannot reach root's key either" {
	need_root "an identity switch"
	command -v keyctl >/dev/null || must_run_or_skip "no keyctl (keyutils)"
	local e
	for e in "${ERRNOS[@]}"; do
		denied "$e" keyctl root -u "$UA" -t 0.5 -- sh -c "$ESCAPE"
		assert_status 124
		escapee_dies
		said no-keyring "keyctl is refused, to the command too: no fresh session keyring" "$e"
		reported no-keyring
		# The filter is the command's too: root's key is out of its reach.
		run in_keyring "$NOSYS" -e "$e" keyctl -- "$LEASH" -u "$UA" -- sh -c \
			'keyctl print @KEY@ >/dev/null 2>&1 && echo key-read
			 keyctl update @KEY@ planted-by-target 2>/dev/null && echo key-written
			 echo ran'
		echo "$output" >&2
		assert_status 0
		[[ $output == *ran* && $output == *root-reads=planted-by-root* ]]
		[[ $output != *key-read* && $output != *key-written* ]]
	done
	# No uid change, no keyring wanted: nothing to fall back from.
	denied EPERM keyctl root -t 5 -- true
	assert_status 0
	[ "$(jq -c .fallbacks "$R")" = '[]' ]
	assert_no_leftovers
}

# --- tree kill: the subreaper, the leaf's cgroup.kill -------------------------------

@test "no subreaper: the deadline holds, the group dies, a setsid escapee is out of reach and said so" {
	local e who pid
	for who in root nobody; do
		for e in "${ERRNOS[@]}"; do
			[[ $who == nobody ]] && need_root "running leash as nobody"
			rm -f "$OPEN/esc.grp"
			denied "$e" subreaper "$who" $([[ $who == root ]] && echo --cgroup=off) -t 0.5 -- \
				sh -c 'probe -m "$1" -o "$2.grp" -s 30 -q & '"$ESCAPE"
			assert_status 124
			said no-subreaper "signals reach the process group only" "$e"
			reported no-subreaper
			[ "$(jq -r .tree_kill "$R")" = group ]
			# The command's group died ...
			pid=$(report_get pid "$OPEN/esc.grp")
			wait_gone "$pid" 5
			# ... the escapee, in a session of its own, lives on.
			wait_file "$OPEN/esc" 5
			pid=$(report_get pid "$OPEN/esc")
			pid_alive "$pid"
			kill -KILL "$pid"
		done
	done
	# --kill-leftovers asked for the subreaper: a word without -v too.
	rm -f "$R"
	run --separate-stderr "$NOSYS" subreaper -- "$LEASH" --cgroup=off --kill-leftovers -- true
	assert_status 0
	[[ $stderr == "leash: fallback: no-subreaper: signals reach the process group only: $(errtext ENOSYS)" ]]
}

@test "no subreaper, but a leaf: the escapee dies with the leaf, no fallback taken" {
	need_root_leaf
	denied EPERM subreaper root -u "$UA" -t 0.5 -- sh -c "$ESCAPE"
	assert_status 124
	escapee_dies
	[ "$(jq -r .tree_kill "$R")" = cgroup ]
	[ "$(jq -c .fallbacks "$R")" = '[]' ]
	[[ $stderr != *fallback* ]]
}

# Every openat of a cgroup.kill fails ENOENT, as on kernels before 5.14
# (strace fault injection; leash opens it relative to the leaf's fd).
NO_CGROUP_KILL=("${TRACED[@]}" -qq -o /dev/null -P cgroup.kill -e trace=openat
	-e inject=openat:error=ENOENT)

need_inject() {
	command -v strace >/dev/null || must_run_or_skip "needs strace"
	strace -qq -o /dev/null -e inject=getpid:retval=1:when=1000 true 2>/dev/null ||
		must_run_or_skip "strace cannot inject faults here"
}

@test "no cgroup.kill (before 5.14): -k's KILL reaches every process of the leaf, one by one" {
	need_root_leaf
	need_inject
	rm -f "$OPEN/esc" "$R"
	BOUND=20 run --separate-stderr bounded "${NO_CGROUP_KILL[@]}" "$LEASH" -v --report="$R" \
		-u "$UA" -t 0.5 -k 0.5 -- sh -c "$STUBBORN" sh "$MARK" "$OPEN/esc"
	printf '%s\n' "$stderr" >&2
	assert_status 137
	escapee_dies
	[[ $stderr == *"leash: fallback: no-cgroup-kill: each process of the leaf is killed, the leaf frozen meanwhile: "* ]]
	reported no-cgroup-kill
	[ "$(jq -r .result "$R")" = killed-after-timeout ]
	[ "$(jq -r '.kills_failed | length' "$R")" = 0 ]
	assert_no_leftovers
}

@test "no cgroup.kill: --kill-leftovers still kills what is left in the leaf" {
	need_root_leaf
	need_inject
	rm -f "$OPEN/esc" "$R"
	BOUND=20 run --separate-stderr bounded "${NO_CGROUP_KILL[@]}" "$LEASH" -v --report="$R" \
		-u "$UA" --kill-leftovers -- sh -c \
		'setsid probe -t -m "$1" -o "$2" -s 30 -q >/dev/null 2>&1 &
		 until [ -e "$2" ]; do sleep 0.05; done' sh "$MARK" "$OPEN/esc"
	printf '%s\n' "$stderr" >&2
	assert_status 0
	local pid
	pid=$(report_get pid "$OPEN/esc")
	# leash waited for the leaf to empty: gone at once.
	! pid_alive "$pid"
	reported no-cgroup-kill
	[[ -z $(leaves_of "$UA") ]]
}

@test "cgroup.kill hidden in a private mount namespace (read-only over it): -k's KILL reaches the leaf all the same" {
	need_root_leaf
	need_mountns
	# root keeps its uid: --cgroup=track gives it a leaf, under uid_0.
	local d
	for d in "$(leaf_parent 0)" "$(cpu_group 0)"; do
		[[ -d $d ]] || UID0_MADE+=("$d")
	done
	: >"$OPEN/empty"
	rm -f "$OPEN/esc" "$R"
	# The command covers its own leaf's cgroup.kill, in the namespace
	# leash shares with it and that dies with them.
	BOUND=20 run --separate-stderr bounded unshare -m --propagation private -- \
		"$LEASH" -v --report="$R" --cgroup=track -t 0.5 -k 0.5 -- sh -c '
		kill=$4$(sed -n "s/^0:://p" /proc/self/cgroup)/cgroup.kill
		mount --bind "$3" "$kill" && mount -o remount,bind,ro "$kill" || exit 99
		'"$STUBBORN" sh "$MARK" "$OPEN/esc" "$OPEN/empty" "$CG2"
	printf '%s\n' "$stderr" >&2
	assert_status 137
	escapee_dies
	[[ $stderr == *"leash: fallback: no-cgroup-kill: each process of the leaf is killed, the leaf frozen meanwhile: Read-only file system"* ]]
	reported no-cgroup-kill
	[ "$(jq -r '.kills_failed | length' "$R")" = 0 ]
	assert_no_leftovers
}

# --- SIGSYS: an Android app's filter traps what it refuses --------------------------

# A sanitizer's leak check at exit stops the world from a tracer thread
# that sets PR_SET_PDEATHSIG itself, every signal blocked: under the
# pdeathsig filter a SANITIZE=1 build would hang there.  Not leash's.
NO_LEAK_CHECK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

@test "SIGSYS: a trapped call leash cannot do without is one line and 125, not a death by SIGSYS" {
	local t name
	for t in "$LEASH" "$TIMEOUT"; do
		name=${t##*/}
		# The supervisor: no pipe for the spawn (musl tries pipe2, then
		# pipe).  One line: no newline in it.
		BOUND=20 run --separate-stderr bounded "$NOSYS" -e TRAP pipe -- "$t" 5 true
		echo "$name, pipe: status $status, $stderr" >&2
		assert_status 125
		[[ $stderr == "$name: "*": system call pipe"*" refused (seccomp)" && $stderr != *$'\n'* ]]
		# The child before exec: no death signal to tie the command to leash.
		BOUND=20 run --separate-stderr bounded env "$NO_LEAK_CHECK" "$NOSYS" -e TRAP pdeathsig -- "$t" 5 true
		echo "$name, pdeathsig: status $status, $stderr" >&2
		assert_status 125
		[ "$stderr" = "$name: cannot tie the command to leash's life: system call prctl refused (seccomp)" ]
	done
	# The report says it too.
	rm -f "$R"
	run --separate-stderr env "$NO_LEAK_CHECK" "$NOSYS" -e TRAP pdeathsig -- "$LEASH" --report="$R" -t 5 -- true
	assert_status 125
	[ "$(jq -r .error "$R")" = "cannot tie the command to leash's life: system call prctl refused (seccomp)" ]
	assert_no_leftovers
}

@test "SIGSYS: traps from process start on (libcap's constructor, all of prctl, fcntl) are never a death by SIGSYS" {
	# libcap's constructor (priority 300) asks PR_CAPBSET_READ before
	# main: leash's handler is in place first (priority 101).  A dynamic
	# (SANITIZE=1) build runs the shared libcap's constructor before any
	# of its own: there it cannot be caught.
	skip_unless_static
	local -a cmd
	for cmd in "$LEASH -t 5 --" "$TIMEOUT 5"; do
		cmd=($cmd)
		BOUND=20 run --separate-stderr bounded "$NOSYS" -e TRAP capbset -- "${cmd[@]}" true
		assert_status 0
		BOUND=20 run --separate-stderr bounded "$NOSYS" -e TRAP fcntl -- "${cmd[@]}" true
		assert_status 0
		# All of prctl: the death signal has no fallback (one line).
		BOUND=20 run --separate-stderr bounded "$NOSYS" -e TRAP prctl -- "${cmd[@]}" true
		assert_status 125
		[ "$stderr" = "${cmd[0]##*/}: cannot tie the command to leash's life: system call prctl refused (seccomp)" ]
	done
}

@test "SIGSYS: a trap in the child as root leaves no leaf behind" {
	need_root_leaf
	ASAN_OPTIONS=${NO_LEAK_CHECK#*=} denied TRAP pdeathsig root -u "$UA" -t 5 -- true
	assert_status 125
	[[ $stderr == *"leash: cannot tie the command to leash's life: system call prctl refused (seccomp)"* ]]
	[[ -z $(leaves_of "$UA") ]]
}

@test "SIGSYS: sent from outside, it is still forwarded while traps are taken as ENOSYS" {
	local w st
	for w in thread pidfd poll; do
		rm -f "$TMP/ready" "$TMP/log"
		LEASH_WAIT=$w start_ready "$NOSYS" -e TRAP timerfd_create,signalfd4,pidfd_open -- \
			"$LEASH" -t 30 probe -c SYS -E -x 42 -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 30 -q
		kill -SYS "$READY_PID"
		st=0
		wait "$READY_PID" || st=$?
		echo "$w: status $st, log $(cat "$TMP/log" 2>&1)" >&2
		[ "$st" -eq 42 ]
		grep -qx SYS "$TMP/log"
	done
	assert_no_leftovers
}

@test "SIGSYS: the caller's SIGSYS, ignored or blocked, is the command's, though leash takes traps" {
	run "$PROBE" -i SYS -- "$NOSYS" -e TRAP timerfd_create -- "$LEASH" -t 5 probe -k ignored
	assert_status 0
	assert_output SYS
	run "$PROBE" -b SYS -- "$NOSYS" -e TRAP timerfd_create -- "$LEASH" -t 5 probe -k blocked
	assert_status 0
	assert_output SYS
	# Under the name timeout too, and -s SYS makes it the command's default.
	run "$PROBE" -i SYS -- "$NOSYS" -e TRAP timerfd_create -- "$TIMEOUT" 5 probe -k ignored
	assert_output SYS
	run "$PROBE" -i SYS -- "$NOSYS" -e TRAP timerfd_create -- "$TIMEOUT" -s SYS 5 probe -k ignored
	assert_output none
}

@test "SIGSYS: catching it changes nothing else of the caller's mask: 33 and 34 (musl's own) stay blocked for the command" {
	command -v perl >/dev/null || must_run_or_skip "no perl"
	# The kernel's rt_sigprocmask: libc's refuse 32-34.
	local nr
	case $(uname -m) in
	x86_64) nr=14 ;; aarch64) nr=135 ;; *) skip "rt_sigprocmask's number here" ;;
	esac
	run perl -e 'my $nr = shift; my $set = pack("Q", (1 << 32) | (1 << 33) | (1 << 39));
		syscall($nr + 0, 0, $set, 0, 8) == 0 or die "mask: $!";
		exec @ARGV or die' "$nr" "$LEASH" -t 5 probe -k blocked
	assert_status 0
	# glibc (SANITIZE=1): the child's sigprocmask, which restores the
	# caller's mask before exec, keeps glibc's own 33 out, catch or not.
	if [[ ${SANITIZE:-0} == 1 ]]; then
		assert_output 34,40
	else
		assert_output 33,34,40
	fi
}

# --- the report and -v on a host that needs none ---------------------------------

@test "no fallback taken: the report's list is empty and -v says none" {
	run --separate-stderr "$LEASH" -v --report="$R" -t 5 -- true
	assert_status 0
	[ "$(jq -c .fallbacks "$R")" = '[]' ]
	[[ $stderr != *"fallback"* ]]
}
