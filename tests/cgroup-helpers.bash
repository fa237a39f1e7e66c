# SPDX-License-Identifier: ISC
# cgroup-helpers.bash: where leash's groups live on this host, and how a
# test cleans up after itself (load after helpers).  Works on a hybrid
# host (cpu on v1, cgroup2 without controllers) and on a pure cgroup2
# host or guest (cpu on v2).
#
#   CG_V      1 or 2: the hierarchy that holds cpu ("" when none)
#   CG_CPU    mount point of that hierarchy
#   CG_TOP    $CG_CPU/leash: parent of the uid groups
#   CG2       the cgroup2 mount ("" when none)
#   LEAF_TOP  $CG2/leash: parent of the uid groups holding the leaves
#   WFILE     cpu.shares (v1) or cpu.weight (v2)

# mount_of FSTYPE [OPTION], shared with the fair-share demo.
. "$BATS_TEST_DIRNAME/../build-aux/cgmounts.sh"

cg_detect() {
	CG2=$(mount_of cgroup2)
	CG_V= CG_CPU=
	if [[ -n $CG2 ]] && grep -qw cpu "$CG2/cgroup.controllers"; then
		CG_V=2 CG_CPU=$CG2 WFILE=cpu.weight
	elif CG_CPU=$(mount_of cgroup cpu) && [[ -n $CG_CPU ]]; then
		CG_V=1 WFILE=cpu.shares
	fi
	CG_TOP=$CG_CPU/leash
	LEAF_TOP=${CG2:+$CG2/leash}
}

need_cgroup() {
	need_root || return
	cg_detect
	[[ -n $CG_V ]] || must_run_or_skip "no cpu cgroup hierarchy here"
}

need_leaf() {
	[[ -n $CG2 ]] || must_run_or_skip "no cgroup2 mount: no per-launch leaf"
}

# Two uids of our own, unlikely to meet another run's.
# cg_tops_note (setup_file): remember whether leash's tops existed, so
# cg_tops_tidy (teardown_file) removes only what the file made.
cg_tops_note() {
	cg_detect
	export CG_TOP_EXISTED=0 LEAF_TOP_EXISTED=0
	[[ -d $CG_TOP ]] && CG_TOP_EXISTED=1
	[[ -n $LEAF_TOP && -d $LEAF_TOP ]] && LEAF_TOP_EXISTED=1
	return 0
}

cg_tops_tidy() {
	cg_detect
	[[ $CG_TOP_EXISTED == 1 ]] || rmdir "$CG_TOP" 2>/dev/null
	[[ $LEAF_TOP_EXISTED == 1 ]] || rmdir "$LEAF_TOP" 2>/dev/null
	return 0
}

cg_uids() {
	UA=$((3100000 + (BATS_ROOT_PID % 50000) * 20 + ${BATS_SUITE_TEST_NUMBER:-0} % 20))
	UB=$((UA + 1000000))
}

# The cpu group and the leaf parent of uid $1.
cpu_group() { echo "$CG_TOP/uid_$1"; }
leaf_parent() { echo "${LEAF_TOP:-$CG_TOP}/uid_$1"; }

# Leaves left under uid $1 (none: empty output).
leaves_of() {
	local d
	d=$(leaf_parent "$1")
	[[ -d $d ]] || return 0
	find "$d" -mindepth 1 -maxdepth 1 -type d -name 'run_*' -printf '%f\n'
}

# Kill whatever runs in uid $1's groups, then remove leaves and groups.
cg_remove_uid() {
	local d pid i
	for d in "$(leaf_parent "$1")"/run_* "$(cpu_group "$1")"; do
		[[ -d $d ]] || continue
		for i in 1 2 3 4 5; do
			[[ -s $d/cgroup.procs ]] || break
			for pid in $(cat "$d/cgroup.procs"); do
				kill -KILL "$pid" 2>/dev/null
			done
			sleep 0.1
		done
	done
	for d in "$(leaf_parent "$1")"/run_* "$(leaf_parent "$1")" "$(cpu_group "$1")"; do
		[[ -d $d ]] && rmdir "$d" 2>/dev/null
	done
	return 0
}

# Our leash/ tops, when nobody else uses them any more.
cg_remove_tops() {
	[[ -n ${CG_TOP:-} && -d $CG_TOP ]] && rmdir "$CG_TOP" 2>/dev/null
	[[ -n ${LEAF_TOP:-} && -d $LEAF_TOP ]] && rmdir "$LEAF_TOP" 2>/dev/null
	return 0
}

# The child's path in the cpu hierarchy and in cgroup2, from a probe
# "cgroup" value (lines joined with ';').
cpu_path_of() {
	tr ';' '\n' <<<"$1" | awk -F: -v v="$CG_V" '
		v == 2 && $1 == 0 { print $3 }
		v == 1 && index("," $2 ",", ",cpu,") { print $3 }'
}
v2_path_of() {
	tr ';' '\n' <<<"$1" | awk -F: '$1 == 0 { print $3 }'
}

# cg_sandbox_remove DIR...: a test's own cgroup trees, gone: what runs
# in them killed, then every directory from the leaves up; a tree that
# stays is said on stderr.
cg_sandbox_remove() {
	local d pid killed
	for d in "$@"; do
		[[ -n $d && -d $d ]] || continue
		killed=0
		for pid in $(find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null); do
			kill -KILL "$pid" 2>/dev/null && killed=1
		done
		# A killed process leaves its group a moment after the signal.
		((killed)) && sleep 0.1
		find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
		[[ ! -d $d ]] || echo "left behind: $d" >&2
	done
	return 0
}

# in_ns SETUP CMD...: run CMD after the shell SETUP, in a private mount
# namespace (status 99 when SETUP fails).
in_ns() {
	local setup=$1
	shift
	unshare -m --propagation private sh -c "$setup"' || exit 99
		exec "$@"' sh "$@"
}

# read_only DIR...: the shell that binds each DIR read-only over itself
# (for in_ns).
read_only() {
	local d sep=
	for d; do
		printf '%s' "${sep}mount --bind $d $d && mount -o remount,bind,ro $d"
		sep=' && '
	done
}
