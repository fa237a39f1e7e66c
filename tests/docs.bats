#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# docs.bats: the examples of man/leash.1 against the program.  The -v
# example is run as written and its lines compared by kind (paths, pids
# and times differ from host to host; which lines come, and in which
# order, do not).  Options, exit statuses and refusals are
# build-aux/checkman.sh's.  Needs root (the example switches user).

load helpers

setup() {
	common_setup
	need_root "the -v example runs as nobody"
}

# kinds: each line of stdin as its kind; the cgroup lines, whose number
# depends on the host's hierarchies, as one.
kinds() {
	awk '
	/^leash: running as /             { k = "who" }
	/^leash: (cgroup|running without a cgroup)/ { k = "cgroup" }
	/^leash: sending signal /         { k = "signal" }
	/^leash: .* after [0-9.]+ s/      { k = "summary" }
	/^[0-9]+$/                        { k = "status" }
	!/^leash: / && !/^[0-9]+$/        { k = "output" }
	k != last                         { print k }
	{ last = k }'
}

# man_example PREFIX: the literal block of EXAMPLES whose first line
# starts with PREFIX and which holds one command ("# " line), on stdout.
man_example() {
	awk -v prefix="$1" '
	/^\.Sh / { ex = ($0 ~ /^\.Sh EXAMPLES/) }
	ex && /^\.Bd -literal/ { n = 0; cmds = 0; inb = 1; next }
	ex && inb && /^\.Ed/ {
		inb = 0
		if (cmds == 1 && index(b[1], prefix) == 1)
			for (i = 1; i <= n; i++) print b[i]
		next
	}
	inb { b[++n] = $0; if ($0 ~ /^# /) cmds++ }' "$TOP/man/leash.1" |
		sed 's/\\e/\\/g'
}

@test "man: the -v example shows the kinds of line leash -v prints, in order" {
	local ex cmd
	ex=$(man_example "# leash -v ")
	[[ -n $ex ]]
	cmd=${ex%%$'\n'*}
	cmd=${cmd#"# "}
	echo "example: $cmd" >&2
	run bash -c "leash() { \"\$LEASH\" \"\$@\"; }; $cmd" </dev/null
	echo "$output" >&2
	diff <(tail -n +2 <<<"$ex" | kinds) <(kinds <<<"$output")
}
