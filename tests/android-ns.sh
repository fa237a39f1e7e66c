#!/bin/bash
# SPDX-License-Identifier: ISC
# android-ns.sh: run a command where the cgroups are laid out as on
# Android, in a private mount namespace that dies with it (the host's
# mounts are never touched).  Used by tests/cgroup-android.bats, as root.
#
#   android-ns.sh [-c DIR] [-2 DIR | -b DIR] -- COMMAND...
#
#   -c DIR  a directory of the v1 cpu hierarchy, bound at /dev/cpuctl
#   -2 DIR  a directory of cgroup2, bound at /sys/fs/cgroup (Android 12+)
#   -b DIR  the same at /dev/cg2_bpf (Android 10-11)
#
# Whatever is not given is absent: /sys/fs/cgroup is then an empty
# tmpfs, which hides the host's hierarchies from the command (and from
# mountinfo's statfs check).  /dev is a tmpfs too, as on Android, with
# the host's null, zero, full, random, urandom and tty bound into it.
# The directories are bound, not the whole hierarchies mounted again, so
# a test's groups stay inside its own directories.
set -eu

cpuctl= cg2= bpf=
while getopts c:2:b: opt; do
	case $opt in
	c) cpuctl=$OPTARG ;;
	2) cg2=$OPTARG ;;
	b) bpf=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

if [[ ${ANDROID_NS_INSIDE:-} != 1 ]]; then
	args=()
	[[ -n $cpuctl ]] && args+=(-c "$cpuctl")
	[[ -n $cg2 ]] && args+=(-2 "$cg2")
	[[ -n $bpf ]] && args+=(-b "$bpf")
	export ANDROID_NS_INSIDE=1
	exec unshare -m --propagation private "$0" "${args[@]}" -- "$@"
fi

old=$(mktemp -d /tmp/leash-android-dev.XXXXXX)
mount --bind /dev "$old"
mount -t tmpfs -o mode=755 none /dev
for n in null zero full random urandom tty; do
	: >"/dev/$n"
	mount --bind "$old/$n" "/dev/$n"
done
ln -s /proc/self/fd /dev/fd
umount "$old" && rmdir "$old"

if [[ -n $cpuctl ]]; then
	mkdir /dev/cpuctl
	mount --bind "$cpuctl" /dev/cpuctl
fi
if [[ -n $bpf ]]; then
	mkdir /dev/cg2_bpf
	mount --bind "$bpf" /dev/cg2_bpf
fi
# Last: the sources above may lie under the host's /sys/fs/cgroup.
if [[ -n $cg2 ]]; then
	mount --bind "$cg2" /sys/fs/cgroup
else
	mount -t tmpfs -o mode=755 none /sys/fs/cgroup
fi
unset ANDROID_NS_INSIDE
exec "$@"
