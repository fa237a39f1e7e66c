# SPDX-License-Identifier: ISC
# users.bash: test users and groups for ident.bats and su.bats.
# users_setup (in setup_file) creates, with free ids picked at run time:
#   U_NAME  a user (uid U_UID, primary group G_PRIM/G_PRIM_GID, member of
#           G_SUPP/G_SUPP_GID, home U_HOME, shell /bin/sh)
#   G_OTHER/G_OTHER_GID  a group U_NAME is not in
#   U_BARE  a number that is neither a uid nor a gid in passwd/group
#   U_PROBE a copy of the probe every user may run (in U_HOME)
# users_teardown (in teardown_file) removes them, also after failures.

# useradd/groupadd lock /etc/passwd; other suites may hold it a moment.
_users_retry() {
	local i
	for ((i = 0; i < 50; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	"$@"
}

users_setup() {
	[[ $(id -u) == 0 ]] || return 0
	local base=$((42000 + ($$ % 5000) * 4))
	export U_NAME=leash_u$$ G_PRIM=leash_gp$$ G_SUPP=leash_gs$$ G_OTHER=leash_go$$
	export G_PRIM_GID G_SUPP_GID G_OTHER_GID U_UID U_BARE U_HOME U_PROBE
	G_PRIM_GID=$(free_id "$base")
	_users_retry groupadd -g "$G_PRIM_GID" "$G_PRIM"
	G_SUPP_GID=$(free_id "$((G_PRIM_GID + 1))")
	_users_retry groupadd -g "$G_SUPP_GID" "$G_SUPP"
	G_OTHER_GID=$(free_id "$((G_SUPP_GID + 1))")
	_users_retry groupadd -g "$G_OTHER_GID" "$G_OTHER"
	U_UID=$(free_id "$((G_OTHER_GID + 1))")
	U_HOME=$(mktemp -d /tmp/leash_home.XXXXXX)
	_users_retry useradd -M -N -u "$U_UID" -g "$G_PRIM" -G "$G_SUPP" \
		-d "$U_HOME" -s /bin/sh "$U_NAME"
	U_BARE=$(free_id "$((U_UID + 1))")
	U_PROBE=$U_HOME/probe
	cp "$PROBE" "$U_PROBE"
	chmod 755 "$U_HOME" "$U_PROBE"
	chown "$U_UID:$G_PRIM_GID" "$U_HOME"
}

users_teardown() {
	[[ -n ${U_NAME:-} ]] || return 0
	getent passwd "$U_NAME" >/dev/null && _users_retry userdel "$U_NAME"
	local g
	for g in "$G_PRIM" "$G_SUPP" "$G_OTHER"; do
		getent group "$g" >/dev/null && _users_retry groupdel "$g"
	done
	[[ $U_HOME == /tmp/leash_home.* ]] && rm -rf "$U_HOME"
	return 0
}

# as_nobody CMD...: run CMD as uid/gid 65534 with no groups and no caps.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@"
}

# probe_get KEY: KEY's value in $output (a probe report).
probe_get() {
	sed -n "s/^$1=//p" <<<"$output"
}

# assert_key KEY VALUE: the probe report in $output says KEY=VALUE.
assert_key() {
	local v
	v=$(probe_get "$1")
	if [[ $v != "$2" ]]; then
		printf 'expected %s=%s, got %s=%s; report:\n%s\n' "$1" "$2" "$1" "$v" "$output" >&2
		return 1
	fi
}

# TIOCSTI: tiocsti_setup writes $TIOCSTI, a perl script the target may
# read that pushes one byte into its terminal's input (the test is skipped
# without script(1) or perl); on_tty runs a command line on a terminal of
# its own (script); assert_tiocsti_refused checks that the push failed;
# legacy_tiocsti says whether the kernel allows TIOCSTI at all, for the
# controls that show the push works where the terminal is shared.
tiocsti_setup() {
	command -v script >/dev/null || skip "no script(1)"
	command -v perl >/dev/null || skip "no perl"
	TIOCSTI=$U_HOME/tiocsti.pl
	printf '%s\n' 'my $c = "x"; ioctl(STDIN, 0x5412, $c) or die "tiocsti: $!\n"; print "injected\n";' >"$TIOCSTI"
	chmod 644 "$TIOCSTI"
}

on_tty() {
	run script -qec "$1" /dev/null </dev/null
}

assert_tiocsti_refused() {
	[[ $output == *"tiocsti: Operation not permitted"* ]]
	[[ $output != *injected* ]]
}

legacy_tiocsti() {
	[[ $(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1) == 1 ]]
}

# assert_target_env: a probe report (run with FOO=bar and /leash/x at the
# end of PATH) shows the target's HOME SHELL USER LOGNAME and the rest of
# the caller's environment kept.
assert_target_env() {
	assert_key env:HOME "$U_HOME"
	assert_key env:SHELL /bin/sh
	assert_key env:USER "$U_NAME"
	assert_key env:LOGNAME "$U_NAME"
	assert_key env:FOO bar
	[[ $(probe_get env:PATH) == *:/leash/x ]]
}

# A directory every user may enter and run from (mode 755; the test's
# own tmpdir may not be reachable for them).  shared_cleanup removes them.
shared_tmpdir() {
	local d
	d=$(mktemp -d /tmp/leash_t.XXXXXX)
	chmod 755 "$d"
	printf '%s\n' "$d" >>"$BATS_TEST_TMPDIR/.shared_dirs"
	printf '%s\n' "$d"
}

shared_cleanup() {
	local d
	[[ -f $BATS_TEST_TMPDIR/.shared_dirs ]] || return 0
	while read -r d; do
		[[ $d == /tmp/leash_t.* ]] && rm -rf "$d"
	done <"$BATS_TEST_TMPDIR/.shared_dirs"
	return 0
}

# The hooks of the identity files (ident.bats, su.bats): test users made
# once per file, root needed, shared temp files removed after each test.
setup_file() {
	users_setup
}

teardown_file() {
	users_teardown
}

setup() {
	common_setup
	need_root "switching identity"
}

teardown() {
	common_teardown
	shared_cleanup
}

# without_etc CMD...: CMD in a private mount namespace whose /etc is an
# empty tmpfs: no passwd, no group, as in an Android recovery image
# (check for unshare(1) first: a skip cannot come from inside `run`).
without_etc() {
	unshare -m --propagation private -- sh -c \
		'mount -t tmpfs -o mode=755 leash-noetc /etc || exit 99; exec "$@"' sh "$@"
}

# Session keyrings.  in_keyring CMD... runs CMD (every "@KEY@" in its
# words replaced by a key's id) inside a session keyring of its own, in
# which root has just added a user key holding "planted-by-root"; then it
# prints "root-reads=VALUE" and "root-session=ID" (the keyring's id).
# root's real session keyring is never touched, and the private one goes
# away with the session.
in_keyring() {
	keyctl session - bash -c 'key=$(keyctl add user leash_test planted-by-root @s) || exit 99
		"${@//@KEY@/$key}"
		echo "root-reads=$(keyctl print "$key")"
		echo "root-session=$(keyctl id @s)"' bash "$@"
}

# The target's side: what it could do with root's key, and which session
# keyring it is in.
KEY_PROBE='keyctl print @KEY@ >/dev/null 2>&1 && echo key-read
keyctl update @KEY@ planted-by-target 2>/dev/null && echo key-written
echo "session=$(keyctl id @s)"'

# assert_key_private: after in_keyring ... KEY_PROBE, the command could
# neither read nor replace root's key, and ran in a session keyring that
# was not root's.
assert_key_private() {
	local mine theirs
	mine=$(sed -n 's/^session=//p' <<<"$output")
	theirs=$(sed -n 's/^root-session=//p' <<<"$output")
	if [[ $output == *key-read* || $output == *key-written* ||
	      $output != *"root-reads=planted-by-root"* ||
	      -z $mine || $mine == "$theirs" ]]; then
		printf 'root'\''s key or keyring reached the command:\n%s\n' "$output" >&2
		return 1
	fi
}

# need_login_defs: what in_login_defs needs, probed in the test itself
# (in_login_defs runs inside `run` or $(...), where a skip cannot skip).
need_login_defs() {
	need_mountns || return
	[[ -f /etc/login.defs ]] || skip "no /etc/login.defs to bind over"
}

# in_login_defs DEFS SU CMD...: CMD in a private mount namespace where
# /etc/login.defs holds the text DEFS and, unless SU is empty,
# /etc/default/su holds SU (on a tmpfs over /etc/default); the host's
# files are never touched.  The test calls need_login_defs first.
in_login_defs() {
	printf '%s\n' "$1" >"$BATS_TEST_TMPDIR/login.defs"
	rm -f "$BATS_TEST_TMPDIR/default.su"
	[[ -z $2 ]] || printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/default.su"
	shift 2
	unshare -m --propagation private bash -c '
		mount --bind "$1/login.defs" /etc/login.defs || exit 99
		if [[ -f $1/default.su ]]; then
			mount -t tmpfs tmpfs /etc/default &&
				cp "$1/default.su" /etc/default/su || exit 99
		fi
		shift
		exec "$@"' _ "$BATS_TEST_TMPDIR" "$@"
}

# util_linux_su: the path of util-linux su(1), or nothing.
util_linux_su() {
	local s
	for s in /bin/su /usr/bin/su; do
		if [[ -x $s ]] && "$s" --version 2>/dev/null | grep -q util-linux; then
			printf '%s\n' "$s"
			return
		fi
	done
}

# login_path NAME: the PATH a login of NAME gets here, from this
# machine's login.defs, as util-linux su gives it (asked when it is
# here): what leash -l and su - must give too.
login_path() {
	local ul
	ul=$(util_linux_su)
	if [[ -n $ul ]]; then
		"$ul" -s /usr/bin/printenv - "$1" PATH 2>/dev/null
		return
	fi
	# Without it: the plain form of the setting, or util-linux's default.
	awk -v root="$([[ $1 == root ]] && echo 1)" '
		{ sub(/#.*/, "") }
		toupper($1) == (root ? "ENV_SUPATH" : "ENV_PATH") { v = $2 }
		END {
			sub(/^PATH=/, "", v)
			if (v == "") v = root ? "/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin" : "/usr/local/bin:/bin:/usr/bin"
			print v
		}' /etc/login.defs 2>/dev/null
}
