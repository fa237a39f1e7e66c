#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# Finding the cgroup hierarchies in mountinfo (lib/cgroup/mountinfo.c), on
# crafted files: whole-token "cpu", " - " separator after a variable
# number of optional fields, octal escapes, the root "/" preferred,
# mounts hidden under a tmpfs skipped; Android's layouts (10-11, 12+,
# recovery).  No root needed.

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

# Android's layouts (libprocessgroup's cgroups.json, mounted by init;
# reference/android-cgroups.md), with the fake statfs of their points.
android_found() {
	run "$CHECK" --android "$MI"
	assert_status 0
}

@test "Android 12+: cpu is v1 /dev/cpuctl, cgroup2 at /sys/fs/cgroup (no cpu)" {
	cat >"$MI" <<-'EOF'
	28 24 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 none rw,memory_recursiveprot
	29 24 0:25 / /dev/blkio rw,nosuid,nodev,noexec,relatime shared:10 - cgroup none rw,blkio
	30 24 0:26 / /dev/cpuctl rw,nosuid,nodev,noexec,relatime shared:11 - cgroup none rw,cpu
	31 24 0:27 / /dev/cpuset rw,nosuid,nodev,noexec,relatime shared:12 - cgroup none rw,cpuset,noprefix,release_agent=/sbin/cpuset_release_agent
	32 24 0:28 / /dev/memcg rw,nosuid,nodev,noexec,relatime shared:13 - cgroup none rw,memory
	EOF
	android_found
	assert_output $'v1cpu=/dev/cpuctl\nv2=/sys/fs/cgroup'
}

@test "Android 10-11: /acct (cpuacct, mounted first) and /dev/stune are not cpu; cgroup2 is /dev/cg2_bpf" {
	cat >"$MI" <<-'EOF'
	20 16 0:20 / /acct rw,nosuid,nodev,noexec,relatime shared:8 - cgroup none rw,cpuacct
	24 16 0:22 / /dev/stune rw,nosuid,nodev,noexec,relatime shared:11 - cgroup none rw,schedtune
	25 16 0:23 / /dev/cpuctl rw,nosuid,nodev,noexec,relatime shared:12 - cgroup none rw,cpu
	26 16 0:24 / /dev/cpuset rw,nosuid,nodev,noexec,relatime shared:13 - cgroup none rw,cpuset,noprefix,release_agent=/sbin/cpuset_release_agent
	27 16 0:25 / /dev/freezer rw,nosuid,nodev,noexec,relatime shared:14 - cgroup none rw,freezer
	28 16 0:26 / /dev/cg2_bpf rw,nosuid,nodev,noexec,relatime shared:15 - cgroup2 none rw
	EOF
	android_found
	assert_output $'v1cpu=/dev/cpuctl\nv2=/dev/cg2_bpf'
}

@test "Android recovery: 12+ a bare cgroup2 only; 10-11 and TWRP /acct only, no group" {
	echo '30 1 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 none rw' >"$MI"
	android_found
	assert_output $'v1cpu=\nv2=/sys/fs/cgroup'
	echo '20 1 0:20 / /acct rw,relatime - cgroup none rw,cpuacct' >"$MI"
	android_found
	assert_output $'v1cpu=\nv2='
}
