#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Android's cgroups, rebuilt on this host in a private mount namespace
# (tests/android-ns.sh): the v1 cpu hierarchy at /dev/cpuctl with the
# role groups Android's init makes (top-app, foreground, background,
# system-background), cgroup2 at /sys/fs/cgroup (12+) or /dev/cg2_bpf
# (10-11) holding init's uid_<uid>/pid_<pid> tracking tree, a bare
# cgroup2 (recovery 12+), and a refusal of cgroupfs as SELinux gives it
# (EACCES to root, here root without CAP_DAC_OVERRIDE).  Each test's
# groups live in directories of its own in the real hierarchies, bound
# into the namespace, and are removed in teardown.  Root only, and a
# host with cpu on a v1 hierarchy (a hybrid host, as Debian's).

load helpers
load cgroup-helpers

ROLES="top-app foreground background system-background"

setup() {
	common_setup
	need_root || return
	cg_detect
	[[ $CG_V == 1 && -n $CG2 ]] ||
		must_run_or_skip "needs cpu on a v1 hierarchy and a cgroup2 mount" ||
		return
	local t
	for t in unshare setpriv; do
		command -v "$t" >/dev/null ||
			must_run_or_skip "needs $t" || return
	done
	NS=$BATS_TEST_DIRNAME/android-ns.sh
	# The probe is the namespace the tests then make (mounts over /dev
	# and /sys/fs/cgroup), empty.
	if ! "$NS" -- true </dev/null >/dev/null 2>&1; then
		skip_if_chroot_root
		must_run_or_skip "cannot make the Android namespace (tests/android-ns.sh: unshare -m, mounts)" ||
			return
	fi
	cg_uids
	local name=leash-android.$BATS_ROOT_PID.${BATS_SUITE_TEST_NUMBER:-0}
	SB1=$CG_CPU/$name SB2=$CG2/$name REL=/$name
	mkdir "$SB1" "$SB2"
	for t in $ROLES; do mkdir "$SB1/$t"; done
	# Vendors tune the classes: a value of theirs leash must not undo.
	echo 52 >"$SB1/background/cpu.shares"
	# init's tracking tree: a service in pid_1 (also in top-app), and
	# an empty pid_2 that init itself would prune, leash must not.
	mkdir -p "$SB2/uid_$UA/pid_1" "$SB2/uid_$UA/pid_2" "$SB2/uid_0/pid_1"
	sleep 1000 3>&- &
	SERVICE=$!
	echo "$SERVICE" >"$SB2/uid_$UA/pid_1/cgroup.procs"
	echo "$SERVICE" >"$SB1/top-app/tasks"
}

teardown() {
	[[ -n ${SERVICE:-} ]] && kill "$SERVICE" 2>/dev/null && wait "$SERVICE" 2>/dev/null
	common_teardown
	cg_sandbox_remove "${SB1:-}" "${SB2:-}"
	return 0
}

# android [-c] [-2|-b] [--nodac] -- COMMAND...: COMMAND in the namespace
# with /dev/cpuctl (-c), cgroup2 at /sys/fs/cgroup (-2) or /dev/cg2_bpf
# (-b); --nodac: as root without CAP_DAC_OVERRIDE.  Standard input is
# /dev/null: the namespace's /dev has no ptmx, and at a terminal leash -u
# would add a line saying it runs without a pty.
android() {
	local args=() pre=()
	while [[ $1 != -- ]]; do
		case $1 in
		-c) args+=(-c "$SB1") ;;
		-2) args+=(-2 "$SB2") ;;
		-b) args+=(-b "$SB2") ;;
		--nodac) pre=(setpriv --inh-caps=-dac_override
			      --bounding-set=-dac_override) ;;
		esac
		shift
	done
	shift
	run "$NS" "${args[@]}" -- "${pre[@]}" "$@" </dev/null
}

# The command's cgroup in the cpu hierarchy / in cgroup2, from the
# output of `cat /proc/self/cgroup`.
cpu_of() { awk -F: '$2 == "cpu" { print $3 }' <<<"$output"; }
v2_of() { awk -F: '$1 == 0 && $2 == "" { print $3 }' <<<"$output"; }

# Leaves left in cgroup2 for UA (none: empty).
leaves_of_android() {
	find "$SB2/leash/uid_$UA" -mindepth 1 -type d 2>/dev/null
}

# Everything a role group is: its subgroups, cpu.shares, tasks.
roles_state() {
	local g
	for g in $ROLES; do
		printf '%s: shares %s tasks %s dirs %s\n' "$g" \
			"$(cat "$SB1/$g/cpu.shares")" \
			"$(tr '\n' ' ' <"$SB1/$g/tasks")" \
			"$(find "$SB1/$g" -mindepth 1 -type d | wc -l)"
	done
}

# The groups at the top of the cpu directory, one line.
tops() {
	find "$SB1" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' '
}

# init's tree in cgroup2: directories and the processes in them.
init_state() {
	local d
	for d in $(cd "$SB2" && find uid_* -type d | sort); do
		printf '%s: %s\n' "$d" "$(tr '\n' ' ' <"$SB2/$d/cgroup.procs")"
	done
}

@test "/dev/cpuctl: the uid group is leash/uid_N there, its leaf in /sys/fs/cgroup/leash" {
	android -c -2 -- "$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	assert_status 0
	[[ $output == *"cgroup v1: created /dev/cpuctl/leash/uid_$UA,"* ]]
	[[ $output == *"cgroup: leaf /sys/fs/cgroup/leash/uid_$UA/run_"* ]]
	[[ $(cpu_of) == "$REL/leash/uid_$UA" ]]
	[[ $(v2_of) == "$REL/leash/uid_$UA/run_"* ]]
	android -c -2 -- "$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	assert_status 0
	[[ $output == *"cgroup v1: joined /dev/cpuctl/leash/uid_$UA,"* ]]
	[[ $(cpu_of) == "$REL/leash/uid_$UA" ]]
	[[ -z $(leaves_of_android) ]]
}

@test "/dev/cpuctl: once the groups exist, a launch finds them without reading mountinfo" {
	android -c -2 -- "$LEASH" -u "$UA" -- true
	assert_status 0
	need_strace
	android -c -2 -- "${TRACED[@]}" -f -e trace=openat -- "$LEASH" -u "$UA" -- true
	assert_status 0
	[[ $output != *mountinfo* ]]
	[[ $output == *"openat(AT_FDCWD, \"/dev/cpuctl/leash/uid_$UA\", "*") = "[0-9]* ]]
}

@test "Android 10-11: cgroup2 at /dev/cg2_bpf holds the leaf, found without mountinfo once made" {
	android -c -b -- "$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	assert_status 0
	[[ $output == *"cgroup: leaf /dev/cg2_bpf/leash/uid_$UA/run_"* ]]
	[[ $(v2_of) == "$REL/leash/uid_$UA/run_"* ]]
	need_strace
	android -c -b -- "${TRACED[@]}" -f -e trace=openat -- "$LEASH" -u "$UA" -- true
	assert_status 0
	[[ $output != *mountinfo* ]]
	[[ $output == *"openat(AT_FDCWD, \"/dev/cg2_bpf/leash/uid_$UA\", "*") = "[0-9]* ]]
}

@test "Android's role groups are never touched: not their files, tasks or children" {
	local before
	before=$(roles_state)
	android -c -2 -- "$LEASH" -u "$UA" -- true
	assert_status 0
	android -c -2 -- "$LEASH" -u "$UA" --cpu-weight 50 -- true
	assert_status 0
	[[ $(cat "$SB1/leash/uid_$UA/cpu.shares") == 512 ]]
	# The deadline and the leftovers kill reach only leash's leaf.
	android -c -2 -- "$LEASH" -u "$UA" --kill-leftovers -t 1 -- \
		sh -c 'setsid sleep 300 & sleep 300'
	assert_status 124
	[[ $(roles_state) == "$before" ]] || {
		printf 'before:\n%s\nafter:\n%s\n' "$before" "$(roles_state)" >&2
		return 1
	}
	# Beside the roles only leash/, with nothing but the uid group.
	[[ $(tops) == "background foreground leash system-background top-app " ]]
	[[ $(cd "$SB1/leash" && find . -mindepth 1 -type d) == "./uid_$UA" ]]
	[[ $before == *"background: shares 52 "* ]]
	[[ $before == *"top-app: shares 1024 tasks $SERVICE "* ]]
	pid_alive "$SERVICE"
}

@test "Android init's uid_N/pid_N tree in cgroup2 is left alone: leash's own is leash/uid_N" {
	local before
	before=$(init_state)
	android -c -2 -- "$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	assert_status 0
	[[ $(v2_of) == "$REL/leash/uid_$UA/run_"* ]]
	android -c -2 -- "$LEASH" -u "$UA" --kill-leftovers -t 1 -- \
		sh -c 'setsid sleep 300 & sleep 300'
	assert_status 124
	# As root without -u (uid 0: init's uid_0 beside leash's uid_0).
	android -c -2 -- "$LEASH" --cgroup=track -- cat /proc/self/cgroup
	assert_status 0
	[[ $(v2_of) == "$REL/leash/uid_0/run_"* ]]
	[[ $(init_state) == "$before" ]] || {
		printf 'before:\n%s\nafter:\n%s\n' "$before" "$(init_state)" >&2
		return 1
	}
	[[ $before == *"uid_$UA/pid_1: $SERVICE "* ]]
	[[ -d $SB2/uid_$UA/pid_2 ]]
	pid_alive "$SERVICE"
}

@test "a bare cgroup2 (recovery 12+): auto gives the command a tracking leaf, require fails" {
	android -2 -- "$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	assert_status 0
	[[ $output == *"cgroup: tracking leaf only: no cpu cgroup controller available"* ]]
	[[ $(v2_of) == "$REL/leash/uid_$UA/run_"* ]]
	[[ -z $(leaves_of_android) ]]
	android -2 -- "$LEASH" --cgroup=require -u "$UA" -- true
	assert_status 125
	[[ $output == "leash: no cpu cgroup controller available"* ]]
}

# A command that outlives its deadline with a setsid() grandchild: it
# prints the grandchild's pid; the tree kill must take both.
ESCAPEE='setsid sleep 300 </dev/null >/dev/null 2>&1 & echo "escapee $!"; sleep 300'

escapee_gone() {
	local pid
	pid=$(awk '$1 == "escapee" { print $2 }' <<<"$output")
	[[ -n $pid ]] || return
	wait_gone "$pid" && return
	kill -KILL "$pid"
	return 1
}

@test "a refused mkdir (EACCES, as SELinux gives it): auto runs without a group and kills the tree as subreaper; require is 125" {
	mkdir "$SB1/leash"
	chown 65534 "$SB1/leash"
	android -c -2 --nodac -- "$LEASH" -v -u "$UA" -t 1 -- sh -c "$ESCAPEE"
	assert_status 124
	[[ $output == *"leash: running without a cgroup: cannot create cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied"* ]]
	escapee_gone
	[[ ! -e $SB1/leash/uid_$UA ]]
	android -c -2 --nodac -- "$LEASH" -u "$UA" -- true
	assert_status 0
	assert_output ""
	android -c -2 --nodac -- "$LEASH" --cgroup=require -u "$UA" -- true
	assert_status 125
	assert_output "leash: cannot create cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied (refused to root: a security policy such as SELinux, or a group of another owner; use --cgroup=off)"
}

@test "a refused join's rerun starts its waiter thread only after the first one has left the shared stack (strace holds it after its write)" {
	need_strace
	android -c -2 -- "$LEASH" -u "$UA" -- true
	assert_status 0
	chown 65534 "$SB1/leash/uid_$UA/tasks"
	# Every write returns 0.3 s late: the first launch's waiter thread is
	# still on its way out when the main thread has read its news and
	# starts the rerun, whose thread takes the same static stack.
	LEASH_WAIT=thread android -c -2 --nodac -- "${TRACED[@]}" -f -qq \
		-o /dev/null -e trace=write -e inject=write:delay_exit=300000:when=1 \
		"$LEASH" -u "$UA" -- sh -c 'echo ran; exit 7'
	# (strace may add a line of its own about the delays.)
	assert_status 7
	[[ ${lines[0]} == ran ]]
}

@test "a refused join (the group's tasks not root's to write): auto runs the command once, without a group; require is 125" {
	android -c -2 -- "$LEASH" -u "$UA" -- true
	assert_status 0
	chown 65534 "$SB1/leash/uid_$UA/tasks"
	android -c -2 --nodac -- "$LEASH" -v -u "$UA" -t 1 \
		--report="$BATS_TEST_TMPDIR/r.json" -- \
		sh -c "cat /proc/self/cgroup; $ESCAPEE"
	assert_status 124
	run_report=$(jq -c '[.cgroup, .cgroup_reason, .tree_kill]' "$BATS_TEST_TMPDIR/r.json")
	[[ $run_report == "[null,\"cannot join cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied\",\"subreaper\"]" ]]
	[[ $output == *"leash: running without a cgroup: cannot join cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied"* ]]
	[[ $(cpu_of) != */leash/* && $(v2_of) != */leash/* ]]
	[[ $(grep -c '^escapee' <<<"$output") == 1 ]]
	escapee_gone
	[[ -z $(leaves_of_android) ]]
	[[ -z $(cat "$SB1/leash/uid_$UA/tasks") ]]
	android -c -2 --nodac -- "$LEASH" -u "$UA" --cpu-weight 50 -- true
	assert_status 0
	assert_output "leash: --cpu-weight 50 not applied: cannot join cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied"
	android -c -2 --nodac -- "$LEASH" --cgroup=require -u "$UA" -- true
	assert_status 125
	assert_output "leash: cannot join cgroup '/dev/cpuctl/leash/uid_$UA': Permission denied (refused to root: a security policy such as SELinux, or a group of another owner; use --cgroup=off)"
}
