#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# harden.bats: what a hostile target or a hostile start tried on leash
# (issue 30), beside hostile.bats: closed standard descriptors, the
# caller's umask, a seccomp filter that traps from process start on
# (libcap's constructor, close, write), /dev/tty on a standard
# descriptor, the report's path, a process walk without /proc.  Each
# case failed on the code before it (commit e4587d7).  Needs root.

bats_require_minimum_version 1.5.0
load helpers
load users
load pty-helpers
load cgroup-helpers

NOSYS=${NOSYS:-${LEASH_BUILDDIR:-$TOP/build}/nosys}

setup_file() {
	users_setup
	cg_tops_note
}

teardown_file() {
	cg_detect
	cg_remove_uid "$U_UID"
	users_teardown
	cg_tops_tidy
}

setup() {
	common_setup
	need_root "switching identity"
	# Root's own directory for reports (/tmp is refused: others write it).
	D=$TMP/own
	mkdir -m 700 "$D"
}

teardown() {
	[[ -n ${U_UID:-} ]] && pkill -KILL -u "$U_UID" 2>/dev/null
	[[ ${ACL_DIR:-} == /tmp/leash_acl.* ]] && rm -rf "$ACL_DIR"
	common_teardown
}

@test "harden: fds 1 and 2 closed: the report is still JSON and the command gets them closed" {
	local o=$U_HOME/o.$BATS_SUITE_TEST_NUMBER
	run bash -c '"$1" -v -u "$2" --report="$3/r" -- "$4" -k fds -o "$5" >&- 2>&-' \
		_ "$LEASH" "$U_NAME" "$D" "$U_PROBE" "$o"
	assert_status 0
	jq -e .exit_status "$D/r"
	[[ ,$(cat "$o"), != *,1,* && ,$(cat "$o"), != *,2,* ]]
}

@test "harden: umask 0 leaves the report neither group- nor world-writable" {
	run bash -c 'umask 0; "$1" --report="$2/r" -- true' _ "$LEASH" "$D"
	assert_status 0
	[[ $(stat -c %a "$D/r") == 644 ]]
}

@test "harden: a trapped close or write does not hang leash on its spawn pipe or waiter" {
	[[ -x $NOSYS ]] || must_run_or_skip "no nosys helper"
	local w
	for w in thread pidfd poll; do
		# The command dies of the same filter (its libc closes):
		# leash passes the SIGSYS death on (128+31).
		LEASH_WAIT=$w BOUND=10 run bounded "$NOSYS" -e TRAP close -- "$LEASH" -t 5 -- sleep 0
		assert_status 159
		LEASH_WAIT=$w BOUND=10 run bounded "$NOSYS" -e TRAP write -- "$LEASH" -t 5 -- true
		assert_status 0
	done
}

# fds_never_the_tty FILE...: each FILE lists a command's descriptors 0-2
# (readlink), and none is the caller's terminal ($TMP/tty) nor /dev/tty.
fds_never_the_tty() {
	cat "$@" >&2
	local f
	for f; do [[ $(wc -l <"$f") == 3 ]]; done
	run grep -xF -e "$(cat "$TMP/tty")" -e /dev/tty "$@"
	assert_status 1
}

@test "harden: /dev/tty on stdin (</dev/tty, xargs -o) hands the target no descriptor of the caller's terminal" {
	need_pty
	local f=$U_HOME/fds
	on_pty <<EOF
line tty > $TMP/tty; "$LEASH" -u "$U_NAME" -t 5 -- sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.1' </dev/tty; echo o''ne:\$?
expect one:0
line echo x | xargs -o "$LEASH" -u "$U_NAME" -t 5 -- sh -c 'readlink /proc/\$\$/fd/0 /proc/\$\$/fd/1 /proc/\$\$/fd/2 > $f.2'; echo t''wo:\$?
expect two:0
EOF
	fds_never_the_tty "$f.1" "$f.2"
	[[ $(sed -n 1p "$f.1") == /dev/pts/* && $(sed -n 3p "$f.1") == /dev/pts/* ]]
}

@test "harden: a report directory of root's inside one the target owns is refused: a link put there by a leftover does not move root's report" {
	# Root's victim: a root-only file the target picks.
	echo secret >"$D/victim"
	chmod 600 "$D/victim"
	mkdir -m 755 "$U_HOME/rep"
	# Earlier, as the target: root's directory swapped for a link.
	run "$LEASH" -u "$U_NAME" -- sh -c 'mv "$1/rep" "$1/rep.old" && ln -s "$2" "$1/rep"' sh "$U_HOME" "$D"
	assert_status 0
	run "$LEASH" --report="$U_HOME/rep/victim" -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot write report to '$U_HOME/rep/victim': others may write its directory, or one on its way (use one of your own, or --report-fd)"
	[[ $(cat "$D/victim") == secret && ! -e $TMP/ran ]]
	rm -rf "$U_HOME/rep" "$U_HOME/rep.old"
}

# acl_user_rwx DIR UID: DIR root's, drwxrwxr-x+, UID may write it by
# its access ACL (no setfacl needed: the xattr as the kernel keeps it).
acl_user_rwx() {
	chmod 775 "$1"
	python3 -c '
import os, struct, sys
e = [(1, 7, 0xffffffff), (2, 7, int(sys.argv[2])), (4, 5, 0xffffffff),
     (0x10, 7, 0xffffffff), (0x20, 5, 0xffffffff)]
os.setxattr(sys.argv[1], "system.posix_acl_access",
            struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *x) for x in e))
' "$1" "$2"
}

@test "harden: a directory the target may write by a POSIX ACL is refused: the command cannot put its link in place of root's temporary" {
	command -v python3 >/dev/null || must_run_or_skip "no python3 to set an ACL"
	# Under /tmp (sticky: no one may move a directory of root's), where
	# the target can reach it.
	local a
	a=$(mktemp -d /tmp/leash_acl.XXXXXX)
	ACL_DIR=$a
	acl_user_rwx "$a" "$U_UID" || must_run_or_skip "no POSIX ACLs on $TMP's filesystem"
	echo secret >"$D/victim"
	chmod 600 "$D/victim"
	# The command moves root's temporary aside and links its name to
	# the victim; leash would rename that link into place.
	run "$LEASH" -u "$U_NAME" --report="$a/r" -- sh -c 't=$(ls "$1"/r.??????) && mv "$t" "$1/aside" && ln -s "$2" "$t"' sh "$a" "$D/victim"
	assert_status 125
	assert_output "leash: cannot write report to '$a/r': others may write its directory (use one of your own, or --report-fd)"
	[[ ! -e $a/r && ! -L $a/r ]]
}

# no_proc_sys CMD...: CMD where /proc and /sys are empty directories, as
# in a rescue or image-build chroot (a private mount namespace).
no_proc_sys() {
	unshare -m sh -c 'mount -t tmpfs none /proc && mount -t tmpfs none /sys && exec "$@"' sh "$@"
}

@test "harden: no procfs on /proc and no leaf: the tree kill says it failed, leftovers unknown; --kill-leftovers refuses to start" {
	need_mountns
	# A sanitizer runtime needs /proc itself (SANITIZE=1 builds).
	no_proc_sys "$LEASH" -t 5 true 2>/dev/null ||
		skip "this leash build does not run without /proc"
	# The escapee holds none of bats's output (else the test waits its
	# 100 s out), and is ended by its pid.
	run --separate-stderr no_proc_sys "$LEASH" -u "$U_NAME" --report="$D/r" -t 1 -k 1 -- sh -c 'setsid sleep 100 </dev/null >/dev/null 2>&1 & echo $! >"$1"; exec sleep 100' sh "$U_HOME/escapee.$BATS_SUITE_TEST_NUMBER"
	kill "$(cat "$U_HOME/escapee.$BATS_SUITE_TEST_NUMBER")"
	assert_status 124
	[[ $stderr == *"cannot send signal TERM to every process of the command (tree)"* ]]
	jq -e '.kills_failed[0].target == "tree" and .leftovers == null' "$D/r"
	run --separate-stderr no_proc_sys "$LEASH" -u "$U_NAME" --kill-leftovers -t 1 -- touch "$TMP/ran"
	assert_status 125
	[[ $stderr == "leash: --kill-leftovers: no procfs on /proc to find the command's tree, and no cgroup leaf" ]]
	[[ ! -e $TMP/ran ]]
}

# frozen_fs DIR: an ext4 image mounted on DIR (in the caller's mount
# namespace: call it in a private one), writable by all, then frozen:
# whoever writes there sleeps in the kernel (state D) until fsfreeze -u.
frozen_fs() {
	truncate -s 16M "$TMP/img" && mkfs.ext4 -q -F "$TMP/img" &&
		mkdir -p "$1" && mount -o loop "$TMP/img" "$1" &&
		chmod 777 "$1" && fsfreeze -f "$1"
}

@test "harden: a leaf member stuck in the kernel: the KILL goes out and leash ends within the waits summed in supervise.h" {
	need_mountns
	cg_detect
	[[ -n $LEAF_TOP ]] || must_run_or_skip "no cgroup2 for a leaf"
	command -v mkfs.ext4 >/dev/null && command -v fsfreeze >/dev/null ||
		must_run_or_skip "no mkfs.ext4 or fsfreeze"
	# -t 1 -k 1: TERM at 1 s ends the command; its leftover, writing to
	# a frozen filesystem, is due its KILL at 2 s and cannot die of it
	# (nor be frozen) until the filesystem thaws.  The waits that it
	# stretches to their bounds (supervise.h): the freeze before each
	# signal (100 ms), the leaf's emptying (1 s), then it is kept.
	export -f frozen_fs
	run unshare -m --propagation private bash -c '
		TMP=$1 m=$5; frozen_fs "$m" || exit 99
		date +%s.%N >"$TMP/t0"
		"$2" -u "$3" --report="$4/r" -t 1 -k 1 -- sh -c "(echo x >$m/f &); exec sleep 100"
		s=$?
		date +%s.%N >"$TMP/t1"
		fsfreeze -u "$m"
		sleep 0.2
		umount -l "$m"
		exit $s' bash "$TMP" "$LEASH" "$U_NAME" "$D" "$U_HOME/mnt"
	assert_status 124
	local t
	t=$(awk '{ t[NR] = $1 } END { printf "%.3f\n", t[2] - t[1] }' "$TMP/t0" "$TMP/t1")
	echo "ended after $t s (KILL due at 2 s)" >&3
	jq -c '.signals_sent' "$D/r" >&3
	# The KILL due at 2 s went out within W1 (100 ms), and leash was
	# gone W3 (1 s) after that (supervise.h; no pty: no W2); 0.4 s and
	# 0.75 s more for a busy machine.
	jq -e '[.signals_sent[] | select(.signal == "KILL" and .at < 2 + 0.1 + 0.4)] | length == 1' "$D/r"
	awk -v t="$t" 'BEGIN { exit !(t < 2 + 0.1 + 1 + 0.75) }'
	cg_remove_uid "$U_UID"
	rmdir "$U_HOME/mnt"
}
