#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# env.bats: the environment the command gets (lib/ident/env.c) in every
# personality: cost with very many variables, every copy of a name the
# mode resets or removes, and whitelist items that are not names.
# Needs root (test users are created in setup_file, removed in teardown_file).

bats_require_minimum_version 1.5.0

load helpers
load users

SU=$(_helpers_abs "${SU:-$TOP/build/su}")
[[ -e $BIN/su ]] || ln -sfn "$SU" "$BIN/su"
MANYENV=${MANYENV:-${LEASH_BUILDDIR:-$TOP/build}/manyenv}

# with_env N [NAME=VALUE]... -- CMD...: run CMD with N extra variables and
# the entries given (duplicates kept; a shell cannot pass those), through
# build/manyenv, which ends stderr with "status=S ms=T maxrss_kib=K".
with_env() {
	[[ -x $MANYENV ]] || skip "build/manyenv not built"
	run --separate-stderr "$MANYENV" "$@"
	COST=${stderr##*$'\n'}
	echo "cost: $COST" >&2
}

cost() {
	local kv
	for kv in $COST; do
		[[ ${kv%%=*} == "$1" ]] && printf '%s\n' "${kv#*=}"
	done
}

# count NAME: how many times the probe report has env:NAME.
count() {
	grep -c "^env:$1=" <<<"$output" || true
}

# --- cost --------------------------------------------------------------------

@test "100k variables: -u, -l, su and AOSP su each take well under seconds and 32 MiB" {
	# main before the fix: 33 s and 400 MB (a copy per variable).
	local cmd
	for cmd in "$LEASH -u $U_NAME" "$LEASH -u $U_NAME -p" "$LEASH -u $U_NAME -l -w FOO" \
		"$SU $U_NAME -s" "$SU $U_NAME"; do
		with_env 100000 -- $cmd /bin/true
		echo "[$cmd]" >&2
		assert_status 0
		(($(cost ms) < 5000))
		(($(cost maxrss_kib) < 32 * 1024))
	done
	with_env 100000 -- "$LEASH" -u "$U_NAME" -- "$U_PROBE" -k env:LEASHV99999
	assert_status 0
}

# --- duplicated names --------------------------------------------------------

@test "-u: every HOME SHELL USER LOGNAME the caller had twice is the target's, once" {
	with_env 0 HOME=/a HOME=/b SHELL=/a SHELL=/b USER=a USER=b LOGNAME=a LOGNAME=b \
		FOO=1 FOO=2 -- "$LEASH" -u "$U_NAME" -- "$U_PROBE" -e
	assert_status 0
	local v
	for v in HOME SHELL USER LOGNAME; do
		[[ $(count $v) == 1 ]]
	done
	assert_target_env_of_dups
	# Names the mode leaves alone keep every copy.
	[[ $(count FOO) == 2 ]]
}

assert_target_env_of_dups() {
	assert_key env:HOME "$U_HOME"
	assert_key env:SHELL /bin/sh
	assert_key env:USER "$U_NAME"
	assert_key env:LOGNAME "$U_NAME"
}

@test "AOSP su: a second PATH= or IFS= does not survive the reset" {
	with_env 0 PATH=/leash/a:/usr/bin:/bin PATH=/leash/b IFS=: IFS=x \
		USER=a USER=b -- "$SU" "$U_NAME" "$U_PROBE" -e
	assert_status 0
	[[ $(count PATH) == 1 && $(count IFS) == 0 && $(count USER) == 1 ]]
	assert_key env:PATH /usr/local/bin:/usr/bin:/bin
	assert_key env:USER "$U_NAME"
}

@test "su: a second HOME SHELL USER LOGNAME does not survive" {
	with_env 0 HOME=/a HOME=/b SHELL=/a SHELL=/b USER=a USER=b LOGNAME=a LOGNAME=b \
		-- "$SU" "$U_NAME" -c "$U_PROBE -e"
	assert_status 0
	local v
	for v in HOME SHELL USER LOGNAME; do
		[[ $(count $v) == 1 ]]
	done
	assert_key env:HOME "$U_HOME"
	assert_key env:USER "$U_NAME"
}

@test "-l and su -l: a whitelisted name is kept once, its first value (as getenv)" {
	unset TERM
	with_env 0 BAZ=1 BAZ=2 TERM=vt100 TERM=dumb -- "$LEASH" -u "$U_NAME" -l -w BAZ -- "$U_PROBE" -e
	assert_status 0
	[[ $(count BAZ) == 1 && $(count TERM) == 1 ]]
	assert_key env:BAZ 1
	assert_key env:TERM vt100
	with_env 0 BAZ=1 BAZ=2 -- "$SU" - "$U_NAME" -w BAZ -c "$U_PROBE -e"
	assert_status 0
	[[ $(count BAZ) == 1 ]]
	assert_key env:BAZ 1
}

# --- whitelist items that are not names ----------------------------------------

@test "-w HOME= does not let the caller's HOME==x in beside the target's HOME" {
	local w
	for w in 'HOME=' 'HOME=,PATH=' 'SHELL=/bin/sh' '=' 'HOME=='; do
		with_env 0 HOME==x SHELL=/bin/sh=y 'HOME=/leash/h' -- \
			"$LEASH" -u "$U_NAME" -l -w "$w" -- "$U_PROBE" -e
		echo "-w [$w]" >&2
		assert_status 0
		[[ $(count HOME) == 1 && $(count SHELL) == 1 && $(count PATH) == 1 ]]
		assert_key env:HOME "$U_HOME"
		assert_key env:SHELL /bin/sh
		with_env 0 HOME==x -- "$SU" - "$U_NAME" -w "$w" -c "$U_PROBE -e"
		assert_status 0
		[[ $(count HOME) == 1 ]]
		assert_key env:HOME "$U_HOME"
	done
}
