#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The GNU timeout contract, run against $TIMEOUT (leash's timeout
# personality by default).  Host mode: TIMEOUT=/usr/bin/timeout runs the
# same file against GNU timeout; behaviour newer than that GNU skips by
# version (need_gnu).  Every command runs as `timeout` from $BIN, so the
# message prefix and the --help hint are exactly "timeout".

bats_require_minimum_version 1.5.0
load helpers

# The two lines of a GNU usage error.
usage_error() {
	printf '%s\n%s' "timeout: $1" "Try 'timeout --help' for more information."
}

# refused_durations D...: each is a usage error (125, GNU's two lines)
# and runs nothing.
refused_durations() {
	local d
	for d in "$@"; do
		run timeout -- "$d" touch "$TMP/ran"
		echo "duration [$d]" >&2
		assert_status 125
		assert_output "$(usage_error "invalid time interval '$d'")"
	done
	[ ! -e "$TMP/ran" ]
}

# --- exit status -------------------------------------------------------------

@test "status: the command's own exit status passes through" {
	run timeout 10 sh -c 'exit 7'
	assert_status 7
	run timeout 10 true
	assert_status 0
	run timeout 10 sh -c 'exit 123'
	assert_status 123
}

@test "status: 124 when the deadline fires, nothing printed" {
	run --separate-stderr bounded timeout 0.2 sleep 10
	assert_status 124
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "status: 124 even if the command traps TERM and exits 0" {
	run bounded timeout 0.2 probe -c TERM -E -x 0 -s 10 -q
	assert_status 124
}

@test "status: 124 even if the command survives the signal and exits 0 later" {
	run bounded timeout 0.1 probe -t -s 0.4 -q
	assert_status 124
}

@test "--preserve-status: the command's status after a time-out" {
	run bounded timeout --preserve-status 0.2 probe -c TERM -E -x 3 -s 10 -q
	assert_status 3
	run bounded timeout --preserve-status 0.1 sleep 10
	assert_status 143
	run bounded timeout --preserve-status -s HUP 0.1 sleep 10
	assert_status 129
}

@test "--preserve-status: a plain exit (128+N), not a re-raised signal" {
	run "$PROBE" -W -T 20 -- timeout --preserve-status 0.1 sleep 10
	[ "${lines[0]}" = status=exit:143 ]
	run "$PROBE" -W -T 20 -- timeout 0.1 sleep 10
	[ "${lines[0]}" = status=exit:124 ]
}

@test "-p is --preserve-status (GNU 9.6)" {
	need_gnu 9.6
	run bounded timeout -p 0.1 sleep 10
	assert_status 143
}

@test "status: 127 and GNU's message for a command that does not exist" {
	run -127 timeout 10 no-such-command-$MARK
	assert_status 127
	assert_output "timeout: failed to run command 'no-such-command-$MARK': No such file or directory"
}

@test "status: 127 for a script whose #! interpreter is missing" {
	printf '#!/nonexistent/interp\n' >"$TMP/noint"
	chmod +x "$TMP/noint"
	run -127 timeout 10 "$TMP/noint"
	assert_status 127
	assert_output "timeout: failed to run command '$TMP/noint': No such file or directory"
}

@test "status: 126 and Permission denied for a file that is not executable" {
	printf 'echo ran\n' >"$TMP/plain"
	chmod 644 "$TMP/plain"
	run timeout 10 "$TMP/plain"
	assert_status 126
	assert_output "timeout: failed to run command '$TMP/plain': Permission denied"
	run timeout 10 "$TMP"
	assert_status 126
	assert_output "timeout: failed to run command '$TMP': Permission denied"
}

@test "status: a command exiting 126 or 127 itself is not an exec failure" {
	run -127 --separate-stderr timeout 10 sh -c 'exit 127'
	assert_status 127
	[ -z "$stderr" ]
	run --separate-stderr timeout 10 sh -c 'exit 126'
	assert_status 126
	[ -z "$stderr" ]
}

@test "status: 137 with -s KILL" {
	run bounded timeout -s KILL 0.1 sleep 10
	assert_status 137
	run bounded timeout --preserve-status -s KILL 0.1 sleep 10
	assert_status 137
}

@test "-k: KILL after the grace period, 137, both signals under -v" {
	run --separate-stderr bounded timeout -v -k 0.2 0.1 probe -t -s 10 -q
	assert_status 137
	[ "$stderr" = "timeout: sending signal TERM to command 'probe'
timeout: sending signal KILL to command 'probe'" ]
}

@test "-k with --foreground: 137 too (GNU 9.1)" {
	run bounded timeout --foreground -k 0.2 0.1 probe -t -s 10 -q
	assert_status 137
}

@test "-k 0 sends no KILL; -k is ignored when DURATION is 0" {
	run bounded timeout -k 0 0.1 probe -t -s 0.5 -q
	assert_status 124
	run bounded timeout -k 0.05 0 probe -t -s 0.3 -q
	assert_status 0
}

@test "-k: the KILL timer starts with a signal forwarded from outside" {
	start_ready timeout -k 0.3 30 probe -t -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID
	local t0
	t0=$(now_us)
	kill -TERM "$tpid"
	local st=0
	wait "$tpid" || st=$?
	[ "$st" -eq 137 ]
	# Killed by the -k timer (0.3 s), not the 30 s deadline.
	(($(now_us) - t0 < 15000000))
}

# --- signals: -s -------------------------------------------------------------

@test "-s: names with or without SIG, any case, numbers, shell statuses" {
	local s
	for s in HUP SIGHUP hup sigHup 1 129; do
		run bounded timeout --preserve-status -s "$s" 0.05 sleep 10
		echo "-s $s" >&2
		assert_status 129
	done
	run bounded timeout --preserve-status -s 143 0.05 sleep 10
	assert_status 143
	run bounded timeout --preserve-status -s 137 0.05 sleep 10
	assert_status 137
	run bounded timeout --preserve-status --signal=usr1 0.05 sleep 10
	assert_status 138
}

@test "-s: the -v line names the signal as kill -l does" {
	local s
	for s in hup SIGINT 15 RTMIN RTMIN+1 RTMAX-1 SIGRTMIN+2 rtmin+3; do
		run --separate-stderr bounded timeout -v -s "$s" 0.05 sleep 10
		local want=${s#SIG}
		want=${want#sig}
		case $want in
		hup) want=HUP ;; 15) want=TERM ;; rtmin+3) want=RTMIN+3 ;;
		esac
		[ "$stderr" = "timeout: sending signal $want to command 'sleep'" ]
	done
}

@test "-s: RTMIN and numbers as glibc numbers them (RTMIN = 34)" {
	run --separate-stderr bounded timeout -v --preserve-status -s RTMIN 0.05 sleep 10
	assert_status 162
	run --separate-stderr bounded timeout -v -s 34 0.05 sleep 10
	[ "$stderr" = "timeout: sending signal RTMIN to command 'sleep'" ]
	run --separate-stderr bounded timeout -v -s 40 0.05 sleep 10
	[ "$stderr" = "timeout: sending signal RTMIN+6 to command 'sleep'" ]
}

# rt_number NAME: the number of a real-time signal as glibc numbers it.
rt_number() {
	case $1 in
	RTMIN) echo 34 ;; RTMAX) echo 64 ;;
	RTMIN+*) echo $((34 + ${1#RTMIN+})) ;; RTMAX-*) echo $((64 - ${1#RTMAX-})) ;;
	*) echo "$1" ;;
	esac
}

@test "-s: every real-time signal (32..64, RTMIN..RTMAX) ends the command, not timeout: 124, or the command's 128+N (issue 22)" {
	# musl keeps 32-34 for itself: its sigprocmask and sigaction refuse
	# them, and leash died of the signal it sent its own group (162).
	local s n
	for s in {32..64} RTMIN RTMAX RTMIN+1 RTMAX-1 RTMIN+15 RTMAX-14; do
		n=$(rt_number "$s")
		# glibc keeps 32 and 33: GNU 9.1 refuses them, 9.5 and later
		# die of them (sigaction refuses them there).
		if host_mode && ((n < 34)); then continue; fi
		echo "-s $s" >&2
		run "$PROBE" -W -T 20 -d "$DFL_SIGS" -- timeout -s "$s" 0.05 sleep 10
		[ "${lines[0]}" = status=exit:124 ]
		run "$PROBE" -W -T 20 -d "$DFL_SIGS" -- timeout --preserve-status -s "$s" 0.05 sleep 10
		[ "${lines[0]}" = "status=exit:$((128 + n))" ]
	done
}

@test "-s: a real-time signal sent to timeout reaches the command, 34 (glibc's RTMIN) too (GNU 9.10)" {
	need_gnu 9.10
	local n
	# Once the command runs: with musl, a 34 that comes while leash
	# starts its waiter thread is dropped (man page, BUGS).
	for n in 34 35 50 64; do
		echo "signal $n" >&2
		run "$PROBE" -W -T 20 -d "$DFL_SIGS" -- timeout 10 bash -c \
			"trap 'exit 3' $n; sleep 0.3; kill -$n \$PPID; sleep 10 & wait"
		[ "${lines[0]}" = status=exit:3 ]
	done
}

@test "-s 0 and EXIT: a time-out that sends no signal" {
	run bounded timeout -s 0 0.1 probe -s 0.4 -q
	assert_status 124
	run bounded timeout -s EXIT 0.1 probe -s 0.4 -q
	assert_status 124
}

@test "-v -s 0 names the signal 0 (GNU 9.10)" {
	need_gnu 9.10
	run --separate-stderr bounded timeout -v -s 0 0.05 probe -s 0.3 -q
	assert_status 124
	[ "$stderr" = "timeout: sending signal 0 to command 'probe'" ]
}

@test "-s: unnamed signal numbers such as 32 (GNU 9.5)" {
	need_gnu 9.5
	run --separate-stderr bounded timeout -v --preserve-status -s 32 0.05 sleep 10
	assert_status 160
	[ "$stderr" = "timeout: sending signal 32 to command 'sleep'" ]
}

# bats test_tags=no_waiter
@test "-s: an invalid signal is a usage error, 125, nothing run" {
	local s
	for s in FOO 200 -1 ' 1' 1x 0x1 '' SIGFOO RTMIN+99; do
		run timeout -s "$s" 10 touch "$TMP/ran"
		assert_status 125
		assert_output "$(usage_error "'$s': invalid signal")"
	done
	[ ! -e "$TMP/ran" ]
}

@test "-s: numbers of 255 and up are shell statuses with 8 bits (operand2sig)" {
	# ksh reports a signal death as 256 + N: 1295 is TERM, 256 is 0.
	run bounded timeout --preserve-status -s 1295 0.05 sleep 10
	assert_status 143
	run bounded timeout --preserve-status -s 271 0.05 sleep 10
	assert_status 143
	run bounded timeout -s 256 0.1 probe -s 0.4 -q
	assert_status 124
	local s
	for s in 255 321 385 400 448 2147483663 4294967311; do
		run timeout -s "$s" 10 touch "$TMP/ran"
		assert_status 125
		assert_output "$(usage_error "'$s': invalid signal")"
	done
	[ ! -e "$TMP/ran" ]
}

@test "-s: SIG before a number, and RTMIN/RTMAX with what strtol takes" {
	local s
	for s in SIG15 sig015 SigTerm; do
		run bounded timeout --preserve-status -s "$s" 0.05 sleep 10
		echo "-s $s" >&2
		assert_status 143
	done
	for s in RTMIN2 rtmin+2 'RTMIN 2'; do
		run bounded timeout --preserve-status -s "$s" 0.05 sleep 10
		echo "-s $s" >&2
		assert_status 164
	done
	for s in RTMIN-0 RTMIN0 RTMIN+0; do
		run bounded timeout --preserve-status -s "$s" 0.05 sleep 10
		echo "-s $s" >&2
		assert_status 162
	done
	for s in RTMAX+0 RTMAX0 RTMAX-0 sigrtmax; do
		run bounded timeout --preserve-status -s "$s" 0.05 sleep 10
		echo "-s $s" >&2
		assert_status 192
	done
	for s in RTMIN-1 RTMAX+1 RTMAX1 RTMIN+31 RTMAX-31 RTMIN+ SIG65 SIG+1 'SIG 1' SIGSIG1; do
		run timeout -s "$s" 10 touch "$TMP/ran"
		assert_status 125
		assert_output "$(usage_error "'$s': invalid signal")"
	done
	[ ! -e "$TMP/ran" ]
}

# --- durations ---------------------------------------------------------------

@test "duration: suffixes s m h d multiply" {
	run bounded timeout 0.1s sleep 10
	assert_status 124
	run bounded timeout 0.0002m sleep 10
	assert_status 124
	run bounded timeout 0.000005h sleep 10
	assert_status 124
	run bounded timeout 0.0000002d sleep 10
	assert_status 124
	# Read as seconds these would fire long before the command ends.
	run bounded timeout 0.05m probe -s 0.3 -q
	assert_status 0
	run bounded timeout 0.001h probe -s 0.3 -q
	assert_status 0
	run bounded timeout 0.00005d probe -s 0.3 -q
	assert_status 0
}

@test "duration: strtod forms: exponents, hex floats, blanks, plus sign" {
	local d
	for d in 1e-1 5e-2s 0x1p-3 0x.2 ' 0.1' '+0.1' ' +.1s' .1 0.1e0s; do
		run bounded timeout "$d" sleep 10
		echo "duration [$d]" >&2
		assert_status 124
	done
	run bounded timeout 0x1p+2 probe -s 0.2 -q
	assert_status 0
}

@test "duration: a number may end in its decimal point (1., 5.s, 2.m), as strtod reads it" {
	# Issue 22 item 1: a fast path took "1." for 1 and a suffix.
	run timeout 1. sh -c 'exit 4'
	assert_status 4
	run timeout 5.s sh -c 'exit 4'
	assert_status 4
	run timeout -k 1. 2.m sh -c 'exit 4'
	assert_status 4
	run -- timeout 0. probe -s 0.2 -x 3 -q
	assert_status 3
	refused_durations 1.. 0.1. 1.x 1.e .
}

@test "duration: inf and huge values mean no limit" {
	local d
	for d in inf INF Infinity 1e400 99999999999999999999d 1e300d; do
		run bounded timeout "$d" probe -s 0.2 -x 3 -q
		echo "duration [$d]" >&2
		assert_status 3
	done
}

@test "duration: 0 means no limit (0, 0s, 0.0, 0x0, -0)" {
	local d
	for d in 0 0s 0.0 0x0 0e5 -0; do
		run bounded timeout -- "$d" probe -s 0.3 -x 3 -q
		echo "duration [$d]" >&2
		assert_status 3
	done
}

@test "duration: 1e-400 rounds up to 1ns, not 0 (GNU 9.7)" {
	need_gnu 9.7
	run bounded timeout 1e-400 sleep 10
	assert_status 124
}

@test "duration: a hex float that underflows to 0 still arms 1ns (GNU 9.7)" {
	# musl's strtod gives 0 without ERANGE for most of these.
	need_gnu 9.7
	local d
	for d in 0x1.8p-1076 0x1p-1075 0x3p-1080 0x0.0001p-1070 0xfp-2000 1e-400 0.0001e-400; do
		run bounded timeout "$d" sleep 10
		echo "duration [$d]" >&2
		assert_status 124
	done
}

@test "duration: a negative value that underflows is refused (GNU 9.7), -0 is 0" {
	need_gnu 9.7
	local d
	refused_durations -1e-400 -0x1.8p-1076 -0x1p-1075
	for d in -0x0p0 -0e-400 -0.0; do
		run bounded timeout -- "$d" probe -s 0.3 -x 3 -q
		assert_status 3
	done
}

# make_locale DIR NAME SOURCE: compile glibc locale SOURCE (UTF-8) into
# DIR/NAME, a LOCPATH directory; skip when the sources are not there.
# localedef takes seconds of cpu, so each locale is compiled once into
# LEASH_TEST_CACHE (check.sh gives every run of the suite the same one;
# else this run's directory) and copied from there.
make_locale() {
	command -v localedef >/dev/null || skip "no localedef"
	[[ -e /usr/share/i18n/locales/$3 ]] || skip "no $3 locale source (package locales)"
	local cache=${LEASH_TEST_CACHE:-$BATS_RUN_TMPDIR}/locale tmp
	mkdir -p "$1" "$cache"
	# One compiles, the runs beside it wait for it (they start together).
	{
		command -v flock >/dev/null && flock 9
		if [[ ! -e $cache/$2/LC_NUMERIC ]]; then
			tmp=$(mktemp -d "$cache/.new.XXXXXX")
			localedef -i "$3" -f UTF-8 "$tmp/$2" >/dev/null 2>&1 ||
				[[ -e $tmp/$2/LC_NUMERIC ]] || skip "localedef $3 failed"
			# Without flock another run may have made it: the first wins.
			mv -T "$tmp/$2" "$cache/$2" 2>/dev/null || true
			rm -rf "$tmp"
		fi
	} 9>"$cache/.lock.$2"
	cp -R "$cache/$2" "$1/$2"
}

@test "duration: the locale's decimal comma, found through LOCPATH (de_DE)" {
	make_locale "$TMP/loc" de_DE.UTF-8 de_DE
	local d
	for d in 0,1 0,1s 1,5e-1 0x0,2 ,1 0.1; do
		LOCPATH=$TMP/loc LC_ALL=de_DE.UTF-8 run bounded timeout "$d" sleep 10
		echo "duration [$d]" >&2
		assert_status 124
	done
	# LC_NUMERIC alone, or LANG; the codeset as glibc normalizes it.
	LOCPATH=$TMP/loc LC_ALL= LC_NUMERIC=de_DE.UTF-8 run bounded timeout 0,1 sleep 10
	assert_status 124
	LOCPATH=$TMP/loc LC_ALL= LANG=de_DE.UTF-8 run bounded timeout 0,1 sleep 10
	assert_status 124
	# In the C locale, or a locale glibc would not load, a comma is junk.
	local env
	for env in "LC_ALL=C LC_NUMERIC=de_DE.UTF-8" "LC_ALL=de_DE.utf8" \
		"LC_ALL=de_DE.ISO-8859-1" "LC_ALL=xx_XX.UTF-8" "LC_ALL= LANG=de_DE.UTF-8 LC_NUMERIC=C"; do
		run env $env LOCPATH="$TMP/loc" timeout 0,1 touch "$TMP/ran"
		echo "env [$env]" >&2
		assert_status 125
	done
	[ ! -e "$TMP/ran" ]
	LOCPATH=$TMP/loc LC_ALL=de_DE.UTF-8 run timeout 0,1,5 touch "$TMP/ran"
	assert_status 125
}

@test "duration: the decimal point from glibc's locale archive (de_DE, ps_AF)" {
	need_root "a private mount namespace over /usr/lib/locale"
	need_mountns
	make_locale "$TMP/src" de_DE.UTF-8 de_DE
	make_locale "$TMP/src" ps_AF.UTF-8 ps_AF
	mkdir -p "$TMP/root/usr/lib/locale"
	localedef --prefix="$TMP/root" --add-to-archive "$TMP/src/de_DE.UTF-8" "$TMP/src/ps_AF.UTF-8" >/dev/null ||
		skip "localedef --add-to-archive failed"
	# ps_AF's decimal point is U+066B, two bytes.
	run unshare -m sh -c '
		mount --bind "$1/root/usr/lib/locale" /usr/lib/locale || exit 99
		unset LOCPATH
		for t in de_DE.UTF-8:0,1 de_DE.utf8:0,1 de_DE.UTF-8:0.1 ps_AF.UTF-8:0٫1; do
			LC_ALL=${t%%:*} timeout "${t#*:}" sleep 10
			echo "$t $?"
		done
		for t in de_DE:0,1 ps_AF.UTF-8:0,1 de_DE.UTF-8:0٫1; do
			LC_ALL=${t%%:*} timeout "${t#*:}" true 2>/dev/null
			echo "$t $?"
		done' sh "$TMP"
	[[ $status != 99 ]] || skip "cannot bind-mount over /usr/lib/locale"
	assert_output "de_DE.UTF-8:0,1 124
de_DE.utf8:0,1 124
de_DE.UTF-8:0.1 124
ps_AF.UTF-8:0٫1 124
de_DE:0,1 125
ps_AF.UTF-8:0,1 125
de_DE.UTF-8:0٫1 125"
}

# bats test_tags=no_waiter
@test "duration: invalid forms are a usage error, 125, nothing run" {
	refused_durations '' ' ' s 1ss 1S 1ms 1sec nan NaN x 1e 0x '0.1 ' '1 s' 1,5 -1 -0.5 1ee 1d2 ++1 - 1m1
}

@test "duration: -k takes the same syntax and errors" {
	run timeout -k 1x 10 touch "$TMP/ran"
	assert_status 125
	assert_output "$(usage_error "invalid time interval '1x'")"
	run timeout --kill-after=-1 10 touch "$TMP/ran"
	assert_status 125
	assert_output "$(usage_error "invalid time interval '-1'")"
	[ ! -e "$TMP/ran" ]
	run bounded timeout -k 0x1p-3 0.1 probe -t -s 10 -q
	assert_status 137
}

# --- option parsing ----------------------------------------------------------

@test "options: scanning stops at the first operand" {
	run -127 timeout 5 -v x
	assert_status 127
	assert_output "timeout: failed to run command '-v': No such file or directory"
	# -k belongs to the command here, not to timeout.
	run timeout 10 probe -k argv0
	assert_status 0
	assert_output probe
}

@test "options: -- ends the options" {
	run timeout -- 10 sh -c 'exit 3'
	assert_status 3
	run --separate-stderr bounded timeout -v -- 0.1 sleep 10
	assert_status 124
	[ "$stderr" = "timeout: sending signal TERM to command 'sleep'" ]
}

@test "options: unambiguous long prefixes" {
	run bounded timeout --pres 0.1 sleep 10
	assert_status 143
	run bounded timeout --sig=HUP --pres 0.1 sleep 10
	assert_status 129
	run bounded timeout --signal HUP --preserve 0.1 sleep 10
	assert_status 129
	run --separate-stderr bounded timeout --verb --kill-a=0.1 --fore 0.1 probe -t -s 10 -q
	assert_status 137
	[ "${#stderr_lines[@]}" -eq 2 ]
}

@test "options: combined short options and attached arguments" {
	run --separate-stderr bounded timeout -vk0.1 -sHUP 0.1 probe -c HUP -s 10 -q
	assert_status 137
	[ "$stderr" = "timeout: sending signal HUP to command 'probe'
timeout: sending signal KILL to command 'probe'" ]
}

# bats test_tags=no_waiter
@test "options: the ambiguous-option line is whole, however long the argument" {
	local long
	long=$(printf 'x%.0s' $(seq 2000))
	run timeout "--v=$long" 10 true
	assert_status 125
	assert_output "$(usage_error "option '--v=$long' is ambiguous; possibilities: '--verbose' '--version'")"
}

@test "options: glibc's messages for bad options, 125" {
	run timeout --v 10 true
	assert_status 125
	assert_output "$(usage_error "option '--v' is ambiguous; possibilities: '--verbose' '--version'")"
	run timeout -z 10 true
	assert_status 125
	assert_output "$(usage_error "invalid option -- 'z'")"
	run timeout --foo 10 true
	assert_status 125
	assert_output "$(usage_error "unrecognized option '--foo'")"
	run timeout --foreground=1 10 true
	assert_status 125
	assert_output "$(usage_error "option '--foreground' doesn't allow an argument")"
	run timeout -s
	assert_status 125
	assert_output "$(usage_error "option requires an argument -- 's'")"
	run timeout 10 true --signal
	assert_status 0
	run timeout --signal
	assert_status 125
	assert_output "$(usage_error "option '--signal' requires an argument")"
	run timeout --kill-after
	assert_status 125
	assert_output "$(usage_error "option '--kill-after' requires an argument")"
}

# bats test_tags=no_waiter
@test "options: missing operands print only the hint, 125" {
	run timeout
	assert_status 125
	assert_output "Try 'timeout --help' for more information."
	run timeout 10
	assert_status 125
	assert_output "Try 'timeout --help' for more information."
	run timeout -v -s HUP
	assert_status 125
	assert_output "Try 'timeout --help' for more information."
}

@test "options: -f is --foreground (GNU 9.6)" {
	need_gnu 9.6
	run timeout -f 10 sh -c 'exit 3'
	assert_status 3
	local mine
	mine=$(probe -k pgid)
	run timeout -f 10 probe -k pgid
	assert_output "$mine"
}

# bats test_tags=no_waiter
@test "--help and --version: stdout, status 0, nothing else run" {
	run --separate-stderr timeout --help
	assert_status 0
	[[ ${lines[0]} == "Usage: timeout [OPTION]"*" DURATION COMMAND [ARG]..." ]]
	[ -z "$stderr" ]
	[[ $output == *--preserve-status* && $output == *--kill-after=DURATION* ]]
	run --separate-stderr timeout --version
	assert_status 0
	[[ ${lines[0]} == "timeout ("* ]]
	[ -z "$stderr" ]
	run timeout --help 10 touch "$TMP/ran"
	assert_status 0
	run timeout -v --vers 10 touch "$TMP/ran"
	assert_status 0
	[ ! -e "$TMP/ran" ]
}

# bats test_tags=no_waiter
@test "--help and --version: a write error is status 125" {
	[ -w /dev/full ] || skip "no /dev/full"
	run bash -c 'timeout --help >/dev/full'
	assert_status 125
	run bash -c 'timeout --version >/dev/full'
	assert_status 125
}

@test "messages: timeout's own prefix is the base name of argv[0] (GNU 9.6)" {
	need_gnu 9.6
	run "$BIN/timeout" 1x true
	assert_status 125
	assert_output "timeout: invalid time interval '1x'
Try '$BIN/timeout --help' for more information."
	run -127 "$BIN/timeout" 1 "no-such-command-$MARK"
	assert_output "timeout: failed to run command 'no-such-command-$MARK': No such file or directory"
}

@test "messages: control characters in operands are escaped as GNU's quote()" {
	run -127 timeout 1 $'a\nb'
	assert_output "timeout: failed to run command 'a\\nb': No such file or directory"
	run -127 timeout 1 $'\e[31mred\e[0m\t\x01\x7f\\\'"?'
	assert_output "timeout: failed to run command '\\033[31mred\\033[0m\\t\\001\\177\\\\\\'\"?': No such file or directory"
	run timeout $'1\n' true
	assert_status 125
	assert_output "$(usage_error "invalid time interval '1\\n'")"
	run timeout -s $'TERM\r' 1 true
	assert_status 125
	assert_output "$(usage_error "'TERM\\r': invalid signal")"
	# In the C locale every byte above 0x7e is one escape.
	run -127 timeout 1 $'caf\xc3\xa9\xff'
	assert_output "timeout: failed to run command 'caf\\303\\251\\377': No such file or directory"
}

@test "messages: in a UTF-8 locale, valid printable characters pass, the rest is escaped" {
	locale -a 2>/dev/null | grep -qix 'c.utf-\?8' || skip "no C.UTF-8 locale"
	# U+2028 is no printable character; U+2019 is the closing quote.
	LC_ALL=C.UTF-8 run -127 timeout 1 $'caf\xc3\xa9\xff\n\xe2\x80\xa8x\xe2\x80\x99\xe2\x80'
	assert_output "timeout: failed to run command ‘café\\377\\n\\342\\200\\250x\\’\\342\\200’: No such file or directory"
}

# bats test_tags=no_waiter
@test "messages: getopt's prefix and the hint repeat argv[0] as given" {
	run "$BIN/timeout" -z 1 true
	assert_status 125
	assert_output "$BIN/timeout: invalid option -- 'z'
Try '$BIN/timeout --help' for more information."
}

# --- -v ------------------------------------------------------------------------

@test "-v: the exact message, one line, the command as typed" {
	run --separate-stderr bounded timeout -v 0.1 sleep 10
	assert_status 124
	[ "$stderr" = "timeout: sending signal TERM to command 'sleep'" ]
	run --separate-stderr bounded timeout --verbose 0.1 /bin/sleep 10
	[ "$stderr" = "timeout: sending signal TERM to command '/bin/sleep'" ]
	run --separate-stderr bounded timeout 0.1 sleep 10
	[ -z "$stderr" ]
}

@test "-v: UTF-8 locales get GNU's curved quotes" {
	locale -a 2>/dev/null | grep -qix 'c.utf-\?8' || skip "no C.UTF-8 locale"
	LC_ALL=C.UTF-8 run --separate-stderr bounded timeout -v 0.1 sleep 10
	assert_status 124
	[ "$stderr" = "timeout: sending signal TERM to command ‘sleep’" ]
}

@test "-v: a forwarded signal is reported too" {
	# Before 9.5 GNU could miss a signal that came before it stored the
	# child's pid (fixed in 9.5, "narrow race in failing to kill").
	need_gnu 9.5
	start_ready timeout -v 30 probe -c TERM -E -x 0 -o "$TMP/ready" -s 30 -q 2>"$TMP/err"
	local tpid=$READY_PID
	kill -TERM "$tpid"
	wait "$tpid" || true
	grep -qx "timeout: sending signal TERM to command 'probe'" "$TMP/err"
}

@test "-v: stderr closed still gives 124 (GNU 9.10)" {
	need_gnu 9.10
	# Closed inside the command: run's own 2>&1 would undo a 2>&- here.
	run bounded sh -c 'exec timeout -v 0.1 sleep 10 2>&-'
	assert_status 124
}

@test "-v: stderr a broken pipe still gives 124, no SIGPIPE death (GNU 9.10)" {
	need_gnu 9.10
	run "$PROBE" -W -T 20 -P -- timeout -v 0.1 sleep 10
	[ "${lines[0]}" = status=exit:124 ]
}

@test "KILL: timeout dies of the KILL it sends to its group; --foreground exits 137" {
	# A caller that looks at the wait status (not just $?) sees this.
	run "$PROBE" -W -T 20 -- timeout -s KILL 0.1 sleep 10
	[ "${lines[0]}" = status=signal:9 ]
	run "$PROBE" -W -T 20 -- timeout -k 0.1 0.1 sh -c 'trap "" TERM; sleep 10'
	[ "${lines[0]}" = status=signal:9 ]
	run "$PROBE" -W -T 20 -- timeout --foreground -s KILL 0.1 sleep 10
	[ "${lines[0]}" = status=exit:137 ]
}

# --- the process group -----------------------------------------------------------

@test "group: grandchildren are killed at the deadline" {
	# Their output elsewhere, or `run` would wait for them to end.
	run bounded timeout 0.3 sh -c 'probe -m "$1" -s 30 -q >/dev/null 2>&1 &
		probe -m "$1" -s 30 -q >/dev/null 2>&1 & wait' sh "$MARK"
	assert_status 124
	assert_no_leftovers
}

@test "group: nothing is left behind (child subreaper view)" {
	run "$PROBE" -R -T 20 -- timeout 0.3 sh -c 'probe -s 30 -q >/dev/null 2>&1 & sleep 30 >/dev/null 2>&1 & wait'
	[ "${lines[0]}" = status=exit:124 ]
	[[ $output == *$'\nleft=none\n'* ]]
	# A command without children: reaped by timeout, nothing orphaned.
	run "$PROBE" -R -T 20 -- timeout 0.1 sleep 10
	[ "$output" = "status=exit:124
left=none
orphans=0" ]
}

@test "group: SIGCONT follows the signal, so a stopped command dies" {
	run bounded timeout 0.2 sh -c 'kill -STOP $$; : "$1"' sh "$MARK"
	assert_status 124
	assert_no_leftovers
}

@test "group: the command gets the signal and a SIGCONT" {
	run bounded timeout 0.5 probe -c TERM,CONT -l "$TMP/log" -s 1.5 -q
	assert_status 124
	cat "$TMP/log" >&2
	# Both pending at once: the handlers' order is the kernel's choice.
	grep -qx TERM "$TMP/log"
	grep -qx CONT "$TMP/log"
}

@test "--foreground: no new process group" {
	local mine
	mine=$(probe -k pgid)
	run timeout --foreground 10 probe -k pgid
	assert_output "$mine"
	run timeout 10 probe -k pgid
	[ "$output" != "$mine" ]
}

@test "--foreground: children are not killed" {
	run bounded timeout --foreground 0.3 sh -c 'probe -m "$1" -s 30 -q >/dev/null 2>&1 & exec sleep 10' sh "$MARK"
	assert_status 124
	[ -n "$(marked_pids)" ]
}

@test "--foreground: no SIGCONT after the signal" {
	run bounded timeout --foreground 0.5 probe -c TERM,CONT -l "$TMP/log" -s 1.5 -q
	assert_status 124
	cat "$TMP/log" >&2
	grep -qx TERM "$TMP/log"
	! grep -qx CONT "$TMP/log"
}

@test "--foreground: a stopped command is ended by -k" {
	run bounded timeout --foreground -k 0.3 0.1 sh -c 'kill -STOP $$; : "$1"' sh "$MARK"
	assert_status 137
}

@test "group: timeout leads the group the command is in, so kill -- -PID reaches the command" {
	start_ready timeout 30 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID cpid st=0
	cpid=$(report_get pid "$TMP/ready")
	[ "$(report_get pgid "$TMP/ready")" = "$tpid" ]
	# STOP is not forwarded by anyone: only the group signal stops it.
	kill -STOP -- "-$tpid"
	local i
	for ((i = 0; i < 100; i++)); do
		[[ $(proc_state "$cpid") == T ]] && break
		sleep 0.02
	done
	[[ $(proc_state "$cpid") == T ]]
	kill -CONT -- "-$tpid"
	kill -TERM -- "-$tpid"
	wait "$tpid" || st=$?
	[ "$st" -eq 143 ]
	wait_gone "$cpid"
}

@test "group: a signal sent to timeout is passed on once, not back and forth" {
	start_ready timeout 30 probe -c HUP -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 1.5 -x 3 -q
	local tpid=$READY_PID st=0
	kill -HUP "$tpid"
	# A supervisor that passes its own group signal on again never ends.
	wait_gone "$tpid" 10
	wait "$tpid" || st=$?
	cat "$TMP/log" >&2
	[ "$st" -eq 3 ]
	# Once to the pid, once to the group; pending copies merge.
	local n
	n=$(grep -c HUP "$TMP/log")
	((n >= 1 && n <= 2))
}

# --- signals sent to timeout ---------------------------------------------------

# fwd SIG: start timeout in the background with SIG at its default, send
# SIG to timeout once the command is ready; the command catches SIG and
# exits 42, logging it.
fwd() {
	start_ready timeout 30 probe -c "$1" -E -x 42 -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID
	kill -"$1" "$tpid"
	st=0
	wait "$tpid" || st=$?
}

# assert_forwarded SIG...: each, sent to timeout, reaches the command
# first, which then exits 42.
assert_forwarded() {
	local s
	for s in "$@"; do
		rm -f "$TMP/ready" "$TMP/log"
		fwd "$s"
		echo "signal $s: status $st, log $(cat "$TMP/log" 2>&1)" >&2
		[ "$st" -eq 42 ]
		[ "$(head -n 1 "$TMP/log")" = "$s" ]
	done
}

@test "forwarding: TERM, INT, HUP and QUIT reach the command" {
	assert_forwarded TERM INT HUP QUIT
}

@test "forwarding: every terminating signal, USR1, USR2 and PIPE too (GNU 9.10)" {
	need_gnu 9.10
	assert_forwarded USR1 USR2 PIPE XCPU SYS
}

@test "forwarding: the command killed by the forwarded signal, timeout dies of it too" {
	start_ready timeout 30 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID
	local cpid
	cpid=$(report_get pid "$TMP/ready")
	kill -INT "$tpid"
	local st=0
	wait "$tpid" || st=$?
	[ "$st" -eq 130 ]
	wait_gone "$cpid"
}

@test "forwarding: ALRM from outside counts as the deadline (124)" {
	start_ready timeout 30 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID
	kill -ALRM "$tpid"
	local st=0
	wait "$tpid" || st=$?
	[ "$st" -eq 124 ]
	assert_no_leftovers
}

@test "ignored signals: default at start, default in the command" {
	run "${DFL[@]}" timeout 10 probe -k ignored
	assert_status 0
	[[ ,$output, != *,INT,* && ,$output, != *,HUP,* ]]
}

@test "ignored signals: left ignored in the command (GNU 9.10)" {
	need_gnu 9.10
	run "$PROBE" -i INT,HUP,USR1,SYS -- timeout 10 probe -k ignored
	assert_status 0
	[[ ,$output, == *,HUP,INT,* && ,$output, == *,USR1,* && ,$output, == *,SYS,* ]]
}

@test "ignored signals: an ignored HUP (nohup) is not acted on (GNU 9.10)" {
	need_gnu 9.10
	assert_hup_ignored timeout -v -k 0.1 30 probe -o "$TMP/ready" -m "$MARK" -s 0.5 -x 5 -q
}

@test "caller state: SIGCHLD ignored by the caller" {
	run bounded "$PROBE" -i CHLD -- timeout 10 sh -c 'exit 3'
	assert_status 3
	run bounded "$PROBE" -i CHLD -- timeout 0.1 sleep 10
	assert_status 124
	run "$PROBE" -i CHLD -- timeout 10 probe -k ignored
	[[ ,$output, != *,CHLD,* ]]
}

@test "caller state: the caller's blocked mask reaches the command" {
	run "$PROBE" -b USR1 -- timeout 10 probe -k blocked
	assert_output USR1
	run "$PROBE" -b USR1,USR2,WINCH -- timeout 10 probe -k blocked
	assert_output USR1,USR2,WINCH
	run "$PROBE" -b SYS -- timeout 10 probe -k blocked
	assert_output SYS
}

@test "caller state: timeout adds nothing to the command's mask" {
	local mine
	mine=$(probe -k sigmask)
	run timeout 10 probe -k sigmask
	assert_output "$mine"
}

@test "caller state: ALRM and CHLD blocked by the caller do not break timeout" {
	run bounded "$PROBE" -b ALRM,CHLD -- timeout 0.1 sleep 10
	assert_status 124
	run bounded "$PROBE" -b ALRM,CHLD -- timeout 10 sh -c 'exit 3'
	assert_status 3
}

@test "caller state: a child inherited through exec does not end the wait" {
	run bounded sh -c 'sleep 0.1 & exec timeout 10 sh -c "sleep 0.5; exit 3"'
	assert_status 3
}

@test "caller state: a caller that ignores TERM still gets the deadline" {
	BOUND=5 run bounded "$PROBE" -i TERM -- timeout 0.2 sleep 10
	assert_status 124
	# The command gets TERM at its default, so it dies of it.
	run "$PROBE" -i TERM -- timeout 10 probe -k ignored
	[[ ,$output, != *,TERM,* ]]
}

@test "caller state: -s HUP with HUP ignored by the caller still ends the command" {
	BOUND=5 run bounded "$PROBE" -i HUP -- timeout -s HUP 0.2 sleep 10
	assert_status 124
}

@test "caller state: ALRM ignored by the caller is still the deadline's" {
	"$PROBE" -i ALRM -- timeout 8 probe -o "$TMP/ready" -m "$MARK" -s 30 -q &
	local tpid=$! st=0 t0
	track "$tpid"
	wait_file "$TMP/ready"
	t0=$(now_us)
	kill -ALRM "$tpid"
	wait "$tpid" || st=$?
	[ "$st" -eq 124 ]
	# Acted on the ALRM, not on the 8 s deadline.
	(($(now_us) - t0 < 5000000))
	assert_no_leftovers
}

@test "deadline: real time, counting the time timeout itself is stopped" {
	deadline_after_stop 3 timeout 2 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	[ "$ST" -eq 124 ]
	# Expired while stopped: acted on at once, not with the 2 s that
	# were left when the stop came.
	((AFTER_CONT_US < 1000000))
}

@test "PID 1: timeout as the first process of a pid namespace still runs the command (GNU 9.11)" {
	need_gnu 9.11
	command -v unshare >/dev/null || must_run_or_skip "no unshare(1)"
	# A user namespace only where it is needed (not root): a chroot or a
	# container may refuse one to root, who needs none.  The probe is
	# the very command the test runs.
	local ns=(unshare --pid --fork)
	[[ $(id -u) == 0 ]] || ns+=(--map-root-user)
	"${ns[@]}" true 2>/dev/null || must_run_or_skip "cannot ${ns[*]}"
	# 9.10's parent check took PID 1's parent, 0, for a dead timeout.
	BOUND=10 run bounded "${ns[@]}" "$BIN/timeout" 0.1 sleep 10
	assert_status 124
}

@test "PDEATHSIG: the command gets the -s signal when timeout dies (GNU 9.10)" {
	need_gnu 9.10
	start_ready timeout -s USR1 25 probe -c USR1 -E -x 0 -l "$TMP/log" -o "$TMP/ready" -m "$MARK" -s 30 -q
	kill -KILL "$READY_PID"
	local cpid
	cpid=$(report_get pid "$TMP/ready")
	wait_gone "$cpid"
	[ "$(cat "$TMP/log")" = USR1 ]
}

# --- the command's own fate ----------------------------------------------------

@test "re-raise: a command killed by a signal kills timeout by the same signal" {
	run "$PROBE" -W -T 20 -- timeout 10 sh -c 'kill -USR1 $$'
	assert_status 138
	[ "${lines[0]}" = status=signal:10 ]
	run timeout 10 sh -c 'kill -SEGV $$'
	assert_status 139
}

@test "re-raise: core dumps off in timeout, no core file" {
	[ "$(ulimit -Hc)" != 0 ] || skip "core dumps are disabled by the hard limit"
	cd "$TMP"
	run "$PROBE" -W -C -T 20 -- timeout 10 sh -c 'ulimit -c 0; kill -SEGV $$'
	assert_status 139
	[ "${lines[0]}" = status=signal:11 ]
	[ "${lines[1]}" = core=0 ]
	[ -z "$(ls "$TMP" | grep core)" ]
}

@test "PDEATHSIG: the command dies when timeout is killed (GNU 9.10)" {
	need_gnu 9.10
	start_ready timeout 30 probe -o "$TMP/ready" -m "$MARK" -s 30 -q
	local tpid=$READY_PID
	local cpid
	cpid=$(report_get pid "$TMP/ready")
	kill -KILL "$tpid"
	wait "$tpid" || true
	wait_gone "$cpid" 5
}

# --- running the command ---------------------------------------------------------

@test "exec: a script without #! runs through /bin/sh with its arguments" {
	printf 'echo "hello $# $1 $2"\n' >"$TMP/nosheb"
	chmod 755 "$TMP/nosheb"
	run timeout 10 "$TMP/nosheb" a 'b c'
	assert_status 0
	assert_output "hello 2 a b c"
	run env PATH="$TMP:$PATH" timeout 10 nosheb x
	assert_output "hello 1 x "
}

# The copy of argv the /bin/sh fallback makes is as long as argv: it must
# not outgrow the stack the child runs on before its exec.
@test "exec: a script without #! gets all of 100000 arguments" {
	printf 'echo "$# $1 ${100000}"\n' >"$TMP/nosheb"
	chmod 755 "$TMP/nosheb"
	run timeout 10 "$TMP/nosheb" $(seq 100000)
	assert_status 0
	assert_output "100000 1 100000"
}

@test "exec: PATH search continues past a non-executable match" {
	mkdir "$TMP/d1" "$TMP/d2"
	printf '#!/bin/sh\necho one\n' >"$TMP/d1/cmd-$MARK"
	printf '#!/bin/sh\necho two\n' >"$TMP/d2/cmd-$MARK"
	chmod 644 "$TMP/d1/cmd-$MARK"
	chmod 755 "$TMP/d2/cmd-$MARK"
	run env PATH="$TMP/d1:$TMP/d2:$PATH" timeout 10 "cmd-$MARK"
	assert_status 0
	assert_output two
	run env PATH="$TMP/d1:$PATH" timeout 10 "cmd-$MARK"
	assert_status 126
	assert_output "timeout: failed to run command 'cmd-$MARK': Permission denied"
}

@test "exec: argv[0] is the name as typed" {
	run timeout 10 probe -k argv0
	assert_output probe
	run timeout 10 "$BIN/probe" -k argv0
	assert_output "$BIN/probe"
}

@test "exec: the command inherits descriptors, environment and cwd" {
	local mine
	mine=$(probe -k fds 7</dev/null)
	run timeout 10 probe -k fds 7</dev/null
	assert_output "$mine"
	[[ ,$output, == *,7,* ]]
	LEASH_TEST_VAR="a b=c" run timeout 10 probe -k env:LEASH_TEST_VAR
	assert_output "a b=c"
	cd "$TMP"
	run timeout 10 probe -k cwd
	assert_output "$TMP"
}
