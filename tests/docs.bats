#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# docs.bats: the examples of man/leash.1 against the program.  The -v
# example is run as written and its lines compared by kind (paths, pids
# and times differ from host to host; which lines come, and in which
# order, do not); the read-only one, with the host's cgroup mounts made
# read-only in a mount namespace of its own, line for line but for
# paths and times.  Options, exit statuses and refusals are
# build-aux/checkman.sh's.  The -v example needs root (it switches
# user); the busybox forms of the README need busybox.

load helpers
load cgroup-helpers

setup() {
	common_setup
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

# man_block PREFIX: the literal block of EXAMPLES whose first line starts
# with PREFIX, on stdout.
man_block() {
	awk -v prefix="$1" '
	/^\.Sh / { ex = ($0 ~ /^\.Sh EXAMPLES/) }
	ex && /^\.Bd -literal/ { n = 0; inb = 1; next }
	ex && inb && /^\.Ed/ {
		inb = 0
		if (index(b[1], prefix) == 1)
			for (i = 1; i <= n; i++) print b[i]
		next
	}
	inb { b[++n] = $0 }' "$TOP/man/leash.1" | sed 's/\\e/\\/g'
}

# man_example PREFIX: that block if it holds one command ("# " line).
man_example() {
	local b
	b=$(man_block "$1")
	[[ $(grep -c '^# ' <<<"$b") == 1 ]] && printf '%s\n' "$b"
}

@test "man: the -v example shows the kinds of line leash -v prints, in order" {
	need_root "the -v example runs as nobody"
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

# in_busybox SCRIPT: SCRIPT in busybox's sh, with a PATH whose first
# directory has the links timeout and su (and leash itself).
in_busybox() {
	run busybox sh -c "PATH=$TMP/links:\$PATH; $1" </dev/null
}

@test "README: in busybox's sh, 'leash timeout', 'leash su' and a link's full path reach leash; the bare name only without applets first" {
	command -v busybox >/dev/null || skip "no busybox"
	mkdir "$TMP/links"
	cp "$LEASH" "$TMP/links/leash"
	ln -s leash "$TMP/links/timeout"
	ln -s leash "$TMP/links/su"
	in_busybox 'leash timeout --version; leash su --version'
	assert_status 0
	[[ ${lines[0]} == "timeout (leash) "* && ${lines[1]} == "su (leash) "* ]]
	in_busybox "$TMP/links/timeout 0.2 sleep 5"
	assert_status 124
	in_busybox "leash timeout 0.2 sleep 5"
	assert_status 124
	# A busybox that runs its applets first (busybox-static) takes
	# timeout and su for its own, as the README says; another one finds
	# the links in PATH.
	local bb
	bb=$(command -v busybox)
	in_busybox 'timeout --version'
	if PATH=/nonexistent "$bb" sh -c 'timeout -s TERM 1 true' 2>/dev/null; then
		[[ $output != *"(leash)"* ]]
	else
		[[ ${lines[0]} == "timeout (leash) "* ]]
	fi
}

# unhosted: a session's lines with what differs from host to host (a
# cgroup's path, times) made one word.
unhosted() {
	sed -E "s|'/sys/fs/cgroup/[^']*'|'CGROUP'|g; s/[0-9]+\.[0-9]+ s/T s/g"
}

@test "man: the read-only example prints, line for line, what leash prints" {
	need_cgroup
	need_mountns
	[[ $CG_V == 1 ]] || skip "the example is of cpu on cgroup v1"
	getent passwd 4242 >/dev/null && skip "uid 4242 has a passwd entry here"
	local ex line script="leash() { \"\$LEASH\" \"\$@\"; }"
	ex=$(man_block "# leash --cgroup=require ")
	[[ -n $ex ]]
	while IFS= read -r line; do
		[[ $line == "# "* ]] &&
			script+=$'\n'"printf '%s\n' ${line@Q}; ${line#"# "}"
	done <<<"$ex"
	echo "$script" >&2
	# Every cgroup mount read-only, in a namespace of the test's own.
	run in_ns "$(read_only "$CG_CPU" ${CG2:+"$CG2"})" bash -c "$script" </dev/null
	echo "$output" >&2
	diff <(unhosted <<<"$ex") <(unhosted <<<"$output")
}

@test "man and README: the --idle example prints, line for line, what leash prints" {
	local want got
	need_root "the example runs as root (its identity line)"
	# The example's lines, as the page renders them (the figures vary).
	want=$(sed -n "/^\\\$ leash -v --idle=2 -t 1h/,/^124\$/p" "$TOP/man/leash.1" |
		sed -e '1d' -e '/^\$ echo/d' -e '/^124$/d' -e 's/[0-9]\.[0-9][0-9] s/N s/g' -e 's/^\\&//')
	got=$(cd "$TMP" && "$LEASH" -v --idle=2 -t 1h -- sh -c 'echo started; sleep 600' 2>&1 |
		sed -e 's/[0-9]\.[0-9][0-9] s/N s/g')
	[[ $got == "$want" ]] || { printf 'man:\n%s\ngot:\n%s\n' "$want" "$got" >&2; return 1; }
	# The README shows the same lines.
	grep -qF "    leash: idle after 2.01 s (no output since 0.00 s): TERM to 2 processes, CPU 0.00 s" "$TOP/README"
}
