#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# The cross build's guards: ./configure --host=... for a target it cannot
# build names what is missing in one line; a cross link with a host
# object fails (build-aux/cross.sh elf); make check-cross's list of qemu
# artefacts matches tests by exact name and names only tests that exist.
# Configure runs in a temporary directory, never in the tree.

bats_require_minimum_version 1.5.0
load helpers

# path_without PATTERN: a directory of links to the commands on PATH,
# less those whose name matches PATTERN (a machine without that package).
path_without() {
	local d=$TMP/path f n
	local -a keep=()
	local -A seen=()
	mkdir -p "$d"
	for f in /usr/local/sbin/* /usr/local/bin/* /usr/sbin/* /usr/bin/* /sbin/* /bin/*; do
		n=${f##*/}
		# shellcheck disable=SC2053  # PATTERN is a glob on purpose
		[[ -x $f && -z ${seen[$n]:-} && $n != $1 ]] || continue
		seen[$n]=1
		keep+=("$f")
	done
	ln -s -t "$d" "${keep[@]}"
	printf '%s\n' "$d"
}

# configure_in ARGS...: run configure from an empty directory; status and
# output in bats' run variables, stdout and stderr apart.
configure_in() {
	mkdir -p "$TMP/cfg"
	cd "$TMP/cfg"
	run --separate-stderr "$TOP/configure" "$@"
	cd "$TOP"
}

assert_one_line_naming() {
	echo "stderr: $stderr" >&2
	[ "$status" -ne 0 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"$1"* ]]
	[ ! -e "$TMP/cfg/config.mk" ]
}

@test "configure --host: an unknown target without its compiler fails in one line" {
	configure_in --host=mips-linux-musl
	assert_one_line_naming "mips-linux-musl-gcc not found"
}

@test "configure --host: no cross gcc names its package in one line" {
	local p
	p=$(path_without '*-linux-gnu*-gcc*')
	PATH=$p configure_in --host=aarch64-linux-musl
	assert_one_line_naming "apt-get install gcc-aarch64-linux-gnu"
	PATH=$p configure_in --host=arm-linux-musleabihf
	assert_one_line_naming "apt-get install gcc-arm-linux-gnueabihf"
}

@test "configure --host: musl-dev that cannot be fetched is named in one line" {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (build-aux/deps.sh aarch64)"
	mkdir -p "$TMP/fake"
	printf '#!/bin/sh\necho "E: no network" >&2\nexit 100\n' >"$TMP/fake/apt-get"
	chmod 755 "$TMP/fake/apt-get"
	PATH=$TMP/fake:$PATH configure_in --host=aarch64-linux-musl
	assert_one_line_naming "musl-dev:arm64: cannot download musl-dev:arm64"
}

@test "configure --host: missing kernel headers of the target are named in one line" {
	need_root "a private mount namespace hides the headers"
	[[ -x $TOP/build-aarch64/musl/bin/aarch64-linux-musl-gcc ]] ||
		skip "no unpacked musl for aarch64 (make ARCH=aarch64)"
	[[ -d /usr/aarch64-linux-gnu/include/asm ]] || skip "no linux-libc-dev-arm64-cross"
	need_mountns
	mkdir -p "$TMP/cfg/build-aarch64"
	ln -s "$TOP/build-aarch64/musl" "$TMP/cfg/build-aarch64/musl"
	cd "$TMP/cfg"
	run --separate-stderr unshare -m sh -c \
		'mount -t tmpfs none /usr/aarch64-linux-gnu/include && exec "$@"' sh \
		"$TOP/configure" --host=aarch64-linux-musl
	cd "$TOP"
	assert_one_line_naming "apt-get install linux-libc-dev-arm64-cross"
}

# A target object and a host one, and the check over a link trace.
elf_pair() {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (build-aux/deps.sh aarch64)"
	printf 'int x;\n' >"$TMP/x.c"
	aarch64-linux-gnu-gcc -c -o "$TMP/target.o" "$TMP/x.c"
	cc -c -o "$TMP/host.o" "$TMP/x.c"
}

@test "cross link: every input of the target's machine passes" {
	elf_pair
	aarch64-linux-gnu-ar rc "$TMP/libt.a" "$TMP/target.o"
	printf '%s\n' "/usr/bin/ld: mode aarch64linux" "$TMP/target.o" "$TMP/libt.a" >"$TMP/trace"
	run "$TOP/build-aux/cross.sh" elf AArch64 "$TMP/trace" "$TMP/target.o"
	assert_status 0
}

@test "cross link: a host object or archive member fails, and is named" {
	elf_pair
	printf '%s\n' "$TMP/target.o" "$TMP/host.o" >"$TMP/trace"
	run "$TOP/build-aux/cross.sh" elf AArch64 "$TMP/trace"
	[ "$status" -ne 0 ]
	[[ $output == *"$TMP/host.o: ELF machine Advanced Micro Devices X86-64, not AArch64"* ]] ||
		[[ $(uname -m) != x86_64 ]]
	ar rc "$TMP/mixed.a" "$TMP/target.o" "$TMP/host.o"
	printf '(%s)host.o\n' "$TMP/mixed.a" >"$TMP/trace"
	run "$TOP/build-aux/cross.sh" elf AArch64 "$TMP/trace"
	[ "$status" -ne 0 ]
	[[ $output == *"$TMP/mixed.a: ELF machine"* ]]
	# The output binary itself is checked too.
	printf '%s\n' "$TMP/target.o" >"$TMP/trace"
	run "$TOP/build-aux/cross.sh" elf AArch64 "$TMP/trace" "$TMP/host.o"
	[ "$status" -ne 0 ]
}

@test "cross link: the Makefile checks a cross build's link" {
	[[ -f $TOP/build-aarch64/config.mk ]] || skip "build-aarch64 not configured (make ARCH=aarch64)"
	# Whatever build the suite runs on (SANITIZE=1 is not a cross build).
	run env -u MAKEFLAGS -u SANITIZE make -C "$TOP" -n --no-print-directory ARCH=aarch64 \
		-W build-aarch64/.flags build-aarch64/leash
	assert_status 0
	[[ $output == *"--trace >build-aarch64/leash.inputs"* ]]
	[[ $output == *"cross.sh elf 'AArch64' build-aarch64/leash.inputs build-aarch64/leash.tmp"* ]]
}

@test "arm64: every loadable segment is aligned to 16 KiB pages" {
	[[ -x $TOP/build-aarch64/leash ]] || skip "no build-aarch64/leash (make ARCH=aarch64)"
	run readelf -lW "$TOP/build-aarch64/leash"
	assert_status 0
	local aligns
	aligns=$(awk '$1 == "LOAD" { print $NF }' <<<"$output" | sort -u)
	echo "LOAD alignments: $aligns" >&2
	[ "$aligns" = 0x4000 ]
}

# --- the list of qemu artefacts ----------------------------------------------

@test "skip list: a test listed by its exact name is skipped, with the reason" {
	# Written with printf: bats would rewrite @test lines in a here-document.
	local t=@test
	printf '%s\n' "load \"$BATS_TEST_DIRNAME/helpers\"" "$t \"alpha\" { true; }" \
		"$t \"alpha beta\" { true; }" "$t \"a*\" { true; }" >"$TMP/t.bats"
	printf 't.bats: alpha\tbecause\nt.bats: a*\tstar\nother.bats: alpha beta\tnot here\n' >"$TMP/list"
	# bats inside bats: without the outer run's variables, and not on fd 3,
	# where it would report to the outer run.
	local v
	local -a clean=()
	for v in $(compgen -e); do
		[[ $v == BATS_* ]] && clean+=(-u "$v")
	done
	run env "${clean[@]}" LEASH_SKIP_LIST="$TMP/list" bats --tap "$TMP/t.bats" 3>&-
	assert_status 0
	assert_output "1..3
ok 1 alpha # skip because
ok 2 alpha beta
ok 3 a* # skip star"
}

@test "skip list: check-cross names only tests that exist" {
	run "$TOP/build-aux/check-cross.sh" --list
	assert_status 0
	[ "${#lines[@]}" -ge 1 ]
	# A renamed test: the stale entry stops check-cross.
	mkdir -p "$TMP/tree/build-aux" "$TMP/tree/tests"
	cp "$TOP/build-aux/check-cross.sh" "$TMP/tree/build-aux/"
	cp "$TOP"/tests/*.bats "$TMP/tree/tests/"
	local first=${lines[0]%%$'\t'*}
	sed -i "s/@test \"${first#*: }\"/@test \"renamed\"/" "$TMP/tree/tests/${first%%: *}"
	run "$TMP/tree/build-aux/check-cross.sh" --list
	[ "$status" -ne 0 ]
	[[ $output == *"lists '$first', which tests/${first%%: *} no longer has"* ]]
}
