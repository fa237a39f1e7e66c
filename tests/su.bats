#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# su.bats: the su personality, util-linux and AOSP dialects.
# Needs root (test users are created in setup_file, removed in teardown_file).
#
# Dialect rule under test: AOSP when the first argument does not start
# with '-' and either contains a comma or is followed by an argument that
# does not start with '-'; util-linux otherwise.

bats_require_minimum_version 1.5.0

load helpers
load users

# Called as "su" from PATH, so messages start with "su: " as util-linux's.
SU=$(_helpers_abs "${SU:-$TOP/build/su}")
if [[ ! -e $BIN/su ]]; then
	ln -sfn "$SU" "$BIN/su"
fi


# --- util-linux dialect ------------------------------------------------------

@test "no user: root is the default target" {
	run su -c 'id -u'
	assert_status 0
	assert_output 0
}

@test "POSIXLY_CORRECT: options stop at USER, as glibc's getopt makes util-linux su do" {
	run env POSIXLY_CORRECT=1 "$SU" root -c 'echo [$0] [$1]' -s /bin/sh
	assert_output "[-s] [/bin/sh]"
	run "$SU" root -c 'echo [$0] [$1]' -s /bin/sh
	assert_output "[sh] []"
	if [[ -x /bin/su ]] && /bin/su --version 2>/dev/null | grep -q util-linux; then
		run env POSIXLY_CORRECT=1 /bin/su root -c 'echo [$0] [$1]' -s /bin/sh
		assert_output "[-s] [/bin/sh]"
	fi
}

@test "su USER -c CMD: the user's uid, gid, groups; options before or after USER" {
	run su "$U_NAME" -c "$U_PROBE"
	assert_status 0
	for k in uid euid suid; do assert_key $k "$U_UID"; done
	for k in gid egid sgid; do assert_key $k "$G_PRIM_GID"; done
	assert_key groups "$G_PRIM_GID,$G_SUPP_GID"
	assert_key CapPrm 0000000000000000
	assert_key CapInh 0000000000000000
	assert_key CapAmb 0000000000000000
	run su -c "$U_PROBE -k uid" "$U_NAME"
	assert_output "$U_UID"
	run su --command="$U_PROBE -k uid" -- "$U_NAME"
	assert_output "$U_UID"
}

@test "numbers and Android names as USER (util-linux 2.38 takes names only)" {
	need_mountns
	run su "$U_BARE" -c "$U_PROBE -k groups"
	assert_status 0
	assert_output "$U_BARE"
	run su 2000 -c 'id -u'
	assert_output 2000
	# Android names where there is no /etc/passwd; on this host, no one.
	run without_etc "$SU" u0_a35 -c 'id -u'
	assert_output 10035
	if ! getent passwd u0_a35 >/dev/null; then
		run su u0_a35 -c 'touch "$TMP/ran"'
		assert_status 1
		assert_output "su: user u0_a35 does not exist or the user entry does not contain all the required fields"
		[[ ! -e $TMP/ran ]]
	fi
}

@test "the caller's groups are not kept" {
	run setpriv --groups 4,24 -- su "$U_BARE" -c 'id -G'
	assert_output "$U_BARE"
}

@test "unknown user: util-linux's message, status 1, nothing runs" {
	run su leash_no_such_user -c "touch $TMP/ran"
	assert_status 1
	assert_output "su: user leash_no_such_user does not exist or the user entry does not contain all the required fields"
	run su 4294967295 -c "touch $TMP/ran"
	assert_status 1
	[[ ! -e $TMP/ran ]]
}

@test "-g and -G: exactly the named groups; the first -G is primary without -g" {
	run su -g "$G_OTHER" -G "$G_SUPP" "$U_NAME" -c "$U_PROBE"
	assert_status 0
	assert_key gid "$G_OTHER_GID"
	assert_key groups "$G_SUPP_GID,$G_OTHER_GID"
	run su -G "$G_OTHER" --supp-group "$G_SUPP" "$U_NAME" -c "$U_PROBE"
	assert_key gid "$G_OTHER_GID"
	assert_key groups "$G_SUPP_GID,$G_OTHER_GID"
	run su --group="$G_OTHER" "$U_NAME" -c "$U_PROBE"
	assert_key gid "$G_OTHER_GID"
	assert_key groups "$G_OTHER_GID"
}

@test "an unknown group: util-linux's message, status 1" {
	run su -g leash_no_such_group "$U_NAME" -c "touch $TMP/ran"
	assert_status 1
	assert_output "su: group leash_no_such_group does not exist"
	run su -G leash_no_such_group "$U_NAME" -c "touch $TMP/ran"
	assert_status 1
	[[ ! -e $TMP/ran ]]
}

@test "environment: HOME SHELL USER LOGNAME set, the rest kept" {
	FOO=bar PATH=$PATH:/leash/x run su "$U_NAME" -c "$U_PROBE -e"
	assert_status 0
	assert_target_env
}

@test "environment, root target: USER and LOGNAME are left alone (util-linux)" {
	USER=someone LOGNAME=someone run su root -c "$U_PROBE -e"
	assert_key env:USER someone
	assert_key env:HOME /root
}

@test "-m/-p: environment kept, the shell from \$SHELL" {
	HOME=/leash/home USER=someone SHELL=/bin/sh run su -m "$U_NAME" -c "$U_PROBE -e"
	assert_status 0
	assert_key env:HOME /leash/home
	assert_key env:USER someone
	SHELL=$U_PROBE run su -p "$U_NAME"
	assert_status 0
	assert_key argv0 probe
	assert_key uid "$U_UID"
}

@test "- / -l / --login: clean environment, TERM and -w kept, cwd HOME, argv[0] -NAME" {
	local form
	for form in - -l --login; do
		# "--" ends su's options: -e goes to the shell (the probe).
		TERM=vt100 FOO=bar BAZ=qux run su $form "$U_NAME" -s "$U_PROBE" -w BAZ -- -e
		assert_status 0
		assert_key argv0 -probe
		assert_key cwd "$U_HOME"
		assert_key uid "$U_UID"
		assert_key env:TERM vt100
		assert_key env:BAZ qux
		assert_key env:HOME "$U_HOME"
		assert_key env:SHELL "$U_PROBE"
		assert_key env:USER "$U_NAME"
		assert_key env:PATH "$(login_path "$U_NAME")"
		[[ -z $(probe_get env:FOO) ]]
	done
}

@test "su -: PATH from login.defs (ENV_PATH, ENV_SUPATH for root, shadow's PATH= taken off), as util-linux su (issue 22)" {
	need_login_defs
	local defs=$'ENV_SUPATH\tPATH=/leash/root:/usr/sbin:/usr/bin:/bin\nENV_PATH\tPATH=/leash/user:/usr/bin:/bin'
	run in_login_defs "$defs" '' su - "$U_NAME" -s "$U_PROBE" -- -k env:PATH
	assert_status 0
	assert_output /leash/user:/usr/bin:/bin
	run in_login_defs "$defs" '' su - root -s "$U_PROBE" -- -k env:PATH
	assert_output /leash/root:/usr/sbin:/usr/bin:/bin
	run in_login_defs "$defs" '' "$LEASH" -u "$U_NAME" -l -- "$U_PROBE" -k env:PATH
	assert_output /leash/user:/usr/bin:/bin
	run in_login_defs "$defs" '' "$LEASH" -u root -l -- "$U_PROBE" -k env:PATH
	assert_output /leash/root:/usr/sbin:/usr/bin:/bin
}

# The PATH of `su - NAME` where login.defs is DEFS (and /etc/default/su
# SU), through SU_BIN; printenv is the shell, PATH its operand.
su_path() {
	in_login_defs "$1" "$2" "$3" -s /usr/bin/printenv - "$4" PATH 2>/dev/null
}

@test "su -: login.defs read line by line as util-linux su reads it (names in any case, '#', quotes, the last line, no setting)" {
	need_login_defs
	local -a defs=(
		''
		$'ENV_PATH /leash/x\nENV_SUPATH PATH='
		$'ENV_PATH PATH="/leash/a:/leash/b"\nENV_SUPATH PATH=/leash/s\nENV_ROOTPATH /leash/r'
		$'env_path   = "/leash/c" # comment\nENV_SUPATH\nENV_ROOTPATH /leash/r'
		$'ENV_PATH PATHX=/leash/d\nENV_SUPATH /leash/q=PATH'
		$'ENV_PATH PATH=\nENV_PATH /leash/first\nENV_SUPATH PATH="'
		$'  ENV_PATH\t/leash/ws  \t\n#ENV_SUPATH /leash/no\nENV_SUPATH /leash/yes#c'
		$'ENV_SUPATH PATH=/leash/su\nENV_ROOTPATH /leash/never'
		$'ENV_ROOTPATH=/leash/rootpath'
	)
	local -a want=(
		'/usr/local/bin:/bin:/usr/bin|/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin'
		'/leash/x|PATH='
		'/leash/a:/leash/b|/leash/s'
		'/leash/c|'
		'/leash/d|/leash/q=PATH'
		'/leash/first|PATH='
		'/leash/ws|/leash/yes'
		'/usr/local/bin:/bin:/usr/bin|/leash/su'
		'/usr/local/bin:/bin:/usr/bin|/leash/rootpath'
	)
	local i ul got
	ul=$(util_linux_su)
	for i in "${!defs[@]}"; do
		echo "login.defs: [${defs[i]}]" >&2
		got="$(su_path "${defs[i]}" '' su "$U_NAME")|$(su_path "${defs[i]}" '' su root)"
		[ "$got" = "${want[i]}" ]
		# The anchor, where it is here, reads them alike.
		[[ -z $ul ]] ||
			[ "$(su_path "${defs[i]}" '' "$ul" "$U_NAME")|$(su_path "${defs[i]}" '' "$ul" root)" = "$got" ]
	done
}

@test "su: /etc/default/su wins over login.defs; its ALWAYS_SET_PATH sets the login's PATH without - too (util-linux)" {
	need_login_defs
	local defs=$'ENV_PATH /leash/defs\nALWAYS_SET_PATH no' \
		su=$'ENV_PATH PATH=/leash/default-su\nalways_set_path Yes\nENV_SUPATH /leash/su-root'
	run in_login_defs "$defs" "$su" su - "$U_NAME" -s "$U_PROBE" -- -k env:PATH
	assert_output /leash/default-su
	PATH=/leash/caller:$PATH run in_login_defs "$defs" "$su" su "$U_NAME" -c "$U_PROBE -k env:PATH"
	assert_output /leash/default-su
	PATH=/leash/caller:$PATH run in_login_defs "$defs" "$su" su root -c "$U_PROBE -k env:PATH"
	assert_output /leash/su-root
	# -m keeps the caller's PATH.
	PATH=/leash/caller:$PATH run in_login_defs "$defs" "$su" su -m "$U_NAME" -c "$U_PROBE -k env:PATH"
	[[ $output == /leash/caller:* ]]
	# Without ALWAYS_SET_PATH su keeps it too.
	PATH=/leash/caller:$PATH run in_login_defs "$defs" '' su "$U_NAME" -c "$U_PROBE -k env:PATH"
	[[ $output == /leash/caller:* ]]
}

@test "-l with -p: the warning, and the login wins" {
	FOO=bar run su -l -p "$U_NAME" -s "$U_PROBE"
	assert_status 0
	[[ ${lines[0]} == "su: ignoring --preserve-environment, it's mutually exclusive with --login" ]]
	[[ -z $(probe_get env:FOO) ]]
}

@test "-m or -p with -w: mutually exclusive, as util-linux words it" {
	run su -p -w FOO -c true
	assert_status 1
	assert_output "su: mutually exclusive arguments: --preserve-environment --whitelist-environment"
	run su -m --whitelist-environment=FOO -c true
	assert_status 1
	assert_output "su: mutually exclusive arguments: -m --whitelist-environment"
}

@test "-s SHELL, -f, and extra arguments go to the shell" {
	run su "$U_NAME" -s /bin/sh -f -c 'echo "$-|$0|$1"' zero one
	assert_status 0
	[[ $output == *f*"|zero|one" ]]
}

@test "-c for a non-root user: a new session; --session-command and root: same session" {
	run su "$U_NAME" -c "exec $U_PROBE"
	[[ $(probe_get sid) == "$(probe_get pid)" ]]
	assert_key ctty none
	run su "$U_NAME" --session-command "exec $U_PROBE"
	[[ $(probe_get sid) != "$(probe_get pid)" ]]
	[[ $(probe_get sid) == "$(ps -o sid= -p $$ | tr -d ' ')" ]]
}

@test "TIOCSTI from su -c cannot reach the caller's terminal (under script)" {
	tiocsti_setup
	on_tty "$SU $U_NAME -c 'perl $TIOCSTI'"
	assert_tiocsti_refused
	on_tty "$SU $U_NAME,$G_PRIM perl $TIOCSTI"
	assert_tiocsti_refused
	# Control: --session-command keeps the terminal (as util-linux does),
	# so where the kernel allows TIOCSTI the injection works there.
	if legacy_tiocsti; then
		on_tty "$SU $U_NAME --session-command 'perl $TIOCSTI'"
		[[ $output == *injected* ]]
	fi
}

@test "exit status: the command's" {
	run su "$U_NAME" -c 'exit 7'
	assert_status 7
	run su "$U_NAME" -c 'exit 0'
	assert_status 0
}

@test "exit status: signal N is 128+N, with the signal's name as util-linux prints it" {
	run su "$U_NAME" -c 'kill -TERM $$'
	assert_status 143
	assert_output Terminated
	run su "$U_NAME" -c 'kill -KILL $$'
	assert_status 137
	assert_output Killed
}

@test "exit status: 127 / 126 when the shell cannot be run" {
	run -127 su "$U_NAME" -s /nonexistent/sh -c true
	assert_status 127
	assert_output "su: failed to execute /nonexistent/sh: No such file or directory"
	run su "$U_NAME" -s /etc/passwd -c true
	assert_status 126
	assert_output "su: failed to execute /etc/passwd: Permission denied"
}

@test "RLIMIT_NPROC reached at exec: 126, and nothing runs as root" {
	command -v prlimit >/dev/null || skip "no prlimit"
	setpriv --reuid="$U_UID" --regid="$G_PRIM_GID" --clear-groups -- \
		"$PROBE" -q -m "$MARK" -s 30 &
	track $!
	sleep 0.2
	run prlimit --nproc=0 -- su "$U_NAME" -c "touch $TMP/ran"
	assert_status 126
	assert_output "su: failed to execute /bin/sh: Resource temporarily unavailable"
	run prlimit --nproc=0 -- su "$U_NAME" touch "$TMP/ran"
	assert_status 126
	[[ ! -e $TMP/ran ]]
}

@test "usage errors: glibc's messages, status 1" {
	run su -z
	assert_status 1
	assert_output "su: invalid option -- 'z'
Try 'su --help' for more information."
	run su --bogus
	assert_status 1
	assert_output "su: unrecognized option '--bogus'
Try 'su --help' for more information."
	run su -c
	assert_status 1
	assert_output "su: option requires an argument -- 'c'
Try 'su --help' for more information."
	run su -u root
	assert_status 1
	assert_output "Try 'su --help' for more information."
}

@test "--help and --version" {
	run su --help
	assert_status 0
	[[ ${lines[0]} == "Usage:" ]]
	[[ $output == *" su [<who> [<command>...]]"* ]]
	run su -V
	assert_status 0
	[[ $output == "su (leash) "* ]]
}

@test "no descriptor of leash's reaches the command" {
	run "$PROBE" -k fds
	local direct=$output
	run su "$U_NAME" -c "$U_PROBE -k fds"
	assert_output "$direct"
	run su - "$U_NAME" -c "$U_PROBE -k fds"
	assert_output "$direct"
	run su "$U_NAME" "$U_PROBE" -k fds
	assert_output "$direct"
}

@test "a non-root caller is refused: status 1, leash does not authenticate" {
	run as_nobody su root -c "touch $TMP/ran"
	assert_status 1
	assert_output "su: permission denied: leash does not authenticate; only root can switch users"
	run as_nobody su 0 touch "$TMP/ran"
	assert_status 1
	[[ ! -e $TMP/ran ]]
}

# --- AOSP dialect ------------------------------------------------------------

@test "AOSP: su WHO COMMAND runs COMMAND directly, no shell" {
	run su 2000 "$U_PROBE" -e
	assert_status 0
	assert_key uid 2000
	assert_key gid 2000
	assert_key groups 2000
	assert_key argv0 "$U_PROBE"
	run su 2000 echo '$HOME'
	assert_output '$HOME'
	run su 0 sh -c 'id -u'
	assert_output 0
}

@test "AOSP: WHO = user,group,supp... of names and numbers" {
	run su "$U_NAME,$G_OTHER,$G_SUPP,3003" "$U_PROBE"
	assert_status 0
	assert_key uid "$U_UID"
	assert_key gid "$G_OTHER_GID"
	assert_key groups "3003,$G_SUPP_GID"
	need_mountns
	run without_etc "$SU" shell,shell,inet,net_raw "$U_PROBE"
	assert_key uid 2000
	assert_key gid 2000
	assert_key groups 3003,3004
	run without_etc "$SU" "u0_a35,all_a35" "$U_PROBE"
	assert_key uid 10035
	assert_key gid 50035
	assert_key groups 50035
	# With a passwd that lacks them, Android names are no one.
	if ! getent passwd shell >/dev/null; then
		run su shell,shell "$U_PROBE"
		assert_status 1
		assert_output "su: invalid uid/gid 'shell'"
	fi
}

@test "AOSP: a bare uid does not keep the caller's groups (unlike AOSP su)" {
	run setpriv --groups 4,24 -- su 2000 id -G
	assert_output 2000
}

@test "AOSP: PATH reset, IFS unset, USER and LOGNAME of the uid" {
	PATH=/leash/x:$PATH IFS=: FOO=bar run su "$U_NAME" "$U_PROBE" -e
	assert_key env:PATH /usr/local/bin:/usr/bin:/bin
	[[ -z $(probe_get env:IFS) ]]
	assert_key env:USER "$U_NAME"
	assert_key env:LOGNAME "$U_NAME"
	assert_key env:FOO bar
	IFS=: run su 0 "$U_PROBE" -e
	assert_key env:PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
}

@test "AOSP: a WHO with a comma alone runs the shell" {
	run su "$U_NAME,$G_PRIM" <<<'id -u; echo "$PATH"'
	assert_status 0
	assert_output "$U_UID
/usr/local/bin:/usr/bin:/bin"
}

@test "AOSP: bad WHO forms" {
	local who
	for who in 4294967295 2000,,3003 ,2000 2000, 2000,leash_no_such_group \
		leash_no_such_user 2000,1,2,x12 u0_a10000; do
		run su "$who" touch "$TMP/ran"
		assert_status 1
		[[ $output == "su: invalid uid/gid '"*"'" ]]
	done
	[[ ! -e $TMP/ran ]]
}

@test "AOSP: exit statuses pass through; 127/126 when COMMAND cannot be run" {
	run su 2000 sh -c 'exit 9'
	assert_status 9
	run -127 su 2000 leash-no-such-command
	assert_status 127
	assert_output "su: failed to execute leash-no-such-command: No such file or directory"
	run su 2000 /etc/passwd
	assert_status 126
	run su 2000 sh -c 'kill -INT $$'
	assert_status 130
}

@test "dialect rule: WHO followed by an option is util-linux (su 2000 -c id)" {
	run su 2000 -c 'echo "$0"'
	assert_status 0
	assert_output sh
	run su "$U_NAME" -s /bin/sh -c 'id -u'
	assert_output "$U_UID"
	# ... and a second word that is not an option makes it AOSP.
	run su "$U_NAME" id -u
	assert_output "$U_UID"
	run su "$U_NAME" -- id -u
	[[ $output == *"id"* && $output != "$U_UID" ]]   # sh tried to open a script "id"
}

# --- both dialects -----------------------------------------------------------

@test "a fresh session keyring: su, su -, su -c and AOSP su keep root's key from the user" {
	command -v keyctl >/dev/null || must_run_or_skip "no keyctl (keyutils)"
	run in_keyring su "$U_NAME" -c "$KEY_PROBE"
	assert_status 0
	assert_key_private
	run in_keyring su - "$U_NAME" -c "$KEY_PROBE"
	assert_key_private
	run in_keyring su -l "$U_NAME" -s /bin/sh <<<"$KEY_PROBE"
	assert_key_private
	run in_keyring su 65534 sh -c "$KEY_PROBE"
	assert_key_private
	# The control: su to root keeps root's keyring.
	run in_keyring su -c "$KEY_PROBE"
	[[ $output == *key-read* && $output == *key-written* ]]
}

@test "an error reading /etc/passwd is said as itself, not as \"does not exist\"" {
	command -v prlimit >/dev/null || skip "no prlimit"
	# A dynamic build (SANITIZE=1) cannot even load its libraries so.
	prlimit --nofile=3 -- su --version >/dev/null 2>&1 || skip "needs a static build"
	run prlimit --nofile=3 -- su "$U_NAME" -c "touch $TMP/ran"
	assert_status 1
	[[ $output == "su: failed to look up user $U_NAME: No file descriptors available" ||
	   $output == "su: failed to look up user $U_NAME: Too many open files" ]]
	run prlimit --nofile=3 -- su "$U_NAME,$G_OTHER" touch "$TMP/ran"
	assert_status 1
	[[ $output == "su: failed to look up user '$U_NAME': "* ]]
	[[ ! -e $TMP/ran ]]
}

@test "su - / su -l when the target cannot enter its home: util-linux's warning, and it runs" {
	need_mountns
	local home d form
	home=$(getent passwd nobody | cut -d: -f6)
	[[ -d $home ]] && skip "nobody's home $home exists here"
	cd "$U_HOME"
	for form in - -l; do
		run su $form nobody -s /bin/sh -c /bin/pwd
		assert_status 0
		# util-linux 2.38 stays where it was; login(1) would go to /.
		assert_output "su: warning: cannot change directory to $home: No such file or directory
$U_HOME"
	done
	# A home that exists but is closed to the user: root could stat it.
	d=$(shared_tmpdir)
	chmod 700 "$d"
	run unshare -m --propagation private -- sh -c 'mount --bind "$1" "$2" && cd / && exec "$3" - "$4" -c /bin/pwd' \
		sh "$d" "$U_HOME" "$SU" "$U_NAME"
	assert_status 0
	assert_output "su: warning: cannot change directory to $U_HOME: Permission denied
/"
	# Beside util-linux's own su, where it is installed.
	if /bin/su --version 2>/dev/null | grep -q util-linux; then
		local ours=$output
		run unshare -m --propagation private -- sh -c 'mount --bind "$1" "$2" && cd / && exec "$3" - "$4" -c /bin/pwd' \
			sh "$d" "$U_HOME" /bin/su "$U_NAME"
		assert_output "$ours"
	fi
}
