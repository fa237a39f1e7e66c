# SPDX-License-Identifier: ISC
# helpers.bash: shared set-up for leash's bats files (load with `load helpers`).
#
# Binaries under test, from the environment or the build directory:
#   LEASH    native personality (build/leash)
#   TIMEOUT  timeout personality (build/timeout); TIMEOUT=/usr/bin/timeout
#            runs timeout.bats in host mode against GNU timeout
#   PROBE    tests/probe.c built (build/probe); compiled on the fly if absent
# setup_suite.bash has copied leash, its links and the probe where every
# user may run them, and points these variables at the copies.
# LEASH_MUST_RUN=1 turns a skip for missing privileges into a failure.

_helpers_abs() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*/*) printf '%s\n' "$PWD/$1" ;;
	*) command -v -- "$1" ;;
	esac
}

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
LEASH=$(_helpers_abs "${LEASH:-$TOP/build/leash}")
TIMEOUT=$(_helpers_abs "${TIMEOUT:-$TOP/build/timeout}")
PROBE=$(_helpers_abs "${PROBE:-$TOP/build/probe}")
export LEASH TIMEOUT PROBE

# Messages are compared byte for byte: ASCII quotes, English text.
export LC_ALL=C
unset LANGUAGE LANG

# No build/probe (host mode on a fresh tree): build one for this run.
if [[ ! -x $PROBE ]]; then
	if [[ ! -x $BATS_RUN_TMPDIR/probe ]]; then
		${CC:-cc} -O2 -o "$BATS_RUN_TMPDIR/probe" "$BATS_TEST_DIRNAME/probe.c" ||
			echo "helpers: cannot build $BATS_TEST_DIRNAME/probe.c" >&2
	fi
	PROBE=$BATS_RUN_TMPDIR/probe
fi

# A directory of names as a user types them: `timeout` and `probe`, so
# argv[0] (and with it GNU's message prefix) is exactly "timeout".
BIN=$BATS_RUN_TMPDIR/bin
if [[ ! -d $BIN ]]; then
	mkdir -p "$BIN"
	ln -sfn "$TIMEOUT" "$BIN/timeout"
	ln -sfn "$PROBE" "$BIN/probe"
	ln -sfn "$LEASH" "$BIN/leash"
fi
PATH=$BIN:$PATH

# Host mode: TIMEOUT is not leash (GNU timeout, or something else).
host_mode() {
	[[ $(_timeout_version) != leash ]]
}

# Prints "leash", or the GNU version ("9.1"), or "unknown".
_timeout_version() {
	if [[ -z ${_TIMEOUT_VERSION:-} ]]; then
		local line
		line=$("$TIMEOUT" --version 2>/dev/null | head -n 1)
		case $line in
		*'(leash)'*) _TIMEOUT_VERSION=leash ;;
		*'GNU coreutils'*) _TIMEOUT_VERSION=${line##* } ;;
		*) _TIMEOUT_VERSION=unknown ;;
		esac
	fi
	printf '%s\n' "$_TIMEOUT_VERSION"
}

# version_lt A B: is dotted version A older than B?
version_lt() {
	local IFS=. i
	local -a a=($1) b=($2)
	for ((i = 0; i < 4; i++)); do
		local x=${a[i]:-0} y=${b[i]:-0}
		x=${x%%[!0-9]*} y=${y%%[!0-9]*}
		((10#${x:-0} < 10#${y:-0})) && return 0
		((10#${x:-0} > 10#${y:-0})) && return 1
	done
	return 1
}

# need_gnu VERSION: skip when the timeout under test is a GNU older than
# VERSION (leash implements the newest behaviour and never skips).
need_gnu() {
	local v
	v=$(_timeout_version)
	[[ $v == leash ]] && return 0
	if [[ $v == unknown ]] || version_lt "$v" "$1"; then
		skip "needs GNU timeout $1 behaviour (testing $v)"
	fi
}

# need_root [REASON]: skip unless root; LEASH_MUST_RUN=1 makes it fail.
need_root() {
	[[ $(id -u) == 0 ]] && return 0
	must_run_or_skip "needs root${1:+: $1}"
}

# need_mountns: unshare(1) and a private mount namespace in which this
# user may mount, as the tests then do (a tmpfs or a bind over /etc,
# /proc, /dev/ptmx...); a container or an unprivileged caller may refuse
# either.  LEASH_MUST_RUN=1 makes it fail.
need_mountns() {
	command -v unshare >/dev/null || { must_run_or_skip "no unshare(1)"; return; }
	unshare -m --propagation private -- \
		mount -t tmpfs leash-probe "$BATS_TEST_TMPDIR" 2>/dev/null && return
	skip_if_chroot_root
	must_run_or_skip "cannot mount in a private mount namespace (unshare -m)"
}

# skip_if_chroot_root: skip (also under LEASH_MUST_RUN) where a mount
# namespace can be had but not made private: a plain chroot, whose root
# is no mount of its own (EINVAL), so nothing mounted there could be
# kept from the host's.  That is the host's shape, not a privilege.
skip_if_chroot_root() {
	! unshare -m --propagation private -- true 2>/dev/null &&
		unshare -m --propagation unchanged -- true 2>/dev/null &&
		skip "the root directory is not a mount point (a chroot): no private mount namespace"
	return 0
}

# over_etc DIR: the shell (for unshare -m ... sh -c) that shows DIR's
# files (a crafted passwd, group) in place of /etc's, in a private mount
# namespace: an overlay on /etc, DIR's files over the rest of /etc.  Not
# a bind mount on /etc/passwd: useradd, groupadd and userdel (another
# test file's setup_file beside this one, another suite) replace the
# file by a rename, and since Linux 3.18 a rename over a file detaches
# every mount on it, in every namespace: the test then read the host's
# files ("none" from both views in passwd.bats, issue 35).  A kernel
# without overlayfs gets the bind mounts all the same.
over_etc() {
	local f binds=
	for f in "$1"/*; do
		binds+=" && mount --bind '$f' '/etc/${f##*/}'"
	done
	printf '%s' "{ mount -t overlay leash-etc -o 'lowerdir=$1:/etc' /etc 2>/dev/null || { :$binds; }; }"
}

must_run_or_skip() {
	if [[ ${LEASH_MUST_RUN:-0} == 1 ]]; then
		echo "LEASH_MUST_RUN=1 but: $1" >&2
		return 1
	fi
	skip "$1"
}

# --- processes -------------------------------------------------------------

# Per-test marker: put it on the command line of every long-lived process
# a test starts (probe -m MARK, or an extra sh -c argument), so leftovers
# are found and cleaned up by the marker, and only ours.
common_setup() {
	MARK="leashmark-${BATS_ROOT_PID:-$$}-${BATS_SUITE_TEST_NUMBER:-0}-$RANDOM"
	TMP=$BATS_TEST_TMPDIR
	TRACKED=()
	skip_if_listed
}

# LEASH_SKIP_LIST: a file of "FILE.bats: exact test name<TAB>reason"
# lines (make check-cross: what qemu-user itself breaks); a test listed
# there by its exact name is skipped with that reason.
skip_if_listed() {
	[[ -n ${LEASH_SKIP_LIST:-} ]] || return 0
	local entry why
	while IFS=$'\t' read -r entry why; do
		[[ $entry == "${BATS_TEST_FILENAME##*/}: $BATS_TEST_DESCRIPTION" ]] &&
			skip "$why"
	done <"$LEASH_SKIP_LIST"
	return 0
}

common_teardown() {
	local pid
	for pid in $(marked_pids); do
		kill -KILL "$pid" 2>/dev/null || true
	done
	for pid in "${TRACKED[@]}"; do
		kill_tracked "$pid"
	done
}

# Remember PID (with its start time) so teardown may kill it, and only it.
track() {
	TRACKED+=("$1:$(_start_time "$1")")
}

# start_ready CMD...: CMD in the background with signals at their defaults
# (as DFL gives), tracked; returns once the probe under it has written
# $TMP/ready.  READY_PID is CMD's pid.
start_ready() {
	"${DFL[@]}" "$@" &
	READY_PID=$!
	track "$READY_PID"
	wait_file "$TMP/ready"
}

# assert_hup_ignored SUPERVISOR...: run SUPERVISOR (given -v -k 0.1 and a
# probe -o "$TMP/ready" ... -s 0.5 -x 5 -q) with HUP ignored, send it HUP
# once the probe is ready, and check that it did not act on the signal:
# acting would show as a -v line and as the -k timer's KILL (leash -v's
# identity and summary lines aside).
assert_hup_ignored() {
	"$PROBE" -i HUP -- "$@" 2>"$TMP/err" &
	local tpid=$! st=0
	track "$tpid"
	wait_file "$TMP/ready"
	kill -HUP "$tpid"
	wait "$tpid" || st=$?
	cat "$TMP/err" >&2
	[ "$st" -eq 5 ]
	# leash -v's first and last lines (the identity, the summary) only,
	# and the fallbacks it says it took (no subreaper under qemu-user,
	# no timerfd under LEASH_NOSYS).
	! grep -v -e '^leash: running as ' -e '^leash: exited with status 5 after ' \
		-e '^leash: fallback: ' "$TMP/err"
}

kill_tracked() {
	local pid=${1%%:*} start=${1#*:}
	[[ -n $start && $(_start_time "$pid") == "$start" ]] || return 0
	kill -KILL "$pid" 2>/dev/null || true
}

_start_time() {
	local stat
	read -r stat <"/proc/$1/stat" 2>/dev/null || return 0
	stat=${stat##*) }
	local -a f=($stat)
	printf '%s\n' "${f[19]}"
}

# Process state letter (R S D T Z ...), empty when gone.
proc_state() {
	local stat
	read -r stat <"/proc/$1/stat" 2>/dev/null || return 0
	stat=${stat##*) }
	printf '%s\n' "${stat%% *}"
}

pid_alive() {
	local s
	s=$(proc_state "$1")
	[[ -n $s && $s != Z && $s != X ]]
}

# wait_gone PID [SECS]: true once PID is dead (or a zombie), false after SECS.
wait_gone() {
	local i n=$((${2:-5} * 20))
	for ((i = 0; i < n; i++)); do
		pid_alive "$1" || return 0
		sleep 0.05
	done
	return 1
}

# wait_file FILE [SECS]
wait_file() {
	local i n=$((${2:-10} * 20))
	for ((i = 0; i < n; i++)); do
		[[ -e $1 ]] && return 0
		sleep 0.05
	done
	echo "wait_file: $1 did not appear in ${2:-10}s" >&2
	return 1
}

# Pids of live processes whose command line contains MARK (default: this
# test's marker), excluding the shell that asks.
marked_pids() {
	local m=${1:-$MARK} f pid
	[[ -n $m ]] || return 0
	for f in $(grep -l -a -F -e "$m" /proc/[0-9]*/cmdline 2>/dev/null); do
		pid=${f#/proc/}
		pid=${pid%/cmdline}
		[[ $pid == "$BASHPID" || $pid == "$$" ]] && continue
		pid_alive "$pid" && echo "$pid"
	done
	return 0
}

# assert_no_leftovers [MARK]: within a grace period every marked process
# is gone; otherwise fail listing them.
assert_no_leftovers() {
	local i left
	for ((i = 0; i < 60; i++)); do
		left=$(marked_pids "${1:-}")
		[[ -z $left ]] && return 0
		sleep 0.05
	done
	echo "processes left behind:" >&2
	for i in $left; do
		echo "  $i $(tr '\0' ' ' <"/proc/$i/cmdline" 2>/dev/null)" >&2
	done
	return 1
}

# assert_no_zombie_children PID: PID has no unreaped child.
assert_no_zombie_children() {
	local f stat z=
	for f in /proc/[0-9]*/stat; do
		read -r stat <"$f" 2>/dev/null || continue
		stat=${stat##*) }
		local -a x=($stat)
		[[ ${x[0]} == Z && ${x[1]} == "$1" ]] && z+=" ${f//[!0-9]/}"
	done
	[[ -z $z ]] && return 0
	echo "zombie children of $1:$z" >&2
	return 1
}

# Signals a caller may have left ignored (nohup, a background job, a CI
# runner) that tests expect at their default; bash cannot reset them.
DFL_SIGS=HUP,INT,QUIT,PIPE,TERM,USR1,USR2,ALRM,XCPU,TTIN,TTOU
# "${DFL[@]}" CMD...: exec CMD with those signals at their default (the
# same pid, so CMD & gives CMD's pid in $!).
DFL=("$PROBE" -d "$DFL_SIGS" --)

# skip_unless_static: for a test of the static build itself (its symbols,
# its layout, its Rss); a SANITIZE=1 build is dynamic.
skip_unless_static() {
	[ "${SANITIZE:-0}" != 1 ] || skip "not a static build (SANITIZE=1)"
	grep -q '^LINK = static' "${LEASH_BUILDDIR:-$TOP/build}/config.mk" \
		"$TOP/config.mk" 2>/dev/null || skip "not a static build"
}

# need_strace: skip unless strace is here and can follow a process
# and its children (not under qemu-user, nor where ptrace is refused).
need_strace() {
	command -v strace >/dev/null || skip "needs strace"
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
}

# "${TRACED[@]}" ARG...: strace ARG..., with LeakSanitizer off (it cannot
# work under ptrace: SANITIZE=1 builds would end in its fatal error); a
# command, not a function, so that bounded and run both take it.
TRACED=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace)

# bounded CMD...: run CMD under probe's watchdog (kills it after BOUND
# seconds, default 20, exit 255), with DFL_SIGS at their default. The
# status is the shell's view (N or 128+N), so a hang cannot pass for a
# 124 or 137.
bounded() {
	"$PROBE" -W -q -T "${BOUND:-20}" -d "$DFL_SIGS" -- "$@"
}

# deadline_after_stop SECS CMD...: CMD (running a probe -o "$TMP/ready")
# in the background, SIGSTOPped once ready and SIGCONTinued SECS later.
# Sets ST (its status) and AFTER_CONT_US (how long it took to end after
# the SIGCONT): a deadline that passed meanwhile acts at once.
deadline_after_stop() {
	local secs=$1 pid t1
	shift
	"${DFL[@]}" "$@" &
	pid=$!
	track "$pid"
	wait_file "$TMP/ready"
	# A supervisor may arm its deadline after the fork (GNU does): let it.
	sleep 0.3
	kill -STOP "$pid"
	sleep "$secs"
	t1=$(now_us)
	kill -CONT "$pid"
	ST=0
	wait "$pid" || ST=$?
	AFTER_CONT_US=$(($(now_us) - t1))
	echo "status $ST, $((AFTER_CONT_US / 1000)) ms after SIGCONT" >&2
}

# free_id N: the first id from N up that is neither a uid nor a gid.
free_id() {
	local i=$1
	while getent passwd "$i" >/dev/null || getent group "$i" >/dev/null; do
		i=$((i + 1))
	done
	printf '%s\n' "$i"
}

# Microseconds since the epoch (bash 5 EPOCHREALTIME).
now_us() {
	local t=$EPOCHREALTIME
	printf '%s\n' "${t/./}"
}

# assert_status N: bats' $status, with the output shown on failure.
assert_status() {
	if [[ $status != "$1" ]]; then
		echo "expected status $1, got $status; output:" >&2
		printf '%s\n' "$output" >&2
		return 1
	fi
}

# assert_output TEXT: the whole output, exactly.
assert_output() {
	if [[ $output != "$1" ]]; then
		printf 'expected output:\n%s\n--- got:\n%s\n' "$1" "$output" >&2
		return 1
	fi
}

# assert_line_count N
assert_lines() {
	if [[ ${#lines[@]} != "$1" ]]; then
		printf 'expected %s lines, got %s:\n%s\n' "$1" "${#lines[@]}" "$output" >&2
		return 1
	fi
}

# Value of KEY in a probe report file.
report_get() {
	sed -n "s/^$1=//p" "$2"
}

# nss_hint passwd|group: what leash adds to "no such user/group": nothing
# where it asks NSS (there is a getent), else that it read the file only.
nss_hint() {
	[[ -x /usr/bin/getent ]] || printf ' (leash reads /etc/%s only)' "$1"
}

# The per-test hooks most files want; a file that needs more defines its
# own setup/teardown after `load helpers`.
setup() {
	common_setup
}

teardown() {
	common_teardown
}

# assert_jq FILTER VALUE: jq -r FILTER on the report $R is VALUE; else
# the filter, both values and the report.
assert_jq() {
	local v
	v=$(jq -r "$1" "$R") || { echo "jq failed on: $(cat "$R")" >&2; return 1; }
	if [[ $v != "$2" ]]; then
		printf 'report %s: expected %s, got %s\n%s\n' "$1" "$2" "$v" "$(cat "$R")" >&2
		return 1
	fi
}
