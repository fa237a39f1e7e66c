#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# nss.bats: names the files lack, asked of getent(1) (lib/ident/nss.c).  A
# stand-in getent answers for a user and groups that /etc/passwd and
# /etc/group do not have: run directly by build/nss-check (no root), and
# bind-mounted over /usr/bin/getent in a private mount namespace for
# leash and su themselves (root).  The stand-in logs every call and can
# report, through the probe, what it was given: environment, descriptors,
# signals, process group.

bats_require_minimum_version 1.5.0

load helpers

setup_file() {
	export NSS_DIR NSS_USER=leash_nss_u$$ NSS_GROUP=leash_nss_g$$
	export NSS_UID NSS_GID NSS_G1 NSS_G2 NSS_GRP_GID
	NSS_DIR=$(mktemp -d /tmp/leash_nss.XXXXXX)
	chmod 755 "$NSS_DIR"
	cp "$PROBE" "$NSS_DIR/probe"
	local base=$((47000 + ($$ % 2000) * 8))
	NSS_UID=$(free_id "$base")
	NSS_GID=$(free_id $((NSS_UID + 1)))
	NSS_G1=$(free_id $((NSS_GID + 1)))
	NSS_G2=$(free_id $((NSS_G1 + 1)))
	NSS_GRP_GID=$(free_id $((NSS_G2 + 1)))
	# The stand-in: logs "DB KEY", then runs the answer script the test
	# wrote for DB and KEY, or says "no such key" (2) as getent does.
	cat >"$NSS_DIR/getent" <<-EOF
	#!/bin/sh
	# First, and with builtins only: once dash has run a command, its
	# mask is its own.
	while read -r k v; do
		case \$k in SigBlk:|SigIgn:) echo "\$k \$v" ;; esac
	done </proc/\$\$/status >"$NSS_DIR/sig.\$1"
	echo "\$1 \$3" >>"$NSS_DIR/log"
	tr '\\0' '\\n' </proc/\$\$/environ >"$NSS_DIR/env.\$1"
	[ -f "$NSS_DIR/do.\$1.\$3" ] || exit 2
	. "$NSS_DIR/do.\$1.\$3"
	EOF
	chmod 755 "$NSS_DIR/getent"
	# with-stub CMD...: CMD where /usr/bin/getent is the stand-in.
	cat >"$NSS_DIR/with-stub" <<-EOF
	#!/bin/sh
	exec unshare -m --propagation private -- sh -c \
		'mount --bind "$NSS_DIR/getent" /usr/bin/getent || exit 99; exec "\$@"' sh "\$@"
	EOF
	chmod 755 "$NSS_DIR/with-stub"
}

teardown_file() {
	[[ ${NSS_DIR:-} == /tmp/leash_nss.* ]] && rm -rf "$NSS_DIR"
	return 0
}

setup() {
	common_setup
	CHECK=${NSS_CHECK:-${LEASH_BUILDDIR:-$TOP/build}/nss-check}
	rm -f "$NSS_DIR"/do.* "$NSS_DIR"/log "$NSS_DIR"/env.* "$NSS_DIR"/sig.* "$NSS_DIR"/seen*
	: >"$NSS_DIR/log"
}

teardown() {
	common_teardown
	# Its mounts lived in a namespace that is gone; never rm -rf through one.
	[[ ${NSS_ROOT:-} == /tmp/leash_nssroot.* ]] && ! grep -qF " $NSS_ROOT/" /proc/mounts &&
		rm -rf "$NSS_ROOT"
	return 0
}

# answer DB KEY SCRIPT: what the stand-in does for `getent DB -- KEY`.
answer() {
	printf '%s\n' "$3" >"$NSS_DIR/do.$1.$2"
}

# The user and its groups as an NSS source would give them.
answer_user() {
	answer passwd "$NSS_USER" "echo '$NSS_USER:x:$NSS_UID:$NSS_GID:NSS user:/home/$NSS_USER:/bin/nss-sh'"
	answer initgroups "$NSS_USER" "printf '%-21s %s %s\n' $NSS_USER $NSS_G1 $NSS_G2"
	answer group "$NSS_GROUP" "echo '$NSS_GROUP:x:$NSS_GRP_GID:$NSS_USER'"
}

# The calls the stand-in got, one "DB KEY" a line.
calls() {
	cat "$NSS_DIR/log"
}

need_check() {
	[[ -x $CHECK ]] || must_run_or_skip "build/nss-check not built"
}

with_stub() {
	"$NSS_DIR/with-stub" "$@"
}

# probe_key KEY: KEY's value in $output (a probe report).
probe_key() {
	sed -n "s/^$1=//p" <<<"$output"
}

# assert_file FILE TEXT: FILE holds exactly TEXT (and a newline).
assert_file() {
	[[ $(cat "$1") == "$2" ]] && return 0
	printf 'expected %s to hold:\n%s\n--- it holds:\n%s\n' "$1" "$2" "$(cat "$1")" >&2
	return 1
}

# in_root ROOT CMD...: CMD chrooted in ROOT, which gets the host's /usr
# (and /bin, /lib ... where they are not links into it), NSS_DIR, a /proc
# and the stand-in as its getent.
in_root() {
	unshare -m --propagation private -- sh -c 'r=$1 dir=$2; shift 2
		mount --rbind /usr "$r/usr" && mount --bind "$dir" "$r$dir" &&
		mount --bind "$dir/getent" "$r/usr/bin/getent" &&
		mkdir -p "$r/proc" && mount -t proc proc "$r/proc" || exit 99
		for d in bin sbin lib lib64; do
			[ -L "/$d" ] || [ ! -d "/$d" ] || mount --rbind "/$d" "$r/$d" || exit 99
		done
		exec chroot "$r" "$@"' sh "$1" "$NSS_DIR" "${@:2}"
}

need_ns() {
	need_root "a private mount namespace and an identity switch"
	need_mountns
	[[ -e /usr/bin/getent ]] || must_run_or_skip "no /usr/bin/getent to stand in for"
}

# --- lib/ident/nss.c alone (nss-check runs the stand-in directly) -------------------

@test "nss: an answer is parsed as the files are: blanks, comments, the first entry" {
	need_check
	answer passwd u1 "printf '\n  # a comment\nbad line\n  u1:x:5001:5002::/h:/bin/sh\r\nu1:x:6001:6002::/other:/bin/sh\n'"
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_status 0
	assert_output $'name=u1\nuid=5001\ngid=5002\ndir=/h\nshell=/bin/sh\r'
	answer group g1 "printf 'g1:x\ng1:x:7001:u1,u2\n'"
	run "$CHECK" "$NSS_DIR/getent" group g1
	assert_output "gid=7001"
	# initgroups: the primary group and the list, sorted, once each.
	answer initgroups u1 "printf '%-21s 7003 7001 7003\n' u1"
	run "$CHECK" "$NSS_DIR/getent" initgroups u1 7002
	assert_output "groups=7001,7002,7003"
	[[ $(calls) == $'passwd u1\ngroup g1\ninitgroups u1' ]]
	# A caller that ignores SIGCHLD: getent is still waited for.
	run "$PROBE" -i CHLD -- "$CHECK" "$NSS_DIR/getent" group g1
	assert_output "gid=7001"
}

@test "nss: getent's status: 2 is no such name, any other failure is said as one" {
	need_check
	run "$CHECK" "$NSS_DIR/getent" passwd nobody_here
	assert_status 1
	assert_output "error=ENOENT"
	answer passwd u1 "exit 1"
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=EPROTO"
	answer passwd u1 'kill -KILL $$'
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=EPROTO"
	# An entry with a status that is not 0 is no answer.
	answer passwd u1 "echo 'u1:x:5001:5001::/:'; exit 3"
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=EPROTO"
	# No getent at all: no such name, nothing run.
	run "$CHECK" "$NSS_DIR/no-getent" passwd u1
	assert_output "error=ENOENT"
}

@test "nss: garbage is no entry; a group list that is not the user's is malformed" {
	need_check
	answer passwd u1 "echo 'garbage'; echo 'u1:x:notanumber:1::/:'"
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=ENOENT"
	answer group g1 "echo ':x:7001:'"       # no name
	run "$CHECK" "$NSS_DIR/getent" group g1
	assert_output "error=ENOENT"
	local bad
	for bad in "u1 7001 x" "u2 7001" "u1 7001 4294967295" "u1 -5" \
		"u1 99999999999" $'u1 7001\nu1 7002' "u17 7001"; do
		answer initgroups u1 "printf '%s\n' '$bad'"
		run "$CHECK" "$NSS_DIR/getent" initgroups u1 7000
		assert_output "error=EBADMSG"
	done
	# More than the kernel's limit, or than 1 MiB: refused, never cut.
	answer initgroups u1 "printf u1; printf ' %s' 1 2 3 4 5; echo"
	run "$CHECK" "$NSS_DIR/getent" initgroups u1 7000 5
	assert_output "error=E2BIG"
	answer passwd u1 "yes u1:x:5001:5001::/: | head -c 2000000"
	run "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=EBADMSG"
}

@test "nss: a getent that hangs is killed at the deadline, and what it started with it" {
	need_check
	answer passwd u1 "\"$NSS_DIR/probe\" -q -m $MARK -s 1000"
	BOUND=20 run bounded "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_status 1
	assert_output "error=ETIMEDOUT"
	assert_no_leftovers
	# It closed its output but does not exit: bounded too.
	answer passwd u1 "echo 'u1:x:5001:5001::/:'; exec >&-; exec \"$NSS_DIR/probe\" -q -m $MARK -s 1000"
	BOUND=20 run bounded "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_output "error=ETIMEDOUT"
	assert_no_leftovers
}

@test "nss: what getent started and left holding its output ends the read at getent's exit, not the deadline, and is killed with getent's group (issue 22)" {
	need_check
	answer passwd u1 "echo 'u1:x:5001:5001::/:'; \"$NSS_DIR/probe\" -q -m $MARK -s 1000 &"
	BOUND=20 run bounded "$CHECK" "$NSS_DIR/getent" passwd u1
	assert_status 0
	[[ ${lines[0]} == name=u1 && ${lines[1]} == uid=5001 ]]
	assert_no_leftovers
	# Its exit status still counts: 2 is no such name.
	answer passwd u2 "\"$NSS_DIR/probe\" -q -m $MARK -s 1000 & exit 2"
	BOUND=20 run bounded "$CHECK" "$NSS_DIR/getent" passwd u2
	assert_output "error=ENOENT"
	assert_no_leftovers
}

@test "nss: numbers are never asked (getent would look \" 5\" up as uid 5)" {
	need_check
	local k
	for k in 5 " 5" "+5" "00"; do
		run "$CHECK" "$NSS_DIR/getent" passwd "$k"
		assert_output "error=ENOENT"
		run "$CHECK" "$NSS_DIR/getent" group "$k"
		assert_output "error=ENOENT"
	done
	[[ -z $(calls) ]]
}

@test "nss: getent gets nothing of its caller: environment, descriptors, signals, group, directory" {
	need_check
	answer passwd u1 "\"$NSS_DIR/probe\" -e -q -o \"$NSS_DIR/seen\"; exit 2"
	cd "$TMP"
	FOO=bar LD_LIBRARY_PATH=/nonexistent run "$PROBE" -b USR1,TERM -i INT,HUP,PIPE \
		-- "$CHECK" "$NSS_DIR/getent" passwd u1 7</dev/null 8>/dev/null
	assert_output "error=ENOENT"
	# Its environment as execve gave it: PATH alone.
	assert_file "$NSS_DIR/env.passwd" "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
	# What the stand-in passed on to its child, the probe.
	local seen=$NSS_DIR/seen
	[[ $(report_get fds "$seen") == 0,1,2 ]]
	assert_file "$NSS_DIR/sig.passwd" $'SigBlk: 0000000000000000\nSigIgn: 0000000000000000'
	[[ $(report_get ignored "$seen") == none ]]
	[[ $(report_get cwd "$seen") == / ]]
	# Its own process group, led by getent.
	[[ $(report_get pgid "$seen") == "$(report_get ppid "$seen")" ]]
}

@test "nss: without close_range (ENOSYS before 5.9, EPERM or a SIGSYS from a filter) getent still gets 0, 1, 2 only" {
	need_check
	local nosys=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys} e
	[[ -x $nosys ]] || must_run_or_skip "no nosys helper (build/nosys)"
	answer passwd u1 "\"$NSS_DIR/probe\" -q -o \"$NSS_DIR/seen\"; exit 2"
	for e in ENOSYS EPERM TRAP; do
		rm -f "$NSS_DIR/seen"
		run "$nosys" -e "$e" close_range -- "$CHECK" "$NSS_DIR/getent" passwd u1 \
			7</dev/null 8>/dev/null
		assert_output "error=ENOENT"
		echo "$e: fds $(report_get fds "$NSS_DIR/seen")" >&2
		[[ $(report_get fds "$NSS_DIR/seen") == 0,1,2 ]]
	done
}

@test "nss: -v and the report say the name came from NSS; without close_range they name the fallback" {
	need_ns
	local nosys=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}
	[[ -x $nosys ]] || must_run_or_skip "no nosys helper (build/nosys)"
	answer_user
	run with_stub "$nosys" -e EPERM close_range -- \
		"$LEASH" -v --report="$NSS_DIR/r.json" -u "$NSS_USER" -- true
	assert_status 0
	[[ $output == *"leash: running as $NSS_USER ($NSS_UID), groups $NSS_GID,$NSS_G1,$NSS_G2, from NSS (getent)"* ]]
	[[ $output == *"leash: fallback: no-close-range: getent's descriptors are closed one by one: Operation not permitted"* ]]
	[[ $(jq -c .fallbacks "$NSS_DIR/r.json") == '["no-close-range"]' ]]
	[[ $(jq -r .identity.source "$NSS_DIR/r.json") == nss ]]
	# An Android app's filter: a SIGSYS, named for what it refused.
	run with_stub "$nosys" -e TRAP close_range -- \
		"$LEASH" -v --report="$NSS_DIR/r.json" -u "$NSS_USER" -- true
	assert_status 0
	[[ $output == *"leash: fallback: no-close-range: getent's descriptors are closed one by one: system call close_range refused (seccomp)"* ]]
	[[ $(jq -c .fallbacks "$NSS_DIR/r.json") == '["no-close-range"]' ]]
	# Where close_range works, nothing is said or listed.
	run with_stub "$LEASH" -v --report="$NSS_DIR/r.json" -u "$NSS_USER" -- true
	assert_status 0
	[[ $output != *"fallback:"* ]]
	[[ $(jq -c .fallbacks "$NSS_DIR/r.json") == '[]' ]]
}

# --- leash and su, with the stand-in over /usr/bin/getent (root) ---------------

@test "a user only NSS knows: its uid, gid, NSS's groups, HOME, SHELL and USER" {
	need_ns
	answer_user
	run with_stub "$LEASH" -u "$NSS_USER" -- "$PROBE" -e
	assert_status 0
	[[ $(probe_key uid) == "$NSS_UID" && $(probe_key euid) == "$NSS_UID" ]]
	[[ $(probe_key gid) == "$NSS_GID" && $(probe_key sgid) == "$NSS_GID" ]]
	[[ $(probe_key groups) == "$NSS_GID,$NSS_G1,$NSS_G2" ]]
	[[ $(probe_key env:USER) == "$NSS_USER" ]]
	[[ $(probe_key env:HOME) == "/home/$NSS_USER" ]]
	[[ $(probe_key env:SHELL) == /bin/nss-sh ]]
	[[ $(calls) == "passwd $NSS_USER"$'\n'"initgroups $NSS_USER" ]]
}

@test "a group only NSS knows: -g and -G" {
	need_ns
	answer_user
	run with_stub "$LEASH" -u 0 -g "$NSS_GROUP" -G "$NSS_GROUP,0" -- "$PROBE" -k gid
	assert_status 0
	assert_output "$NSS_GRP_GID"
	run with_stub "$LEASH" -u 0 -G "$NSS_GROUP,0" -- "$PROBE" -k groups
	assert_output "0,$NSS_GRP_GID"
	run with_stub "$LEASH" -u "$NSS_USER" -g 0 -- "$PROBE" -k groups
	assert_output 0
}

@test "--no-nss: the files only, getent never runs, and the hint says so" {
	need_ns
	answer_user
	run with_stub "$LEASH" --no-nss -u "$NSS_USER" -- true
	assert_status 125
	assert_output "leash: cannot resolve user '$NSS_USER': no such user (leash reads /etc/passwd only)"
	run with_stub "$LEASH" --no-nss -u 0 -g "$NSS_GROUP" -- true
	assert_output "leash: cannot resolve group '$NSS_GROUP': no such group (leash reads /etc/group only)"
	run with_stub "$LEASH" --no-nss -u 0 -G "0,$NSS_GROUP" -- true
	assert_output "leash: cannot resolve groups '0,$NSS_GROUP': no such group (leash reads /etc/group only)"
	[[ -z $(calls) ]]
	# Without it, a name NSS does not know either: no hint.
	run with_stub "$LEASH" -u leash_nss_nobody -- true
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_nss_nobody': no such user"
	[[ $(calls) == "passwd leash_nss_nobody" ]]
}

@test "no getent to ask (not executable): the files-only hint, nothing run" {
	need_ns
	answer_user
	cp "$NSS_DIR/getent" "$NSS_DIR/getent.off"
	chmod 644 "$NSS_DIR/getent.off"
	run unshare -m --propagation private -- sh -c \
		'mount --bind "$1" /usr/bin/getent || exit 99; exec "$2" -u "$3" -- true' \
		sh "$NSS_DIR/getent.off" "$LEASH" "$NSS_USER"
	assert_status 125
	assert_output "leash: cannot resolve user '$NSS_USER': no such user (leash reads /etc/passwd only)"
	[[ -z $(calls) ]]
	# The x bit is the difference: executable, the same file answers.
	chmod 755 "$NSS_DIR/getent.off"
	run unshare -m --propagation private -- sh -c \
		'mount --bind "$1" /usr/bin/getent || exit 99; exec "$2" -u "$3" -- true' \
		sh "$NSS_DIR/getent.off" "$LEASH" "$NSS_USER"
	assert_status 0
}

@test "su asks NSS too, in both dialects" {
	need_ns
	answer_user
	run with_stub "$SU" -s /bin/sh "$NSS_USER" -c "$PROBE -k uid; $PROBE -k groups"
	assert_status 0
	assert_output "$NSS_UID"$'\n'"$NSS_GID,$NSS_G1,$NSS_G2"
	run with_stub "$SU" -g "$NSS_GROUP" root -c "$PROBE -k gid"
	assert_output "$NSS_GRP_GID"
	run with_stub "$SU" "$NSS_USER,$NSS_GROUP" "$PROBE" -k gid
	assert_status 0
	assert_output "$NSS_GRP_GID"
	# Its errors in su's words.
	answer passwd leash_nss_junk "echo junk"
	run with_stub "$SU" leash_nss_junk -c true
	assert_status 1
	assert_output "su: user leash_nss_junk does not exist or the user entry does not contain all the required fields"
}

@test "files first: names and numbers the files know never run getent" {
	need_ns
	answer_user
	local free
	free=$(free_id 48500)
	run with_stub "$LEASH" -u nobody -g nogroup -G root,nogroup -- "$PROBE" -k uid
	assert_status 0
	assert_output "$(id -u nobody)"
	run with_stub "$LEASH" -u "$free" -g "$free" -G "$free,0" -- "$PROBE" -k uid
	assert_output "$free"
	run with_stub "$SU" nobody -s /bin/sh -c true
	assert_status 0
	[[ -z $(calls) ]]
	# The stand-in is there all along: a name the files lack reaches it.
	run with_stub "$LEASH" -u "$NSS_USER" -- true
	assert_status 0
	[[ $(calls) == "passwd $NSS_USER"$'\n'"initgroups $NSS_USER" ]]
}

@test "a getent that hangs: 'NSS lookup timed out' after 5 s, nothing left running" {
	need_ns
	answer passwd leash_nss_hang "\"$NSS_DIR/probe\" -q -m $MARK -s 1000"
	BOUND=30 run bounded "$NSS_DIR/with-stub" "$LEASH" -u leash_nss_hang -- true
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_nss_hang': NSS lookup timed out"
	assert_no_leftovers
}

@test "garbage from getent: no such user; a malformed group list: said as such" {
	need_ns
	answer passwd leash_nss_junk "echo 'not:an:entry'; echo '#$NSS_USER:x:1:1::/:'"
	run with_stub "$LEASH" -u leash_nss_junk -- true
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_nss_junk': no such user"
	answer_user
	answer initgroups "$NSS_USER" "echo 'something else entirely'"
	run with_stub "$LEASH" -u "$NSS_USER" -- true
	assert_status 125
	assert_output "leash: cannot resolve user '$NSS_USER': NSS lookup gave a malformed answer"
	answer group "$NSS_GROUP" "echo '$NSS_GROUP:x:4294967295:'"
	run with_stub "$LEASH" -u 0 -g "$NSS_GROUP" -- true
	assert_output "leash: cannot resolve group '$NSS_GROUP': number out of range"
}

@test "leash's caller reaches getent with nothing: environment, descriptors, signals" {
	need_ns
	answer passwd leash_nss_seen "\"$NSS_DIR/probe\" -e -q -o \"$NSS_DIR/seen\"; exit 2"
	FOO=bar LD_PRELOAD= LD_LIBRARY_PATH=/nonexistent run with_stub \
		"$PROBE" -b USR1 -i INT,HUP -- "$LEASH" -u leash_nss_seen -- true 7</dev/null
	assert_status 125
	assert_file "$NSS_DIR/env.passwd" "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
	[[ $(report_get fds "$NSS_DIR/seen") == 0,1,2 ]]
	assert_file "$NSS_DIR/sig.passwd" $'SigBlk: 0000000000000000\nSigIgn: 0000000000000000'
	[[ $(report_get ignored "$NSS_DIR/seen") == none ]]
}

@test "recovery images and Android: no getent is run" {
	need_ns
	answer_user
	# No /etc/passwd: Android names, never NSS.
	run with_stub sh -c 'mount -t tmpfs -o mode=755 leash-noetc /etc || exit 99
		exec "$@"' sh "$LEASH" -u "$NSS_USER" -- true
	assert_status 125
	assert_output "leash: cannot resolve user '$NSS_USER': no such user (leash reads /etc/passwd only)"
	[[ -z $(calls) ]]
	# Android (ANDROID_ROOT and /system/build.prop) beside a passwd, in a
	# chroot of the host's /usr that has the stand-in as its getent.
	local r d
	NSS_ROOT=$(mktemp -d /tmp/leash_nssroot.XXXXXX)
	r=$NSS_ROOT
	chmod 755 "$r"
	mkdir -p "$r/etc" "$r/system" "$r/usr" "$r$NSS_DIR"
	cp "$LEASH" "$r/leash"
	echo 'root:x:0:0:root:/:/bin/sh' >"$r/etc/passwd"
	for d in bin sbin lib lib64; do
		if [[ -L /$d ]]; then ln -s "$(readlink "/$d")" "$r/$d"
		elif [[ -d /$d ]]; then mkdir "$r/$d"
		fi
	done
	: >"$r/system/build.prop"
	# The root has no /dev: no pty to be had, so the runs read /dev/null
	# (at a terminal leash -u would want one, and fail on /dev/null too).
	run in_root "$r" env ANDROID_ROOT=/system /leash -u "$NSS_USER" -- /leash --version </dev/null
	assert_status 125
	assert_output "leash: cannot resolve user '$NSS_USER': no such user (leash reads /etc/passwd only)"
	[[ -z $(calls) ]]
	# The same root without build.prop is no Android: the stand-in answers.
	rm "$r/system/build.prop"
	run in_root "$r" env ANDROID_ROOT=/system /leash -u "$NSS_USER" -- /leash --version </dev/null
	assert_status 0
	[[ $(calls) == "passwd $NSS_USER"$'\n'"initgroups $NSS_USER" ]]
}
