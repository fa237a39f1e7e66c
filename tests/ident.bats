#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# ident.bats: the native identity options (-u -g -G --keep-caps
# --no-new-privs -l -p -w -C), checked from inside the child with the probe.
# Needs root (test users are created in setup_file, removed in teardown_file).

bats_require_minimum_version 1.5.0

load helpers
load users


# ids KEY...: the probe's report as the target, via leash.
probe_as() {
	run "$LEASH" "$@" -- "$PROBE" -e
}

@test "a user by name: its uid, gid and groups from passwd and group, all three ids" {
	probe_as -u "$U_NAME"
	assert_status 0
	for k in uid euid suid; do assert_key $k "$U_UID"; done
	for k in gid egid sgid; do assert_key $k "$G_PRIM_GID"; done
	assert_key groups "$G_PRIM_GID,$G_SUPP_GID"
}

@test "a user by number with a passwd entry: same as by name" {
	probe_as -u "$U_UID"
	assert_status 0
	assert_key uid "$U_UID"
	assert_key gid "$G_PRIM_GID"
	assert_key groups "$G_PRIM_GID,$G_SUPP_GID"
	assert_key env:USER "$U_NAME"
}

@test "a bare number without an entry: gid = uid, groups = {gid}" {
	probe_as -u "$U_BARE"
	assert_status 0
	assert_key uid "$U_BARE"
	assert_key gid "$U_BARE"
	assert_key groups "$U_BARE"
	assert_key env:USER "$U_BARE"
	assert_key env:HOME /
}

@test "the caller's supplementary groups are never kept" {
	run setpriv --groups 4,24,27 -- "$LEASH" -u "$U_BARE" -- "$PROBE" -k groups
	assert_status 0
	assert_output "$U_BARE"
	run setpriv --groups 4,24,27 -- "$LEASH" -u "$U_NAME" -- "$PROBE" -k groups
	assert_output "$G_PRIM_GID,$G_SUPP_GID"
}

@test "the highest id 4294967294 is accepted" {
	probe_as -u 4294967294
	assert_status 0
	assert_key uid 4294967294
	assert_key gid 4294967294
}

@test "bad user forms: -1, 4294967295, empty, trailing junk, unknown name" {
	run "$LEASH" -u 4294967295 -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot resolve user '4294967295': number out of range"
	run "$LEASH" -u 99999999999999999999 -- touch "$TMP/ran"
	assert_status 125
	run "$LEASH" -u -1 -- touch "$TMP/ran"
	assert_status 125
	[[ $output == "leash: cannot resolve user '-1': "* ]]
	run "$LEASH" -u '' -- touch "$TMP/ran"
	assert_status 125
	run "$LEASH" -u 12x -- touch "$TMP/ran"
	assert_status 125
	run "$LEASH" -u leash_no_such_user_x -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot resolve user 'leash_no_such_user_x': no such user$(nss_hint passwd)"
	[[ ! -e $TMP/ran ]]
}

@test "Android user names where there is no /etc/passwd" {
	need_mountns
	local spec
	for spec in shell:2000 system:1000 radio:1001 u0_a35:10035 app_35:10035 \
		u10_system:1001000 u0_i7:90007 u10_a0:1010000 u0_shell:2000 nobody:9999; do
		run without_etc "$LEASH" -u "${spec%%:*}" -- "$PROBE" -k uid
		assert_status 0
		assert_output "${spec#*:}"
		run without_etc "$LEASH" -u "${spec%%:*}" -- "$PROBE" -k gid
		assert_output "${spec#*:}"
	done
	# A bare number is named as bionic names it.
	run without_etc "$LEASH" -u 10035 -- "$PROBE" -k env:USER
	assert_output u0_a35
}

@test "on a Linux host a name passwd lacks is no one: -u system, -u u0_a35 refused" {
	local name
	for name in system shell u0_a35 app_35 u10_system radio; do
		getent passwd "$name" >/dev/null && continue
		run "$LEASH" -u "$name" -- touch "$TMP/ran"
		assert_status 125
		assert_output "leash: cannot resolve user '$name': no such user$(nss_hint passwd)"
	done
	run "$LEASH" -u "$U_NAME" -g inet -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot resolve group 'inet': no such group$(nss_hint group)"
	[[ ! -e $TMP/ran ]]
	# Numbers keep working, named by their number.
	run "$LEASH" -u 10035 -- "$PROBE" -k env:USER
	assert_output 10035
}

@test "passwd wins over Android names (nobody is 65534 here, 9999 on Android)" {
	run "$LEASH" -u nobody -- "$PROBE" -k uid
	assert_output "$(id -u nobody)"
}

@test "bad Android forms are unknown users, also without /etc/passwd" {
	need_mountns
	for spec in u0_a u0_a10000 u1001_a1 u0_x1 app_ app_10000 all_a35 u0_a35_cache u_a1; do
		run without_etc "$LEASH" -u "$spec" -- true
		assert_status 125
		assert_output "leash: cannot resolve user '$spec': no such user (leash reads /etc/passwd only)"
	done
}

@test "Android group names without /etc/group: all_a35, u0_a35_cache, inet" {
	need_mountns
	run without_etc "$LEASH" -u "$U_BARE" -g all_a35 -G u0_a35_cache,inet,u10_a7 -- "$PROBE"
	assert_status 0
	assert_key gid 50035
	assert_key groups 3003,20035,1010007
}

@test "-g alone: that gid and groups = {gid}" {
	probe_as -u "$U_NAME" -g "$G_OTHER"
	assert_status 0
	assert_key gid "$G_OTHER_GID"
	assert_key sgid "$G_OTHER_GID"
	assert_key groups "$G_OTHER_GID"
}

@test "-G: exactly these groups, the user's gid stays" {
	probe_as -u "$U_NAME" -G "$G_OTHER,$U_BARE"
	assert_status 0
	assert_key gid "$G_PRIM_GID"
	assert_key groups "$G_OTHER_GID,$U_BARE"
}

@test "bad group forms" {
	run "$LEASH" -u "$U_NAME" -g leash_no_such_group -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot resolve group 'leash_no_such_group': no such group$(nss_hint group)"
	for list in "1,,2" "" "," "4294967295" "-1" "5x" "1,leash_no_such_group"; do
		run "$LEASH" -u "$U_NAME" -G "$list" -- touch "$TMP/ran"
		assert_status 125
	done
	run "$LEASH" -u "$U_NAME" -g 4294967295 -- touch "$TMP/ran"
	assert_status 125
	[[ ! -e $TMP/ran ]]
}

@test "more groups than NGROUPS_MAX (65536) is an error, not a truncation" {
	need_mountns
	local f=$TMP/etc/group
	mkdir "$TMP/etc" "$TMP/etc.ok"
	cp /etc/group "$f"
	awk -v u="$U_NAME" 'BEGIN { for (i = 0; i < 65537; i++) printf "lg%d:x:%d:%s\n", i, 3000000 + i, u }' >>"$f"
	run unshare -m --propagation private -- sh -c "$(over_etc "$TMP/etc")"' && exec "$1" -u "$2" -- true' sh "$LEASH" "$U_NAME"
	assert_status 125
	assert_output "leash: cannot resolve user '$U_NAME': more groups than NGROUPS_MAX"
	# 65536 - 2 extra groups + primary + supplementary = 65536: allowed.
	head -n -3 "$f" >"$TMP/etc.ok/group"
	run unshare -m --propagation private -- sh -c "$(over_etc "$TMP/etc.ok")"' && exec "$1" -u "$2" -- id -G' sh "$LEASH" "$U_NAME"
	assert_status 0
	[[ $(wc -w <<<"$output") == 65536 ]]
}

@test "no capability is left after switching to a non-root user" {
	probe_as -u "$U_NAME"
	assert_key CapInh 0000000000000000
	assert_key CapPrm 0000000000000000
	assert_key CapEff 0000000000000000
	assert_key CapAmb 0000000000000000
	assert_key NoNewPrivs 0
}

@test "a caller's inheritable and ambient capabilities do not reach the user" {
	run setpriv --inh-caps +net_raw,+sys_nice --ambient-caps +net_raw -- \
		"$LEASH" -u "$U_NAME" -- "$PROBE" -e
	assert_status 0
	assert_key CapInh 0000000000000000
	assert_key CapAmb 0000000000000000
	assert_key CapPrm 0000000000000000
}

@test "capabilities are dropped even when the caller asked the kernel to keep them" {
	# SECBIT_NO_SETUID_FIXUP: setresuid alone would leave every capability.
	run setpriv --securebits +no_setuid_fixup -- "$LEASH" -u "$U_NAME" -- "$PROBE"
	assert_status 0
	assert_key uid "$U_UID"
	for k in CapInh CapPrm CapEff CapAmb; do assert_key $k 0000000000000000; done
	run setpriv --securebits +no_setuid_fixup -- "$LEASH" -u "$U_NAME" --keep-caps net_raw -- "$PROBE"
	for k in CapInh CapPrm CapEff CapAmb; do assert_key $k 0000000000002000; done
}

@test "root stays root: a root target keeps root's capabilities" {
	probe_as -u root
	assert_status 0
	assert_key uid 0
	assert_key groups 0
	[[ $(probe_get CapEff) == "$(probe_get CapBnd)" ]]
}

@test "--keep-caps: the named capabilities as ambient, permitted, effective, inheritable" {
	probe_as -u "$U_NAME" --keep-caps cap_net_bind_service,NET_RAW
	assert_status 0
	assert_key uid "$U_UID"
	for k in CapInh CapPrm CapEff CapAmb; do assert_key $k 0000000000002400; done
	# Ambient capabilities survive a further exec (sh execs the probe).
	run "$LEASH" -u "$U_NAME" --keep-caps net_bind_service -- sh -c 'exec "$1" -k CapEff' sh "$PROBE"
	assert_output 0000000000000400
}

@test "--keep-caps with an unknown name fails and runs nothing" {
	run "$LEASH" -u "$U_NAME" --keep-caps cap_no_such_thing -- touch "$TMP/ran"
	assert_status 125
	[[ $output == *"cap"* ]]
	run "$LEASH" -u "$U_NAME" --keep-caps 12 -- touch "$TMP/ran"
	assert_status 125
	[[ ! -e $TMP/ran ]]
	# libcap's parser stops at a delimiter: junk after a name is no name.
	local junk
	for junk in 'cap_net_raw bogus' cap_net_raw=eip cap_net_raw+ep; do
		run "$LEASH" -u "$U_NAME" --keep-caps "$junk" -- touch "$TMP/ran"
		assert_status 125
		[[ $output == "leash: invalid capability "*" in --keep-caps" ]]
		[[ ! -e $TMP/ran ]]
	done
}

@test "--keep-caps of a capability leash does not hold is an error, never ignored" {
	run setpriv --bounding-set -net_raw -- "$LEASH" -u "$U_NAME" --keep-caps net_raw -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: cannot switch identity: capabilities: Operation not permitted"
	[[ ! -e $TMP/ran ]]
}

@test "--no-new-privs sets the flag" {
	probe_as -u "$U_NAME" --no-new-privs
	assert_key NoNewPrivs 1
}

@test "ids cannot be regained: setuid(0) and setgroups fail for the command" {
	# setpriv exits 127 when the kernel refuses (SETPRIV_EXIT_PRIVERR).
	run -127 "$LEASH" -u "$U_NAME" -- setpriv --reuid=0 -- true
	[[ $output == *"setresuid failed: Operation not permitted"* ]]
	run -127 "$LEASH" -u "$U_NAME" -- setpriv --clear-groups -- true
	[[ $output == *"setgroups failed: Operation not permitted"* ]]
	run -127 "$LEASH" -u "$U_NAME" -- setpriv --regid=0 --keep-groups -- true
	[[ $output == *"setresgid failed: Operation not permitted"* ]]
}

@test "environment, default: HOME SHELL USER LOGNAME of the target, the rest kept" {
	FOO=bar PATH=$PATH:/leash/x probe_as -u "$U_NAME"
	assert_status 0
	assert_target_env
}

@test "environment, -l: only TERM and the whitelist, PATH reset, cwd = HOME" {
	TERM=vt100 FOO=bar BAZ=qux IFS=: probe_as -u "$U_NAME" -l -w BAZ
	assert_status 0
	assert_key env:TERM vt100
	assert_key env:BAZ qux
	assert_key env:HOME "$U_HOME"
	assert_key env:USER "$U_NAME"
	assert_key env:LOGNAME "$U_NAME"
	assert_key env:SHELL /bin/sh
	assert_key env:PATH "$(login_path "$U_NAME")"
	assert_key cwd "$U_HOME"
	[[ -z $(probe_get env:FOO) && -z $(probe_get env:IFS) ]]
	[[ $(grep -c '^env:' <<<"$output") == 7 ]]
	# A whitelisted HOME does not override the target's.
	HOME=/root probe_as -u "$U_NAME" -l -w HOME
	assert_key env:HOME "$U_HOME"
}

@test "environment, -l as root: PATH with the sbin directories (login.defs's ENV_SUPATH, as su -)" {
	probe_as -u root -l
	assert_key env:PATH "$(login_path root)"
	assert_key cwd /root
}

@test "environment, -p: everything kept" {
	HOME=/leash/home USER=someone FOO=bar probe_as -u "$U_NAME" -p
	assert_status 0
	assert_key env:HOME /leash/home
	assert_key env:USER someone
	assert_key env:FOO bar
}

@test "-l with no command runs the user's shell as a login shell in HOME" {
	run "$LEASH" -u "$U_NAME" -l <<<'echo "argv0=$0"; echo "cwd=$(pwd)"; id -u'
	assert_status 0
	[[ $(probe_get argv0) == -sh ]]
	[[ $(probe_get cwd) == "$U_HOME" ]]
	[[ ${lines[-1]} == "$U_UID" ]]
}

@test "-C changes directory, as the target" {
	local d
	d=$(shared_tmpdir)
	probe_as -u "$U_NAME" -C "$d"
	assert_key cwd "$d"
	chmod 700 "$d"
	run "$LEASH" -u "$U_NAME" -C "$d" -- touch "$TMP/ran"
	assert_status 125
	[[ ! -e $TMP/ran ]]
	rm -rf "$d"
}

@test "a uid change, standard input no terminal: a new session without a controlling terminal" {
	# (At a terminal the session has a pty: tests/pty.bats.)
	run "$LEASH" -u "$U_NAME" -- "$PROBE" -e </dev/null
	[[ $(probe_get sid) == "$(probe_get pid)" ]]
	assert_key ctty none
}

@test "TIOCSTI cannot reach the caller's terminal (under script)" {
	tiocsti_setup
	# Without a pty: a session with no terminal at all.  (With the pty,
	# the default at a terminal, the push lands in the pty's own queue:
	# tests/pty.bats.)
	on_tty "$LEASH --no-pty -u $U_NAME -- perl $TIOCSTI"
	assert_tiocsti_refused
	# The control: --foreground keeps the terminal; where the kernel still
	# allows TIOCSTI (dev.tty.legacy_tiocsti=1) the injection then works.
	if legacy_tiocsti; then
		on_tty "$LEASH --foreground -u $U_NAME -- perl $TIOCSTI"
		[[ $output == *injected* ]]
	fi
}

@test "exit statuses as the target: the command's, and its signal death" {
	run "$LEASH" -u "$U_NAME" -- sh -c 'exit 7'
	assert_status 7
	run "$LEASH" -u "$U_NAME" -- sh -c 'kill -TERM $$'
	assert_status 143
	# The caller's PATH is kept: one the user may search (root's may not be).
	PATH=/usr/bin:/bin run -127 "$LEASH" -u "$U_NAME" -- leash-no-such-command
	run -126 "$LEASH" -u "$U_NAME" -- /etc/passwd
}

@test "RLIMIT_NPROC reached at exec: 126, and nothing runs as root" {
	command -v prlimit >/dev/null || skip "no prlimit"
	# One process of the user already runs, so a limit of 0 is exceeded.
	setpriv --reuid="$U_UID" --regid="$G_PRIM_GID" --clear-groups -- \
		"$PROBE" -q -m "$MARK" -s 30 &
	track $!
	sleep 0.2
	run prlimit --nproc=0 -- "$LEASH" -u "$U_NAME" -- touch "$TMP/ran"
	assert_status 126
	assert_output "leash: failed to run command 'touch': Resource temporarily unavailable"
	[[ ! -e $TMP/ran ]]
}

@test "no descriptor of leash's reaches the command" {
	run "$PROBE" -k fds
	local direct=$output
	run "$LEASH" -u "$U_NAME" -- "$PROBE" -k fds
	assert_status 0
	assert_output "$direct"
	run "$LEASH" -u "$U_NAME" -l -- "$PROBE" -k fds
	assert_output "$direct"
	run "$LEASH" -u "$U_NAME" -t 10 -- "$PROBE" -k fds
	assert_output "$direct"
}

@test "a non-root caller is refused: leash does not authenticate" {
	run as_nobody "$LEASH" -u root -- touch "$TMP/ran"
	assert_status 125
	[[ $output == *"does not authenticate"* ]]
	run as_nobody "$LEASH" -u "$U_NAME" -- true
	assert_status 125
	[[ ! -e $TMP/ran ]]
}

@test "a non-root caller may switch to what it already is: its own groups need no privilege" {
	local g
	g=$(id -g nobody)
	run setpriv --reuid=65534 --regid="$g" --groups="$g" --inh-caps=-all -- \
		"$LEASH" -u nobody -- "$PROBE" -e
	assert_status 0
	assert_key uid 65534
	assert_key groups "$g"
}

@test "setuid or with file capabilities, leash refuses to run" {
	local d
	d=$(shared_tmpdir)
	if findmnt -no OPTIONS -T "$d" 2>/dev/null | grep -qw nosuid; then
		rm -rf "$d"
		must_run_or_skip "/tmp is mounted nosuid"
	fi
	cp "$LEASH" "$d/leash"
	chmod 4755 "$d/leash"
	run as_nobody "$d/leash" -u root -- id -u
	assert_status 125
	assert_output "leash: refusing to run setuid or with file capabilities: leash does not authenticate"
	ln -s leash "$d/su"
	run as_nobody "$d/su" -c 'id -u'
	assert_status 1     # su's own-failure status, in su's voice
	assert_output "su: refusing to run setuid or with file capabilities: leash does not authenticate"
	if command -v setcap >/dev/null; then
		cp "$LEASH" "$d/leash-cap"
		setcap cap_setuid,cap_setgid+ep "$d/leash-cap"
		run as_nobody "$d/leash-cap" -u root -- id -u
		assert_status 125
		assert_output "leash: refusing to run setuid or with file capabilities: leash does not authenticate"
	fi
	rm -rf "$d"
}

@test "without /etc/passwd (a recovery image): numbers and Android names, Android PATH" {
	command -v chroot >/dev/null || skip "no chroot"
	local r
	r=$(shared_tmpdir)
	mkdir -p "$r/system/bin"
	cp "$LEASH" "$r/leash"
	cp "$PROBE" "$r/probe"
	cp "$PROBE" "$r/system/bin/sh"
	# An empty root has no dynamic loader: only static builds run there.
	# Nor a /dev: no pty to be had, so the runs read /dev/null, or at a
	# terminal leash would say it runs without one.
	if ! chroot "$r" /leash --version >/dev/null 2>&1 ||
	   ! chroot "$r" /probe -k pid >/dev/null 2>&1; then
		rm -rf "$r"
		skip "leash or the probe is not statically linked"
	fi
	run chroot "$r" /leash -u 10035 -- /probe -e </dev/null
	assert_status 0
	assert_key uid 10035
	assert_key groups 10035
	assert_key env:USER u0_a35
	assert_key env:HOME /
	assert_key env:SHELL /system/bin/sh
	run chroot "$r" /leash -u shell -l -- /probe -e </dev/null
	assert_status 0
	assert_key uid 2000
	[[ $(probe_get env:PATH) == *:/system/bin:* ]]
	run chroot "$r" /leash -u root -- /probe -k uid </dev/null
	assert_output 0
	rm -rf "$r"
}

@test "Android names on Android: ANDROID_ROOT and /system/build.prop, even beside a passwd" {
	command -v chroot >/dev/null || skip "no chroot"
	local r
	r=$(shared_tmpdir)
	mkdir -p "$r/system/bin" "$r/etc"
	cp "$LEASH" "$r/leash"
	cp "$PROBE" "$r/probe"
	# (No /dev there either: the runs read /dev/null, as above.)
	if ! chroot "$r" /leash --version >/dev/null 2>&1 ||
	   ! chroot "$r" /probe -k pid >/dev/null 2>&1; then
		rm -rf "$r"
		skip "leash or the probe is not statically linked"
	fi
	echo 'root:x:0:0:root:/:/probe' >"$r/etc/passwd"
	: >"$r/system/build.prop"
	run env ANDROID_ROOT=/system chroot "$r" /leash -u shell -- /probe -k uid </dev/null
	assert_status 0
	assert_output 2000
	run env ANDROID_ROOT=/system chroot "$r" /leash -u root -g inet -- /probe -k gid </dev/null
	assert_output 3003
	# Either alone is not Android: a passwd lacking the name, no one.
	run env -u ANDROID_ROOT chroot "$r" /leash -u shell -- /probe -k uid </dev/null
	assert_status 125
	assert_output "leash: cannot resolve user 'shell': no such user (leash reads /etc/passwd only)"
	rm "$r/system/build.prop"
	run env ANDROID_ROOT=/system chroot "$r" /leash -u shell -- /probe -k uid </dev/null
	assert_status 125
	rm -rf "$r"
}

@test "an error reading /etc/passwd is said as itself (EMFILE), not as a bad name" {
	command -v prlimit >/dev/null || skip "no prlimit"
	# A dynamic build (SANITIZE=1) cannot even load its libraries so.
	prlimit --nofile=3 -- "$LEASH" --version >/dev/null 2>&1 || skip "needs a static build"
	run prlimit --nofile=3 -- "$LEASH" -u "$U_NAME" -- touch "$TMP/ran"
	assert_status 125
	# musl and glibc word EMFILE differently.
	[[ $output == "leash: cannot resolve user '$U_NAME': No file descriptors available" ||
	   $output == "leash: cannot resolve user '$U_NAME': Too many open files" ]]
	run prlimit --nofile=3 -- "$LEASH" -g "$G_OTHER" -- true
	assert_status 125
	[[ $output == "leash: cannot resolve group '$G_OTHER': No file descriptors available" ||
	   $output == "leash: cannot resolve group '$G_OTHER': Too many open files" ]]
	[[ ! -e $TMP/ran ]]
}

@test "a fresh session keyring: root's key is neither readable nor writable by the user" {
	command -v keyctl >/dev/null || must_run_or_skip "no keyctl (keyutils)"
	run in_keyring "$LEASH" -u "$U_NAME" -- sh -c "$KEY_PROBE"
	assert_status 0
	assert_key_private
	run in_keyring "$LEASH" -u "$U_NAME" -l -- sh -c "$KEY_PROBE"
	assert_key_private
	run in_keyring "$LEASH" -u "$U_NAME" --foreground -t 10 -- sh -c "$KEY_PROBE"
	assert_key_private
	run in_keyring "$LEASH" -u 65534 -- sh -c "$KEY_PROBE"
	assert_key_private
	# The control: no uid change, no new keyring; root's key is there.
	run in_keyring "$LEASH" -u root -- sh -c "$KEY_PROBE"
	[[ $output == *key-read* && $output == *key-written* ]]
}

@test "the fresh keyring is root's to pay for: a target whose key quota is full still starts" {
	command -v keyctl >/dev/null || must_run_or_skip "no keyctl (keyutils)"
	local d
	d=$(shared_tmpdir)
	chown "$U_UID" "$d"
	# The user fills its quota (maxkeys, 200 by default) and holds it.
	setpriv --reuid="$U_UID" --regid="$G_PRIM_GID" --clear-groups -- keyctl session - sh -c \
		'i=0; while keyctl add user "k$i" v @s >/dev/null 2>&1; do i=$((i + 1)); done
		echo "$i" >"$1.tmp" && mv "$1.tmp" "$1" && exec sleep 60' sh "$d/full" >/dev/null &
	track $!
	wait_file "$d/full" 30
	run in_keyring "$LEASH" -u "$U_NAME" -- sh -c "$KEY_PROBE"
	kill_tracked "${TRACKED[-1]}"
	assert_status 0
	assert_key_private
}

@test "-l when the target cannot enter its home: the warning, then /" {
	need_mountns
	cd "$U_HOME"
	run "$LEASH" -u nobody -l -- /bin/pwd
	assert_status 0
	assert_output "leash: warning: cannot change directory to '$(getent passwd nobody | cut -d: -f6)': No such file or directory
/"
	# A home that exists but is closed to the user (root can stat it).
	local d
	d=$(shared_tmpdir)
	chmod 700 "$d"
	run unshare -m --propagation private -- sh -c 'mount --bind "$1" "$2" && exec "$3" -u "$4" -l -- /bin/pwd' \
		sh "$d" "$U_HOME" "$LEASH" "$U_NAME"
	assert_status 0
	assert_output "leash: warning: cannot change directory to '$U_HOME': Permission denied
/"
	# An explicit -C stays an error.
	run "$LEASH" -u nobody -l -C /nonexistent -- /bin/pwd
	assert_status 125
	assert_output "leash: cannot change directory to '/nonexistent': No such file or directory"
}
