#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Finding the cgroup hierarchies in mountinfo (lib/mountinfo.c), on
# crafted files: whole-token "cpu", " - " separator after a variable
# number of optional fields, octal escapes, the root "/" preferred,
# mounts hidden under a tmpfs skipped.  No root needed.

load helpers

setup() {
	CHECK=${MOUNTINFO_CHECK:-${LEASH_BUILDDIR:-$TOP/build}/mountinfo-check}
	[[ -x $CHECK ]] || skip "build/mountinfo-check not built"
	MI=$BATS_TEST_TMPDIR/mountinfo
}

found() {
	run "$CHECK" "$MI"
	assert_status 0
}

@test "cpu must be a whole option: cpuacct and cpuset do not count" {
	cat >"$MI" <<-'EOF'
	31 30 0:28 / /fake/v1acct rw,relatime - cgroup cgroup rw,cpuacct
	32 30 0:29 / /fake/v1set rw,relatime - cgroup cgroup rw,cpuset
	33 30 0:30 / /fake/v1sys rw,relatime - cgroup cgroup rw,name=systemd
	EOF
	found
	assert_output $'v1cpu=\nv2='
	echo '34 30 0:31 / /fake/v1both rw - cgroup cgroup rw,cpu,cpuacct' >>"$MI"
	found
	assert_output $'v1cpu=/fake/v1both\nv2='
}

@test "optional fields before the separator are skipped" {
	cat >"$MI" <<-'EOF'
	40 30 0:37 / /fake/v2 rw,nosuid shared:9 master:3 propagate_from:2 - cgroup2 cgroup2 rw
	31 30 0:28 / /fake/v1 rw,relatime shared:5 - cgroup cgroup rw,cpu
	EOF
	found
	assert_output $'v1cpu=/fake/v1\nv2=/fake/v2'
}

@test "octal escapes in the mount point are decoded" {
	printf '%s\n' '31 30 0:28 / /fake/v1/a\040b\134c rw - cgroup cgroup rw,cpu' >"$MI"
	found
	assert_output $'v1cpu=/fake/v1/a b\\c\nv2='
}

@test "of two mounts of a hierarchy the one showing its root wins" {
	cat >"$MI" <<-'EOF'
	31 30 0:28 /sub /fake/v1sub rw - cgroup cgroup rw,cpu
	32 30 0:28 / /fake/v1root rw - cgroup cgroup rw,cpu
	33 30 0:28 / /fake/v1later rw - cgroup cgroup rw,cpu
	EOF
	found
	assert_output $'v1cpu=/fake/v1root\nv2='
}

@test "a mount hidden under a tmpfs is skipped" {
	cat >"$MI" <<-'EOF'
	31 30 0:28 / /fake/hidden/cpu rw - cgroup cgroup rw,cpu
	40 30 0:37 / /fake/hidden/unified rw - cgroup2 cgroup2 rw
	EOF
	found
	assert_output $'v1cpu=\nv2='
}

@test "malformed lines are ignored, not fatal" {
	cat >"$MI" <<-'EOF'
	garbage
	31 30 0:28 / /fake/v1 rw cgroup cgroup rw,cpu
	- - -
	32 30 0:28 / /fake/v1ok rw - cgroup cgroup rw,cpu
	EOF
	found
	assert_output $'v1cpu=/fake/v1ok\nv2='
}

@test "a line longer than 8 KiB is dropped whole, its tail is no line" {
	# The reader holds 8191 bytes: what follows that much of the long
	# line reads as a cgroup line of its own if the tail is parsed.
	local tail='31 30 0:28 / /fake/v1tail rw - cgroup cgroup rw,cpu'
	local pad
	pad=$(printf '%*s' 8191 '' | tr ' ' x)
	{
		printf '40 30 0:37 / /fake/v2 rw - cgroup2 cgroup2 rw\n'
		printf '%s%s\n' "$pad" "$tail"
		printf '32 30 0:28 / /fake/v1ok rw - cgroup cgroup rw,cpu\n'
	} >"$MI"
	found
	assert_output $'v1cpu=/fake/v1ok\nv2=/fake/v2'
	# The last line, long and without a newline, is dropped too.
	printf '%s%s' "$pad" "$tail" >"$MI"
	found
	assert_output $'v1cpu=\nv2='
}
