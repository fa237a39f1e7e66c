#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# No silent drops: a cgroup option that cannot be honoured is a warning
# under --cgroup=auto and an error (125) under require; a --cgroup-root
# that is no cgroup directory is an error in every mode; --keep-caps with
# nothing to keep for is an error.

bats_require_minimum_version 1.5.0
load helpers

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@"
}

@test "drops: not root: --cpu-weight warns under auto, fails under require; --kill-leftovers is honoured (no warning)" {
	need_root "running leash as nobody"
	run --separate-stderr as_nobody "$LEASH" --cpu-weight 50 -- true
	assert_status 0
	[ "$stderr" = "leash: --cpu-weight 50 not applied: leash is not root (--cgroup=auto)" ]
	run --separate-stderr as_nobody "$LEASH" -v --cpu-weight 50 -- true
	assert_status 0
	[[ $stderr == *"leash: --cpu-weight 50 not applied: leash is not root (--cgroup=auto)"* ]]
	run as_nobody "$LEASH" --cgroup=require --cpu-weight 50 -- touch /tmp/leash-drops-$MARK
	assert_status 125
	[[ ${lines[0]} == leash:* ]]
	[ ! -e /tmp/leash-drops-$MARK ]
	run --separate-stderr as_nobody "$LEASH" --kill-leftovers -- true
	assert_status 0
	[ -z "$stderr" ]
}

@test "drops: --cpu-weight with --cgroup=off is said, not silently dropped" {
	run --separate-stderr "$LEASH" --cgroup=off --cpu-weight 50 -- true
	assert_status 0
	[ "$stderr" = "leash: --cpu-weight 50 not applied: --cgroup=off" ]
}

@test "drops: --cgroup-root that is no cgroup directory is an error in every mode, as root and not" {
	local m who
	for who in root nobody; do
		[[ $who == nobody && $(id -u) != 0 ]] && continue
		for m in auto require off; do
			if [[ $who == root ]]; then
				run "$LEASH" --cgroup=$m --cgroup-root "$TMP" -- touch "$TMP/ran"
			else
				run as_nobody "$LEASH" --cgroup=$m --cgroup-root /tmp -- true
			fi
			echo "$who --cgroup=$m: $status $output" >&2
			assert_status 125
			assert_lines 1
			[[ $output == "leash: --cgroup-root '"*"' is not on a cgroup filesystem"* ]]
		done
		[ ! -e "$TMP/ran" ]
	done
	run "$LEASH" --cgroup-root "$TMP/no/such" -- true
	assert_status 125
	[[ $output == "leash: --cgroup-root '$TMP/no/such' is not on a cgroup filesystem: No such file or directory" ]]
}

@test "drops: --keep-caps without -u, or for root, is an error" {
	run "$LEASH" --keep-caps cap_net_raw -- touch "$TMP/ran"
	assert_status 125
	assert_output "leash: --keep-caps needs -u with a user other than root: there is no switch to keep them across"
	[ ! -e "$TMP/ran" ]
	if [[ $(id -u) == 0 ]]; then
		run "$LEASH" -u root --keep-caps cap_net_raw -- touch "$TMP/ran"
		assert_status 125
		[ ! -e "$TMP/ran" ]
		run "$LEASH" -u nobody --cgroup=off --keep-caps cap_net_raw -- true
		assert_status 0
	fi
}

@test "drops: --help says the weight is the uid's group's and stays" {
	run "$LEASH" --help
	[[ $output == *"--cpu-weight=N"*"uid's group"*"until changed"* ]]
}
