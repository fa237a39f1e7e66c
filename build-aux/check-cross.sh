#!/bin/bash
# SPDX-License-Identifier: ISC
# make check-cross, one target: the bats files in LEASH_CHECK_FILES run
# against the foreign-architecture build in BUILDDIR through qemu-user,
# called explicitly (build-aux/qemu-wrap.c): nothing is registered with
# binfmt_misc.  The tests that fail only because of qemu-user itself are
# listed below by file and exact name, and skipped with the reason.
#
# usage: build-aux/check-cross.sh ARCH BUILDDIR
#        build-aux/check-cross.sh --list   check and print the list
# NOSKIP=1 runs the listed tests too (does a newer qemu pass them?).
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'leash: %s\n' "$*" >&2; exit 1; }

# FILE: exact test name<TAB>why it cannot pass under qemu-user (7.2):
# * qemu installs a host handler for every signal, even one its caller
#   left ignored (linux-user/signal.c, signal_init), so a host program
#   the emulated leash execs starts with it at its default again, and
#   /proc/self/status (where leash reads SigIgn) is the emulator's;
# * a guest's fatal signal is emulated: qemu dumps core itself, whatever
#   RLIMIT_CORE the guest set, and dies by sending the signal to itself
#   (a kill the strace audit sees from a process that does not reap);
# * an emulated process's comm is the emulator's name;
# * a guest's real-time signal 32+N is the host's SIGRTMIN+N (36 for the
#   guest's 34: host_to_target_signal_table), so what the host command
#   dies of is not the number sent, and the top few, which qemu keeps for
#   itself, are refused (PR_SET_PDEATHSIG with RTMAX-1: EINVAL);
# * qemu 7.2 has no keyctl (ENOSYS, "Unsupported syscall"), so leash
#   takes its no-keyrings path and the command keeps root's keyring;
# * qemu keeps one copy of each environment variable, the last (its
#   envlist), and builds that list in quadratic time (23 s for 100,000
#   variables, where the host takes 50 ms);
# * qemu 7.2 refuses PR_SET_CHILD_SUBREAPER, so leash's tree kill without
#   a cgroup falls back to the process group;
# * a setuid copy of the wrapper is what the kernel runs setuid: the
#   emulator it execs, and so leash, gets no AT_SECURE.
artefacts() {
	[[ -n ${NOSKIP:-} ]] && return 0
	local ign='qemu-user: ignored signals reset in what it execs'
	local dup='qemu-user: one copy of each environment variable, the last'
	local rt='qemu-user remaps real-time signals (guest 32+N is host SIGRTMIN+N)'
	local key='qemu-user 7.2: keyctl is not implemented (ENOSYS)'
	local sub='qemu-user 7.2 refuses PR_SET_CHILD_SUBREAPER (EINVAL)'
	cat <<EOF
timeout.bats: ignored signals: left ignored in the command (GNU 9.10)	$ign
timeout.bats: ignored signals: an ignored HUP (nohup) is not acted on (GNU 9.10)	qemu-user: /proc/self/status shows the emulator's dispositions
timeout.bats: re-raise: core dumps off in timeout, no core file	qemu-user: the emulator writes the core itself
timeout.bats: -s: the -v line names the signal as kill -l does	$rt
timeout.bats: -s: RTMIN and numbers as glibc numbers them (RTMIN = 34)	$rt
timeout.bats: -s: unnamed signal numbers such as 32 (GNU 9.5)	$rt
timeout.bats: -s: SIG before a number, and RTMIN/RTMAX with what strtol takes	$rt
timeout.bats: -s: every real-time signal (32..64, RTMIN..RTMAX) ends the command, not timeout: 124, or the command's 128+N (issue 22)	$rt
timeout.bats: -s: a real-time signal sent to timeout reaches the command, 34 (glibc's RTMIN) too (GNU 9.10)	$rt
su.bats: a fresh session keyring: su, su -, su -c and AOSP su keep root's key from the user	$key
ident.bats: a fresh session keyring: root's key is neither readable nor writable by the user	$key
ident.bats: the fresh keyring is root's to pay for: a target whose key quota is full still starts	$key
supervise.bats: child: signals ignored by the caller stay ignored	$ign
supervise.bats: tree kill: a setsid + double-fork escapee dies at the deadline (root --cgroup=off, and not root)	$sub
supervise.bats: tree kill: -k KILLs an escapee that ignores TERM, and a forwarded signal reaches it	$sub
supervise.bats: tree kill: --kill-leftovers kills a leftover daemon at the command's exit; without it leash does not wait for it	$sub
supervise.bats: tree kill: bats as a non-root user: run leash -t 1 -- sh -c 'setsid sleep 30 & sleep 30' takes about 1 s	$sub
supervise.bats: tree kill: adopted processes are reaped while the command runs (no zombie), and none at the end	$sub
supervise.bats: reap: leash reaps and exits when the command exits, a grandchild lives on	qemu-user: an emulated process's comm is the emulator's
supervise.bats: reap: never a signal after the reap, at the deadline boundary (strace)	qemu-user: a fatal signal is emulated by a kill to itself
ident.bats: setuid or with file capabilities, leash refuses to run	qemu-user: the setuid exec is the wrapper's; leash gets no AT_SECURE
env.bats: 100k variables: -u, -l, su and AOSP su each take well under seconds and 32 MiB	qemu-user: its start-up is quadratic in the environment
env.bats: -u: every HOME SHELL USER LOGNAME the caller had twice is the target's, once	$dup
env.bats: -l and su -l: a whitelisted name is kept once, its first value (as getenv)	$dup
EOF
}

# Every listed test must still exist under that name.
artefacts_checked() {
	local entry why
	artefacts | while IFS=$'\t' read -r entry why; do
		grep -qF "@test \"${entry#*: }\"" "$src/tests/${entry%%: *}" ||
			die "check-cross.sh lists '$entry', which tests/${entry%%: *} no longer has"
		printf '%s\t%s\n' "$entry" "$why"
	done
}

if [[ ${1:-} == --list ]]; then
	artefacts_checked
	exit
fi
[[ $# == 2 ]] || die "usage: build-aux/check-cross.sh ARCH BUILDDIR | --list"
arch=$1 bdir=$2
list=$(artefacts_checked) || exit 1
[[ -x $bdir/leash ]] || die "$bdir/leash not built (make ARCH=$arch)"
qemu=$("$src/build-aux/cross.sh" qemu "$arch" "$bdir/qemu") || exit 1
hostcc=${HOST_CC:-cc}
command -v "$hostcc" >/dev/null || hostcc=gcc

# Everything the tests run, in a world-readable directory: su and ident
# run the binaries as test users, and the tree may sit under a 0700 /root.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/leash-cross.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/target" "$tmp/bin"
cp "$qemu" "$tmp/"
q=$tmp/${qemu##*/}
progs=(leash)
for c in "$src"/tests/*.c; do
	n=${c##*/}
	n=${n%.c}
	[[ -x $bdir/$n ]] && progs+=("$n")
done
# The tests' harness tools are the host's: nosys's seccomp filter must
# act on the host's system calls (qemu refuses a guest's filter), ptyrun
# and manyenv only set up what leash is started in.  So is the probe's
# run mode (see qemu-wrap.c); its report mode stays the target's.
host_tools=" nosys ptyrun manyenv "
"$hostcc" -O2 -o "$tmp/host-probe" "$src/tests/probe.c" || die "cannot build a host probe"
for p in "${progs[@]}"; do
	if [[ $host_tools == *" $p "* ]]; then
		"$hostcc" -O2 -I"$src/lib" -o "$tmp/bin/$p" "$src/tests/$p.c" ||
			die "cannot build tests/$p.c for the host"
		continue
	fi
	cp "$bdir/$p" "$tmp/target/$p"
	flags=()
	[[ $p == probe ]] && flags=(-DHOST_RUN="\"$tmp/host-probe\"")
	"$hostcc" -O2 -DQEMU="\"$q\"" -DTARGET="\"$tmp/target/$p\"" "${flags[@]}" \
		-o "$tmp/bin/$p" "$src/build-aux/qemu-wrap.c" || die "cannot build the qemu wrapper"
done
# libleash's host tests (tests/library.bats), each the target's build
# under its own wrapper; the archive itself for the shape tests, read
# with the target's nm.
if [[ -d $bdir/host ]]; then
	mkdir -p "$tmp/target/host" "$tmp/bin/host"
	for h in "$bdir"/host/*; do
		[[ -x $h && -f $h ]] || continue
		n=${h##*/}
		cp "$h" "$tmp/target/host/$n"
		"$hostcc" -O2 -DQEMU="\"$q\"" -DTARGET="\"$tmp/target/host/$n\"" \
			-o "$tmp/bin/host/$n" "$src/build-aux/qemu-wrap.c" ||
			die "cannot build the qemu wrapper"
	done
fi
[[ -f $bdir/libleash.a ]] && cp "$bdir/libleash.a" "$tmp/bin/"
readelf=$(sed -n 's/^READELF = //p' "$bdir/config.mk" 2>/dev/null)
# The target's binutils read and link its archive (the host's would not):
# nm for the exports, ld and objdump for the writable data it reaches.
nm=${readelf%readelf}nm ld=${readelf%readelf}ld objdump=${readelf%readelf}objdump
command -v "$nm" >/dev/null 2>&1 || nm=nm
command -v "$ld" >/dev/null 2>&1 || ld=ld
command -v "$objdump" >/dev/null 2>&1 || objdump=objdump
ln -s leash "$tmp/bin/timeout"
ln -s leash "$tmp/bin/su"
chmod -R go+rX "$tmp"

printf '%s\n' "$list" >"$tmp/skip"

emulator=$("$q" --version | sed -n '1s/ *(.*//p')
emulator=${emulator:-${qemu##*/}}
echo "== check-cross $arch: $("$tmp/bin/leash" --version | head -n 1) under ${qemu##*/} ($emulator)"
# LEASH_EMULATOR: the tests run under an emulator (its name and version),
# for those that must tell an emulator's refusal from the kernel's.
LEASH_EMULATOR=$emulator NM=$nm LD=$ld OBJDUMP=$objdump \
LEASH=$tmp/bin/leash TIMEOUT=$tmp/bin/timeout SU=$tmp/bin/su \
	PROBE=$tmp/bin/probe LEASH_BUILDDIR=$tmp/bin LEASH_SRCDIR=$src \
	LEASH_SKIP_LIST=$tmp/skip "$src/build-aux/check.sh"
