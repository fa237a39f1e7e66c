#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# leash on a systemd host (issue 32): runs in check-vm's systemd guest
# (Debian 12, systemd as PID 1, the unified cgroup2 tree), skipped
# elsewhere.  The file runs inside a system service (tests/vm/
# systemd.service): leash started here directly is inside a unit that is
# not delegated; `su -l` makes a login session (pam_systemd), as root at
# a prompt has.  Users A and B, a scratch directory every user may write,
# the units and the scopes it makes are removed again.

bats_require_minimum_version 1.5.0
load helpers
load cgroup-helpers

A=4201
B=4202

setup_file() {
	cg_tops_note
	[ -d /run/systemd/system ] && [ -n "${LEASH_VM_SYSTEMD:-}" ] || return 0
	useradd -M -u $A -U -s /bin/sh sda
	useradd -M -u $B -U -s /bin/sh sdb
}

teardown_file() {
	cg_tops_tidy
	[ -d /run/systemd/system ] && [ -n "${LEASH_VM_SYSTEMD:-}" ] || return 0
	systemctl stop leash-uid-$A.scope leash-uid-$B.scope leash-uid-0.scope \
		2>/dev/null || true
	userdel sda 2>/dev/null || true
	userdel sdb 2>/dev/null || true
}

# in_guest: the test needs systemd as PID 1, in check-vm's guest.
in_guest() {
	[ -d /run/systemd/system ] || skip "not a systemd host (no /run/systemd/system)"
	[ -n "${LEASH_VM_SYSTEMD:-}" ] || skip "only in check-vm's systemd guest"
}

setup() {
	HOG=$LEASH_BUILDDIR/hog
	D=$(mktemp -d /tmp/leash-sd.XXXXXX)
	chmod 1777 "$D"
	# Reports go where only root writes (leash refuses a shared place).
	R=$BATS_TEST_TMPDIR/r.json
}

teardown() {
	local u
	for u in ${UNITS:-}; do
		systemctl stop "$u" 2>/dev/null || true
		rm -f "/run/systemd/system/$u"
	done
	[ -z "${UNITS:-}" ] || systemctl daemon-reload
	rm -rf "${D:-/nonexistent}" /dev/shm/leash-sd.*
}

# session CMD: CMD in a login session of root's (logind's session-N.scope
# in user-0.slice), as typed at a prompt.
session() {
	su -l root -c "$1"
}

# wait_for FILE: a unit's command said it is ready (TCG is slow: 60 s).
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	echo "no $1 after 60 s" >&2
	return 1
}

@test "systemd guest: systemd is PID 1 and owns a pure cgroup2 tree" {
	in_guest
	[ "$(cat /proc/1/comm)" = systemd ]
	run awk '$5 == "/sys/fs/cgroup" { sub(/.* - /, ""); print $1 }' /proc/self/mountinfo
	[ "$output" = cgroup2 ]
}

@test "systemd: -u from a login session runs in uid N's delegated scope in user-N.slice, made once, then joined" {
	in_guest
	run session "cat /proc/self/cgroup; $LEASH -v -u sda -- cat /proc/self/cgroup"
	echo "$output"
	[ "$status" = 0 ]
	[[ ${lines[0]} == 0::/user.slice/user-0.slice/session-*.scope ]]
	[[ $output == *"systemd: started leash-uid-$A.scope in user-$A.slice (Delegate=yes) over /run/systemd/private"* ]]
	grep -qx "0::/user.slice/user-$A.slice/leash-uid-$A.scope/uid_$A/run_[0-9_]*" <<<"$output"
	[ "$(systemctl show -p Delegate --value leash-uid-$A.scope)" = yes ]
	[ "$(systemctl show -p ActiveState --value leash-uid-$A.scope)" = active ]
	# The keeper holds it, in keep/; the scope's own group holds none.
	[ -n "$(cat /sys/fs/cgroup/user.slice/user-$A.slice/leash-uid-$A.scope/keep/cgroup.procs)" ]
	[ -z "$(cat /sys/fs/cgroup/user.slice/user-$A.slice/leash-uid-$A.scope/cgroup.procs)" ]
	run session "$LEASH -v -u sda -- cat /proc/self/cgroup"
	echo "$output"
	[ "$status" = 0 ]
	[[ $output == *"systemd: in leash-uid-$A.scope (joined)"* ]]
	[[ $output != *started* ]]
	grep -qx "0::/user.slice/user-$A.slice/leash-uid-$A.scope/uid_$A/run_[0-9_]*" <<<"$output"
}

@test "systemd: the report names the scope; a scope systemd collected is made again" {
	in_guest
	session "$LEASH -u sda -- true"
	systemctl stop leash-uid-$A.scope
	run session "$LEASH --report=$R -v -u sda -- true"
	echo "$output"
	[ "$status" = 0 ]
	[[ $output == *"started leash-uid-$A.scope"* ]]
	[ "$(jq -r .systemd_unit "$R")" = leash-uid-$A.scope ]
	[[ $(jq -r .cgroup.leaf "$R") == /sys/fs/cgroup/user.slice/user-$A.slice/leash-uid-$A.scope/uid_$A/run_* ]]
}

@test "systemd: without systemd's private socket the scope is asked for on the system bus" {
	in_guest
	systemctl stop leash-uid-$B.scope 2>/dev/null || true
	# In a private mount namespace the private socket is /dev/null.
	run session "unshare -m --propagation private sh -c 'mount --bind /dev/null /run/systemd/private && exec $LEASH -v -u sdb -- cat /proc/self/cgroup'"
	echo "$output"
	[ "$status" = 0 ]
	[[ $output == *"systemd: started leash-uid-$B.scope in user-$B.slice (Delegate=yes) over /run/dbus/system_bus_socket"* ]]
	grep -qx "0::/user.slice/user-$B.slice/leash-uid-$B.scope/uid_$B/run_[0-9_]*" <<<"$output"
}

@test "systemd: two uids' loops split one CPU by uid, through their user-N.slice" {
	in_guest
	command -v taskset || skip "no taskset"
	session "for i in 1 2 3 4; do taskset -c 0 $LEASH -u sda -t 9 -- $HOG spin 9 & done
		taskset -c 0 $LEASH -u sdb -t 9 -- $HOG spin 9 &
		echo started > $D/started; wait" &
	wait_for "$D/started"
	sleep 3
	a0=$(awk '$1 == "usage_usec" { print $2 }' /sys/fs/cgroup/user.slice/user-$A.slice/cpu.stat)
	b0=$(awk '$1 == "usage_usec" { print $2 }' /sys/fs/cgroup/user.slice/user-$B.slice/cpu.stat)
	sleep 3
	a1=$(awk '$1 == "usage_usec" { print $2 }' /sys/fs/cgroup/user.slice/user-$A.slice/cpu.stat)
	b1=$(awk '$1 == "usage_usec" { print $2 }' /sys/fs/cgroup/user.slice/user-$B.slice/cpu.stat)
	wait
	share=$(awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) 'BEGIN { printf "%.3f", b / (a + b) }')
	echo "uid B's share $share (one group for all: 0.2; one per uid: 0.5)"
	echo "# uid B share $share" >&3
	awk -v s="$share" 'BEGIN { exit !(s > 0.4 && s < 0.6) }'
}

# unit NAME DELEGATE: a service running leash -u sda on a script that
# leaves a setsid escapee and 48 MiB of shared memory charged to it.
unit() {
	cat > "$D/cmd.sh" <<-SH
	setsid sleep 1001 < /dev/null > /dev/null 2>&1 &
	echo \$! > $D/esc
	head -c 48M /dev/zero > /dev/shm/leash-sd.\$\$
	echo ready > $D/ready
	exec sleep 1002
	SH
	cat > "/run/systemd/system/$1" <<-UNIT
	[Service]
	ExecStart=$LEASH -v -u sda -t 600 -- /bin/sh $D/cmd.sh
	Delegate=$2
	StandardError=file:$D/err
	UNIT
	UNITS="${UNITS:-} $1"
	systemctl daemon-reload
	systemctl start "$1"
	wait_for "$D/ready"
}

@test "systemd: a Delegate=yes service keeps its command: leaves below leash's group, stop ends the tree, MemoryCurrent counts it" {
	in_guest
	unit leash-sd-del.service yes
	cat "$D/err"
	esc=$(cat "$D/esc")
	main=$(systemctl show -p MainPID --value leash-sd-del.service)
	[ "$(cat /proc/$main/cgroup)" = 0::/system.slice/leash-sd-del.service/leash ]
	grep -qx "0::/system.slice/leash-sd-del.service/uid_$A/run_[0-9_]*" /proc/$esc/cgroup
	grep -q "inside leash-sd-del.service (Delegate=yes)" "$D/err"
	mem=$(systemctl show -p MemoryCurrent --value leash-sd-del.service)
	echo "MemoryCurrent $mem"
	echo "# MemoryCurrent $mem" >&3
	[ "$mem" -ge $((48 << 20)) ]
	systemctl stop leash-sd-del.service
	! kill -0 "$esc" 2>/dev/null
	! kill -0 "$main" 2>/dev/null
	[ ! -e /sys/fs/cgroup/system.slice/leash-sd-del.service ]
}

@test "systemd: a service without Delegate=yes: no group, the command stays in the unit; stop ends the tree, MemoryCurrent counts it" {
	in_guest
	unit leash-sd-plain.service no
	cat "$D/err"
	esc=$(cat "$D/esc")
	main=$(systemctl show -p MainPID --value leash-sd-plain.service)
	[ "$(cat /proc/$esc/cgroup)" = 0::/system.slice/leash-sd-plain.service ]
	[ "$(cat /proc/$main/cgroup)" = 0::/system.slice/leash-sd-plain.service ]
	grep -q "inside systemd unit leash-sd-plain.service, not delegated" "$D/err"
	mem=$(systemctl show -p MemoryCurrent --value leash-sd-plain.service)
	echo "MemoryCurrent $mem"
	echo "# MemoryCurrent $mem" >&3
	[ "$mem" -ge $((48 << 20)) ]
	systemctl stop leash-sd-plain.service
	! kill -0 "$esc" 2>/dev/null
	! kill -0 "$main" 2>/dev/null
}

@test "systemd: inside a unit not delegated the report says why there is no group and how the tree is reached" {
	in_guest
	run --separate-stderr "$LEASH" -v --report=$R -u sda -- cat /proc/self/cgroup
	echo "$output $stderr"
	[ "$status" = 0 ]
	[ "$output" = "$(cat /proc/self/cgroup)" ]
	[ "$(jq -r .systemd_unit "$R")" = leash-vm.service ]
	[ "$(jq -r .cgroup "$R")" = null ]
	[[ $(jq -r .cgroup_reason "$R") == "inside systemd unit leash-vm.service, not delegated"* ]]
	[ "$(jq -r .tree_kill "$R")" = subreaper ]
	run "$LEASH" --cgroup=require -u sda -- true
	[ "$status" = 125 ]
	[[ $output == *"set Delegate=yes in the unit"* ]]
}

@test "systemd: a leash inside a leash's command nests its leaf in the outer one" {
	in_guest
	run session "$LEASH --cgroup=track -t 60 -- $LEASH -u sda -- cat /proc/self/cgroup"
	echo "$output"
	[ "$status" = 0 ]
	grep -qx "0::/user.slice/user-0.slice/leash-uid-0.scope/uid_0/run_[0-9_]*/run_[0-9_]*" <<<"$output"
}

@test "systemd: --cgroup-root wins over detection" {
	in_guest
	run session "$LEASH -v --report=$R --cgroup-root /sys/fs/cgroup/leash-sd-root -u sda -- cat /proc/self/cgroup"
	echo "$output"
	rmdir /sys/fs/cgroup/leash-sd-root/uid_$A /sys/fs/cgroup/leash-sd-root || true
	[ "$status" = 0 ]
	grep -qx "0::/leash-sd-root/uid_$A/run_[0-9_]*" <<<"$output"
	[ "$(jq -r .systemd_unit "$R")" = null ]
}

@test "systemd: leash watch refuses systemd's tree: one line, 125, nothing made" {
	in_guest
	run "$LEASH" watch --uids=$A
	echo "$output"
	[ "$status" = 125 ]
	[ "${#lines[@]}" = 1 ]
	[[ $output == "leash watch: "*"systemd manages this host's cgroups"*"--cgroup-root"* ]]
	[ ! -e /sys/fs/cgroup/leash ]
}

@test "systemd: no group outside systemd's tree (systemd-cgls), and systemd never complained about one" {
	in_guest
	# Last: after every other test of the file.
	systemd-cgls --no-pager > "$D/cgls"
	[ ! -e /sys/fs/cgroup/leash ]
	for d in /sys/fs/cgroup/*/; do
		d=${d%/}
		case ${d##*/} in
		*.slice | *.scope | *.service | *.mount | *.swap | *.socket) ;;
		*) echo "foreign group $d"; false ;;
		esac
	done
	run journalctl -b --no-pager -p warning -o cat
	echo "$output" | grep -i cgroup && false
	true
}

@test "a faked /run/systemd/system (a private mount namespace) off systemd's tree: the groups as without it, or none" {
	need_cgroup
	cg_uids
	[ ! -d /run/systemd/system ] || skip "systemd runs here: the guest's tests cover it"
	run in_ns 'mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system' \
		"$LEASH" -v -u "$UA" -- cat /proc/self/cgroup
	echo "$output"
	cg_remove_uid "$UA"
	[ "$status" = 0 ]
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		# systemd's place, but no systemd to ask: no group (auto).
		[[ $output == *"cannot start systemd scope leash-uid-$UA.scope"* ]]
		[[ $output == *"running without a cgroup"* ]]
		[ ! -e /sys/fs/cgroup/user.slice/user-$UA.slice ]
	else
		[[ $output == *"systemd: /sys/fs/cgroup is not its unified cgroup2 tree"* ]]
		[[ $output == *"cgroup v$CG_V: created $CG_TOP/uid_$UA"* ]]
	fi
}
