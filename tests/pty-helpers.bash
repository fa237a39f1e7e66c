# SPDX-License-Identifier: ISC
# pty-helpers.bash: an interactive shell on a pseudo-terminal of its own,
# driven by tests/ptyrun.c (load after helpers).
#   PTYRUN   the harness (build/ptyrun); compiled on the fly if absent
#   PROMPT   the shell's prompt, the marker a script waits for

PROMPT='PROMPT> '

PTYRUN=$(_helpers_abs "${PTYRUN:-${LEASH_BUILDDIR:-$TOP/build}/ptyrun}")
# No build/ptyrun (host mode on a fresh tree): build one for this run.
if [[ ! -x $PTYRUN ]]; then
	if [[ ! -x $BATS_RUN_TMPDIR/ptyrun ]]; then
		${CC:-cc} -O2 -o "$BATS_RUN_TMPDIR/ptyrun" "$BATS_TEST_DIRNAME/ptyrun.c" ||
			echo "pty-helpers: cannot build $BATS_TEST_DIRNAME/ptyrun.c" >&2
	fi
	PTYRUN=$BATS_RUN_TMPDIR/ptyrun
fi
export PTYRUN

# need_pty: skip (fail under LEASH_MUST_RUN=1) without pseudo-terminals.
need_pty() {
	[[ -c /dev/ptmx && -d /dev/pts ]] || must_run_or_skip "no /dev/ptmx: no pseudo-terminals here"
	[[ -x $PTYRUN ]] || must_run_or_skip "no ptyrun helper (tests/ptyrun.c did not build)"
}

# on_pty [PTYRUN-OPTION...] <SCRIPT: a fresh pty with an interactive bash
# (job control on, no rc files, no line editing, no history file); at
# its first prompt it runs SCRIPT, then `exit 0` at the next prompt.
# $output is ptyrun's report (time lines, then status=...), $TMP/screen
# what the terminal showed; on failure both are printed.  Fails too if
# the shell had no job control or a process with $MARK is left.
on_pty() {
	{
		printf 'expect %s\n' "$PROMPT"
		cat
		printf 'expect %s\nline exit 0\n' "$PROMPT"
	} >"$TMP/script"
	run env PS1="$PROMPT" HISTFILE= TERM=dumb PROMPT_COMMAND= \
		"$PTYRUN" -m "$MARK" -v -o "$TMP/screen" -f "$TMP/script" "$@" \
		-- bash --norc --noprofile --noediting -i
	if [[ $status != 0 || ${lines[-1]} != status=exit:0 ]]; then
		echo "ptyrun exited $status; script:" >&2
		sed 's/^/  /' "$TMP/script" >&2
		printf '%s\n' "--- ptyrun:" "$output" "--- screen:" >&2
		tr -d '\r' <"$TMP/screen" >&2
		return 1
	fi
	if grep -aq 'no job control' "$TMP/screen"; then
		echo "the shell on the pty had no job control" >&2
		return 1
	fi
	assert_no_leftovers
}

# screen_value KEY: N from the first "KEY:N" the command printed (the
# echo of a typed line shows KEY:$..., never KEY: and a digit).
screen_value() {
	grep -aoE "$1:[0-9]+" "$TMP/screen" | head -n 1 | cut -d: -f2
}

# measured NAME: the seconds a script's `time NAME` printed.
measured() {
	printf '%s\n' "$output" | sed -n "s/^$1=//p"
}

# secs_lt A B: A < B, decimal seconds.
secs_lt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'
}
