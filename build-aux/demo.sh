#!/bin/bash
# SPDX-License-Identifier: ISC
# make demo: leash's main job on this machine, in a few seconds.  A
# command stopped at its deadline (exit status, elapsed time, what was
# signalled), one that ignores the signal and is killed, the timeout
# name; then the per-uid cgroup demo when build-aux/demo-fair.sh exists.
set -uo pipefail

cd "${LEASH_SRCDIR:-$(dirname "$0")/..}" || exit 1
LEASH=${LEASH:-build/leash}
TIMEOUT=${TIMEOUT:-build/timeout}
LEASH=${LEASH#"$PWD"/} TIMEOUT=${TIMEOUT#"$PWD"/}
[ -x "$LEASH" ] || { echo "leash: $LEASH not built (run make)" >&2; exit 1; }

now() { date +%s.%N; }

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
	"$@"
	rc=$?
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

if [ -x build-aux/demo-fair.sh ]; then
	echo
	build-aux/demo-fair.sh
elif [ -f build-aux/demo-fair.sh ]; then
	echo
	bash build-aux/demo-fair.sh
fi
