#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# build.bats: the build as a newcomer meets it, on a copy of the source
# tree: plain make on an unconfigured tree, make distclean, make dist
# without git, deps.sh's plan.  No root needed.

load helpers

# copy_tree: the source tree without what a build adds, in $SRC: the
# files git has (tracked, or new and not ignored), else all but the
# build's own directories.
copy_tree() {
	SRC=$TMP/src
	mkdir "$SRC"
	if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TOP" ls-files -z --cached --others --exclude-standard |
			tar -C "$TOP" --null -T - -cf - | tar -C "$SRC" -xf -
		return
	fi
	tar -C "$TOP" --exclude=./.git --exclude=./build --exclude=./build-san \
		--exclude=./build-fuzz --exclude=./build-aarch64 --exclude=./build-armhf \
		--exclude=./build-i686 --exclude=./build-x86_64 --exclude=./config.mk \
		--exclude='./bench-*.json' -cf - . |
		tar -C "$SRC" -xf -
}

# cleanmake ARG...: make as a user types it, not as a child of the make
# that runs this suite (whose MAKEFLAGS may carry CC=, -j and its jobserver,
# and whose environment SANITIZE=1).
cleanmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE make "$@"
}

# files DIR: every path under DIR, sorted.
files() {
	(cd "$1" && find . | LC_ALL=C sort)
}

@test "make on an unconfigured tree stops when configure fails, with its message" {
	copy_tree
	CC=leash-no-such-cc run cleanmake -C "$SRC"
	[ "$status" -ne 0 ]
	[[ $output == *"configure: C compiler 'leash-no-such-cc' not found"* ]]
	[[ $output == *"leash: ./configure failed"* ]]
	# Nothing was compiled with a compiler configure did not choose.
	[[ $output != *"  CC      "* ]]
	[[ ! -e $SRC/config.mk && ! -e $SRC/build ]]
}

@test "a config.mk older than configure is made again, with the arguments it was made with" {
	copy_tree
	(cd "$SRC" && ./configure --prefix=/opt/leash-test) >/dev/null
	touch -d 2000-01-01 "$SRC/config.mk"
	run cleanmake -C "$SRC" build/probe
	[ "$status" -eq 0 ]
	[[ $output == *"leash: config.mk is older than configure: './configure' '--prefix=/opt/leash-test'"* ]]
	grep -q '^prefix = /opt/leash-test$' "$SRC/config.mk"
	# Made once: the next make takes it as it is.
	run cleanmake -C "$SRC" build/probe
	[ "$status" -eq 0 ]
	[[ $output != *"older than configure"* ]]
}

@test "make distclean leaves exactly the tree it started from" {
	copy_tree
	files "$SRC" >"$TMP/before"
	(cd "$SRC" && ./configure) >/dev/null
	cleanmake -C "$SRC" build/probe >/dev/null
	# What make bench and make check SANITIZE=1 leave at the top.
	touch "$SRC/bench-0123abc.json" "$SRC/bench-0123abc-dirty-quick.json"
	mkdir -p "$SRC/build-san/obj"
	# And a cross build's directory (make ARCH=aarch64), beside build-aux.
	mkdir -p "$SRC/build-aarch64/musl"
	run cleanmake -C "$SRC" distclean
	assert_status 0
	files "$SRC" >"$TMP/after"
	diff "$TMP/before" "$TMP/after"
}

@test "make dist in an exported tree (no .git): git's files, build-aux too, every mtime the commit's, and the tarball builds" {
	command -v git >/dev/null && git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
		skip "not a git checkout: no tree to export"
	# One commit throughout: a commit made while this runs (minutes on
	# a busy machine) must not change what the tarball is held to.
	local head
	head=$(git -C "$TOP" rev-parse HEAD)
	SRC=$TMP/export
	mkdir "$SRC"
	git -C "$TOP" archive "$head" | tar -C "$SRC" -xf -
	# distcheck: make dist, then ./configure && make && make install
	# from the unpacked tarball.
	run cleanmake -C "$SRC" distcheck
	assert_status 0
	[[ $output == *"builds and installs with ./configure && make && make install"* ]]
	local tgz
	tgz=$(echo "$SRC"/build/release/leash-*.tar.gz)
	tar -tzf "$tgz" | sed 's|^[^/]*/||' | LC_ALL=C sort >"$TMP/got"
	git -C "$TOP" ls-tree -r --name-only "$head" | grep -v -e '^\.ci/' -e '^\.git' |
		LC_ALL=C sort >"$TMP/want"
	diff "$TMP/want" "$TMP/got"
	mkdir "$TMP/x"
	tar -C "$TMP/x" -xzf "$tgz"
	[[ $(find "$TMP/x" -type f -printf '%Ts\n' | sort -u) == "$(git -C "$TOP" log -1 --format=%ct "$head")" ]]
	# SOURCE_DATE_EPOCH, when given, is every file's mtime.
	SOURCE_DATE_EPOCH=1000000000 run cleanmake -C "$SRC" dist
	assert_status 0
	rm -rf "$TMP/x" && mkdir "$TMP/x"
	tar -C "$TMP/x" -xzf "$tgz"
	[[ $(find "$TMP/x" -type f -printf '%Ts\n' | sort -u) == 1000000000 ]]
}

@test "deps.sh says what it installs, then updates the package lists, and only then" {
	run "$TOP/build-aux/deps.sh" --dry-run --assume-missing check
	assert_status 0
	[[ ${lines[0]} =~ ^"leash: "[0-9]+" packages to install with apt-get" ]]
	[[ ${lines[1]} == "leash: installing "* ]]
	[[ ${lines[-1]} == "leash: updating the package lists (apt-get update)" ]]
	# Nothing missing: no update, no install.
	run "$TOP/build-aux/deps.sh" --dry-run sh:dash
	assert_status 0
	assert_output ""
}

@test "make release fails when the README's stripped size of an ARCH is more than 2 KiB off" {
	copy_tree
	# A built build-x86_64 as release.sh reads it: the binary and the
	# config.mk lines it asks.
	mkdir "$SRC/build-x86_64"
	cp "$LEASH" "$SRC/build-x86_64/leash"
	printf 'LINK = static\nSTRIP = strip\nQEMU =\n' >"$SRC/build-x86_64/config.mk"
	local kib
	cp "$LEASH" "$TMP/stripped"
	strip --strip-all "$TMP/stripped"
	kib=$((($(wc -c <"$TMP/stripped") + 512) / 1024))
	grep -q '^Stripped sizes' "$SRC/README"
	sed -i "/^Stripped sizes/,/^\$/s/x86_64 [0-9]* KiB/x86_64 $((kib + 3)) KiB/" "$SRC/README"
	run bash -c 'cd "$1" && build-aux/release.sh "$2" x86_64' sh "$SRC" "$TMP/out"
	assert_status 1
	[[ ${lines[-1]} == "leash: the README's stripped sizes are stale: x86_64 $kib KiB (README: $((kib + 3))); update its 'Stripped sizes' paragraph" ]]
	sed -i "/^Stripped sizes/,/^\$/s/x86_64 [0-9]* KiB/x86_64 $((kib - 2)) KiB/" "$SRC/README"
	run bash -c 'cd "$1" && build-aux/release.sh "$2" x86_64' sh "$SRC" "$TMP/out"
	assert_status 0
}

@test "make demo installs the build and the demo's tools only: no bats, no clang (make check and make fuzz bring those)" {
	run "$TOP/build-aux/deps.sh" --dry-run --assume-missing demo
	assert_status 0
	[[ $output == *"installing musl-tools "* && $output == *"installing util-linux "* ]]
	[[ $output != *bats* && $output != *clang* && $output != *llvm* && $output != *mandoc* ]]
	[[ -f $TOP/config.mk ]] || skip "the tree is not configured: make -n would configure it"
	run cleanmake -n -C "$TOP" DEPS=1 demo
	[[ $output == *"build-aux/deps.sh demo"* ]]
	[[ $output != *"build-aux/deps.sh check"* ]]
}

@test "deps.sh asks for bash-completion (check profile) and no longer for hyperfine" {
	run "$TOP/build-aux/deps.sh" --dry-run --assume-missing check
	[[ $output == *"installing bash-completion "* ]]
	run "$TOP/build-aux/deps.sh" --dry-run --assume-missing bench
	assert_status 2
	[[ $output != *hyperfine* ]]
}

@test "lib/ and cmd/ flow one way: no file calls into one that calls back into it, at any distance" {
	local b=${LEASH_BUILDDIR:-$TOP/build} c objs=()
	for c in "$TOP"/lib/*/*.c "$TOP"/cmd/*.c; do
		c=${c#"$TOP"/}
		objs+=("$b/obj/${c%.c}.o")
	done
	run nm -A "${objs[@]}"
	[ "$status" -eq 0 ] || skip "nm cannot read this build's objects"
	# Each file's global definitions, then its references to another's:
	# an edge per pair of files; a depth-first walk says any circle.
	run awk -F: '
		{ n = split($NF, f, " "); file = $1; sub(".*/obj/", "", file)
		  if (n == 2 && f[1] == "U") use[file, f[2]] = 1
		  else if (n == 3 && f[2] ~ /^[TDBRV]$/) def[f[3]] = file }
		END {
			for (k in use) {
				split(k, p, SUBSEP)
				if ((p[2] in def) && def[p[2]] != p[1] && !((p[1], def[p[2]]) in edge)) {
					edge[p[1], def[p[2]]] = 1; out[p[1]] = out[p[1]] " " def[p[2]]; edges++
				}
			}
			for (v in out) if (!state[v]) walk(v, v)
			print edges " edges"
		}
		function walk(v, path,   n, w, i) {
			state[v] = 1
			n = split(out[v], w, " ")
			for (i = 1; i <= n; i++)
				if (state[w[i]] == 1) print "circle: " path " -> " w[i]
				else if (!state[w[i]]) walk(w[i], path " -> " w[i])
			state[v] = 2
		}' <<<"$output"
	assert_status 0
	# Objects nm can list but not read (another compiler's LTO) give
	# no edges: nothing was checked.
	[[ ${lines[-1]} != "0 edges" ]] || skip "nm reads no symbols from this build's objects"
	[[ $output != *circle* ]] || { echo "$output"; false; }
}

# The areas of lib/ and their order, from lib/README's "order:" line.
lib_order() {
	sed -n 's/^order: //p' "$TOP/lib/README"
}

@test "lib/ is in area folders, each with a face that opens with its contract" {
	local order a f bad=()
	order=$(lib_order)
	[ -n "$order" ]
	for f in "$TOP"/lib/*; do
		# leash.h: libleash's public header, the face of the areas a
		# host uses (DESIGN.md, Layout); it includes no header of lib/.
		[[ -d $f || ${f##*/} == README || ${f##*/} == leash.h ]] ||
			bad+=("${f#"$TOP"/}: not in an area folder")
		[[ ! -d $f || " $order " == *" ${f##*/} "* ]] ||
			bad+=("${f#"$TOP"/}: an area not in lib/README's order")
	done
	for a in $order; do
		f=$TOP/lib/$a/$a.h
		[[ -f $f ]] || { bad+=("lib/$a: no face $a.h"); continue; }
		# The first comment after the licence line, three lines at least.
		awk 'NR == 2 && !/^\/\*/ { exit 1 } NR > 1 && /\*\// { exit !(NR >= 4) }' "$f" ||
			bad+=("lib/$a/$a.h: does not open with a contract of three lines or more")
	done
	! grep -n '^#include "' "$TOP/lib/leash.h" ||
		bad+=("lib/leash.h: a public header includes nothing of lib/")
	printf '%s\n' "${bad[@]}"
	[ ${#bad[@]} -eq 0 ]
}

@test "lib/ areas include each other through their faces, downwards only; cmd/ includes faces only" {
	local order
	order=$(lib_order)
	run awk -v order="$order" '
		BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i }
		FNR == 1 { here = FILENAME; sub(".*/(lib|cmd)/", "", here)
			area = (FILENAME ~ /\/cmd\//) ? "cmd" : here; sub("/.*", "", area) }
		/^#include "/ {
			inc = $2; gsub("\"", "", inc)
			# The public face: from the areas it is the face of.
			if (inc == "leash.h" && area ~ /^(cmd|spawn|supervise|report)$/)
				next
			if (inc !~ /\//) {
				if (area != "cmd") print FILENAME ": " inc ": name the area (\"" area "/" inc "\")"
				next
			}
			to = inc; sub("/.*", "", to)
			if (!(to in rank)) next
			if (to == area) next
			if (inc != to "/" to ".h") print FILENAME ": " inc ": not the face of " to "/"
			else if (area != "cmd" && rank[to] >= rank[area])
				print FILENAME ": " inc ": " area "/ includes an area above it"
		}' "$TOP"/lib/*/*.[ch] "$TOP"/lib/*/*.def "$TOP"/cmd/*.[ch]
	assert_status 0
	[ -z "$output" ] || { echo "$output"; false; }
}
