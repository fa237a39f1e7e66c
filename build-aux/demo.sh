#!/bin/bash
# SPDX-License-Identifier: ISC
# make demo: leash's main job on this machine, in a few seconds.  A
# command stopped at its deadline (exit status, elapsed time, what was
# signalled), one that ignores the signal and is killed, the timeout
# name; as root, a setsid escapee that leash's cgroup leaf still reaches
# at the deadline and GNU timeout leaves running; then the per-uid cgroup
# demo when build-aux/demo-fair.sh exists.  What it starts is killed and
# removed at the end, also when interrupted.
set -uo pipefail

cd "${LEASH_SRCDIR:-$(dirname "$0")/..}" || exit 1
LEASH=${LEASH:-build/leash}
TIMEOUT=${TIMEOUT:-build/timeout}
LEASH=${LEASH#"$PWD"/} TIMEOUT=${TIMEOUT#"$PWD"/}
[ -x "$LEASH" ] || { echo "leash: $LEASH not built (run make)" >&2; exit 1; }

now() { date +%s.%N; }

# The escapees' pid files; cleanup kills what still runs of them.
WORK=$(mktemp -d /tmp/leash-demo.XXXXXX) || exit 1

# alive PID: running, not a zombie.
alive() {
	local s
	s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	case $s in Z*|X*|'') return 1 ;; esac
}

# kill_escapee PIDFILE: KILL the setsid sleep it names, if that still runs.
kill_escapee() {
	local pid=
	read -r pid <"$1" 2>/dev/null
	[ -n "$pid" ] && alive "$pid" || return 0
	[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" = "sleep 60 " ] &&
		kill -KILL "$pid" 2>/dev/null
}

# The cgroups leash -u makes for the escapee's uid, when they did not
# exist before: removed at the end (leash keeps uid groups).
CG_MADE=()
note_cgroups() {
	local m d
	. build-aux/cgmounts.sh
	for m in "$(mount_of cgroup2)" "$(mount_of cgroup cpu)"; do
		[ -n "$m" ] || continue
		for d in "$m/leash" "$m/leash/uid_$1"; do
			[ -d "$d" ] || CG_MADE+=("$d")
		done
	done
}

cleanup() {
	local f i
	trap - EXIT INT TERM HUP
	for f in "$WORK"/escapee.*; do
		[ -f "$f" ] && kill_escapee "$f"
	done
	for ((i = ${#CG_MADE[@]} - 1; i >= 0; i--)); do
		rmdir "${CG_MADE[i]}" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The command line as one would type it: words with blanks or quotes quoted.
cmdline() {
	local w out=
	for w; do
		case $w in
		*[!A-Za-z0-9_./=:,+-]*|'') w="'${w//\'/\'\\\'\'}'" ;;
		esac
		out+=" $w"
	done
	printf '%s' "${out# }"
}

# show DESCRIPTION COMMAND...: run it, then print its status and time.
show() {
	local what=$1 t0 t1 rc
	shift
	printf '\n# %s\n$ %s\n' "$what" "$(cmdline "$@")"
	t0=$(now)
	# The command's stderr goes to the terminal, the shell's own report
	# of a KILL death ("line N: PID Killed") to /dev/null.
	{ "$@" 2>&9 9>&-; rc=$?; } 9>&2 2>/dev/null
	t1=$(now)
	awk -v rc="$rc" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "-> exit status %d after %.2f s\n", rc, b - a }'
}

echo "leash demo: commands stopped at their deadline (-v says what is signalled)"
show "sleep 10 with a 1 s deadline: TERM at the deadline, exit 124" \
	"$LEASH" -v -t 1 -- sleep 10
show "a command that ignores TERM: TERM at 0.5 s, KILL 0.5 s later, exit 137" \
	"$LEASH" -v -t 0.5 -k 0.5 -- sh -c 'trap "" TERM; sleep 10'
show "a command that finishes in time: its own status (3), no signal" \
	"$LEASH" -v -t 5 -- sh -c 'exit 3'
show "the same binary called timeout: GNU timeout's options and messages" \
	"$TIMEOUT" -v -s INT 0.5 sleep 10

# escapee SUPERVISOR...: run a command that starts `setsid sleep 60`
# (leaving the command's session and process group; its pid on fd 3) and
# waits, under SUPERVISOR with a 1 s deadline; then say whether the
# escapee outlived the deadline.
escapee() {
	local what=$1 pidfile pid= i
	ESCAPEE_N=$((${ESCAPEE_N:-0} + 1)) pidfile=$WORK/escapee.$ESCAPEE_N
	shift
	show "$what" "$@" sh -c 'setsid sleep 60 & echo $! >&3; wait' 3>"$pidfile"
	read -r pid <"$pidfile" 2>/dev/null
	[ -n "$pid" ] || { echo "-> the escapee did not start"; return; }
	for i in 1 2 3 4 5 6 7 8 9 10; do
		alive "$pid" || break
		sleep 0.1
	done
	if alive "$pid"; then
		echo "-> the setsid sleep (pid $pid) still runs after the deadline (the demo kills it now)"
		kill_escapee "$pidfile"
	else
		echo "-> the setsid sleep (pid $pid) was stopped at the deadline too"
	fi
}

echo
echo "a process that leaves the command's session (setsid) and its deadline:"
if [ "$(id -u)" != 0 ]; then
	echo "(needs root for leash -u: skipped)"
else
	gnu=$(command -v timeout)
	case $(readlink -f "$gnu" 2>/dev/null) in
	''|*/leash) echo "(no GNU timeout in PATH: its half is skipped)" ;;
	*)	escapee "GNU timeout signals the command's process group only" \
			"$gnu" -v 1 ;;
	esac
	user=nobody
	uid=$(id -u "$user" 2>/dev/null) || user=65534 uid=65534
	note_cgroups "$uid"
	escapee "leash -u also signals every process of the command's cgroup leaf" \
		"$LEASH" -v -u "$user" -t 1 --
fi

if [ -x build-aux/demo-fair.sh ]; then
	echo
	build-aux/demo-fair.sh
elif [ -f build-aux/demo-fair.sh ]; then
	echo
	bash build-aux/demo-fair.sh
fi
