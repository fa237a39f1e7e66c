#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# completion.bats: bash-completion/leash, sourced in a bash with
# bash-completion loaded, completing lines as bash would (COMP_WORDS,
# COMP_CWORD, COMP_LINE, COMP_POINT) and checking COMPREPLY.  No root
# needed.

load helpers

BASH_COMPLETION=/usr/share/bash-completion/bash_completion

setup() {
	common_setup
	[[ -r $BASH_COMPLETION ]] ||
		must_run_or_skip "no bash-completion (apt-get install bash-completion)"
	COMPLETION=$TOP/bash-completion/leash
}

# comp LINE: what bash offers at the end of LINE, one per line in
# $output.  Words split at blanks and at '=' as COMP_WORDBREAKS does; a
# compspec that returns 124 (replaced itself) is looked up and run again;
# without one, the default (-D: bash-completion's loader, which loads a
# file by the command's name).  COMPLETION= empty sources no file first.
comp() {
	run bash --norc --noprofile -c '
		. "$1" || exit 90
		[[ -z $2 ]] || . "$2" || exit 91
		# Outside a real completion compopt fails: keep its noise out.
		compopt() { builtin compopt "$@" 2>/dev/null; return 0; }
		line=$3
		COMP_WORDS=()
		for w in $line; do
			while [[ $w == *=* ]]; do
				[[ -n ${w%%=*} ]] && COMP_WORDS+=("${w%%=*}")
				COMP_WORDS+=("=")
				w=${w#*=}
			done
			[[ -n $w ]] && COMP_WORDS+=("$w")
		done
		[[ $line == *" " || $line == *= ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line}
		for try in 1 2 3 4; do
			spec=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null ||
				complete -p "${COMP_WORDS[0]##*/}" 2>/dev/null ||
				complete -p -D 2>/dev/null) || exit 92
			func=${spec#*-F } func=${func%% *}
			COMPREPLY=()
			"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
				"${COMP_WORDS[COMP_CWORD - 1]}"
			[[ $? == 124 ]] || break
		done
		echo "func=$func"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$BASH_COMPLETION" "$COMPLETION" "$1"
	if [[ $status != 0 ]]; then
		printf 'comp %q: status %s\n%s\n' "$1" "$status" "$output" >&2
		return 1
	fi
}

# offered WORD...: each WORD is among the completions.
offered() {
	local w
	for w; do
		grep -qxF -e "$w" <<<"$output" && continue
		printf 'not offered: %s; got:\n%s\n' "$w" "$output" >&2
		return 1
	done
}

# not_offered WORD...
not_offered() {
	local w
	for w; do
		grep -qxF -e "$w" <<<"$output" || continue
		printf 'offered, but should not be: %s\n' "$w" >&2
		return 1
	done
}

# help_options PROG...: the options PROG --help lists, without '='.
help_options() {
	"$@" --help | awk '/^ +-/ {
		line = $0; sub(/^ +/, "", line)
		if (length($0) - length(line) > 8) next    # an exit status table
		col = line
		if (match(col, /  |\t/)) col = substr(col, 1, RSTART - 1)
		sub(/ *<.*$/, "", col)
		n = split(col, w, /[ ,]+/)
		for (i = 1; i <= n; i++) {
			o = w[i]; sub(/[=\[].*$/, "", o)
			if (o == "-" && index(col, "-,") != 1) continue
			if (o ~ /^--?[A-Za-z0-9?][-A-Za-z0-9]*$/ || o == "-") print o
		}
	}' | sort -u
}

leash_watch() { "$LEASH" watch "$@"; }

# assert_all_options PROG LINE: LINE offers every option of PROG --help.
assert_all_options() {
	local want
	want=$(help_options "$1")
	[[ -n $want ]]
	comp "$2"
	output=$(sed 's/=$//' <<<"$output")
	offered $want
}

@test "leash -: every option of leash --help, and only options" {
	assert_all_options "$LEASH" "leash -"
	run bash -c 'grep -v "^-" <<<"$1" | grep -v "^func="' bash "$output"
	assert_output ""
	comp "leash --cg"
	offered --cgroup= --cgroup-root=
	not_offered --cpu-weight=
}

@test "timeout and su under leash: their own options, not leash's" {
	assert_all_options "$LEASH_TESTBIN/timeout" "leash timeout -"
	not_offered --user --cgroup
	assert_all_options "$LEASH_TESTBIN/su" "leash su -"
	offered --supp-group -
	not_offered --cgroup --timeout
}

@test "leash watch: its own options, --by's two words, no command" {
	assert_all_options leash_watch "leash watch -"
	not_offered --user --timeout
	comp "leash watch --by="
	offered ruid euid
	comp "leash watch -v "
	[[ $(grep -cv "^func=" <<<"$output") == 0 ]]
	comp "leash w"
	offered watch
}

@test "-s: signal names (su's -s: shells)" {
	comp "leash -s T"
	offered TERM TRAP TSTP
	comp "leash --signal=K"
	offered KILL
	comp "leash timeout -s IN"
	offered INT
	comp "leash su -s /bin/"
	offered /bin/sh
	not_offered TERM
}

@test "-u: the names of /etc/passwd; -g and -G: those of /etc/group" {
	comp "leash -u "
	offered $(cut -d: -f1 /etc/passwd)
	comp "leash --user=ro"
	offered root
	comp "leash -g ro"
	offered root
	not_offered daemon
	comp "leash -G root,da"
	offered root,daemon
	comp "leash su ro"
	offered root
}

@test "--keep-caps: capability names, also as the next item of a list" {
	comp "leash --keep-caps cap_net_"
	offered cap_net_raw cap_net_admin cap_net_bind_service cap_net_broadcast
	comp "leash --keep-caps=cap_chown,cap_sys_ni"
	offered cap_chown,cap_sys_nice
}

@test "--warn: signal names, each followed by @ for the duration" {
	comp "leash --warn=US"
	offered USR1@ USR2@
	not_offered TERM@ USR1
	comp "leash --warn=USR1@"
	not_offered USR1@ TERM@
}

@test "--cgroup: auto, require, off, track" {
	comp "leash --cgroup="
	offered auto require off track
	comp "leash --cgroup r"
	offered require
	not_offered auto off
}

@test "the command: after the options, after --, after timeout's DURATION" {
	comp "leash -t 5 -- mkdi"
	offered mkdir
	comp "leash -v -u root mkdi"
	offered mkdir
	comp "leash timeout -k 1 5 mkdi"
	offered mkdir
	not_offered --foreground
	# The command's words are its own, not leash's options.
	comp "leash -t 5 -- true --ve"
	not_offered --verbose --version
	# ... and a command with a completion of its own gets it.
	comp "leash -- leash --kill-l"
	offered --kill-leftovers
	comp "leash ti"
	offered timeout
}

@test "timeout and su that are leash (a link in PATH) complete as leash's" {
	local d=$TMP/libexec
	mkdir "$d"
	ln -s "$LEASH" "$d/timeout"
	ln -s "$LEASH" "$d/su"
	PATH=$d:$PATH comp "timeout -"
	offered --foreground --kill-after= --preserve-status
	not_offered --user=
	PATH=$d:$PATH comp "timeout 5 mkdi"
	offered mkdir
	PATH=$d:$PATH comp "su --supp"
	offered --supp-group=
	# By path, as in libexec/leash/timeout.
	comp "$d/timeout --sig"
	offered --signal=
}

@test "timeout and su that are not leash keep the system's completion" {
	local gnu
	gnu=$(PATH=/usr/bin:/bin command -v timeout) || skip "no timeout(1)"
	[[ $(readlink -f "$gnu") != */leash ]] || skip "the system's timeout is leash"
	PATH=/usr/bin:/bin comp "timeout --k"
	offered --kill-after=
	[[ ${lines[0]} == func=_timeout ]] || { echo "$output" >&2; false; }
}

@test "make install puts the completion in DATADIR/bash-completion/completions" {
	local d=$TMP/stage san=
	[[ ${LEASH_BUILDDIR:-} == */build-san ]] && san=1
	run make -C "$TOP" --no-print-directory install DESTDIR="$d" \
		WERROR=1 SANITIZE="$san" prefix=/usr datadir=/usr/share
	assert_status 0
	cmp "$COMPLETION" "$d/usr/share/bash-completion/completions/leash"
	[[ $(readlink "$d/usr/share/bash-completion/completions/timeout") == leash ]]
	[[ $(readlink "$d/usr/share/bash-completion/completions/su") == leash ]]
	run make -C "$TOP" --no-print-directory uninstall DESTDIR="$d" \
		prefix=/usr datadir=/usr/share
	assert_status 0
	[[ -z $(find "$d" ! -type d) ]]
}

# stage: make install into $TMP/stage; bash-completion then looks in its
# share before the system's (XDG_DATA_DIRS), as in /usr/local/share.
stage() {
	local san=
	[[ ${LEASH_BUILDDIR:-} == */build-san ]] && san=1
	make -C "$TOP" --no-print-directory install DESTDIR="$TMP/stage" \
		WERROR=1 SANITIZE="$san" prefix=/usr/local >/dev/null
	export XDG_DATA_DIRS=$TMP/stage/usr/local/share:/usr/share HOME=$TMP
}

@test "first use: timeout and su that are leash complete as leash's with no leash completion loaded before" {
	stage
	local d=$TMP/stage/usr/local/libexec/leash
	PATH=$d:$PATH COMPLETION= comp "timeout -"
	offered --foreground --kill-after= --preserve-status
	not_offered --user=
	[[ ${lines[0]} == func=_leash_compat ]]
	PATH=$d:$PATH COMPLETION= comp "su --supp"
	offered --supp-group=
}

@test "first use: timeout and su that are not leash get the system's completion, though leash's is installed under their names" {
	local gnu
	gnu=$(PATH=/usr/bin:/bin command -v timeout) || skip "no timeout(1)"
	[[ $(readlink -f "$gnu") != */leash ]] || skip "the system's timeout is leash"
	[[ -f /usr/share/bash-completion/completions/timeout ]] ||
		skip "bash-completion has no timeout completion here"
	stage
	PATH=/usr/bin:/bin COMPLETION= comp "timeout --k"
	offered --kill-after=
	[[ ${lines[0]} == func=_timeout ]] || { echo "$output" >&2; false; }
	if [[ -f /usr/share/bash-completion/completions/su ]]; then
		PATH=/usr/bin:/bin COMPLETION= comp "su --"
		local func
		func=$(grep -o '^complete -F [^ ]* su$' /usr/share/bash-completion/completions/su | cut -d' ' -f3)
		[[ ${lines[0]} == "func=$func" ]] || { echo "$output" >&2; false; }
	fi
}
