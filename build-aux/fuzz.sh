#!/bin/sh
# SPDX-License-Identifier: ISC
# Run the libFuzzer harnesses of tests/fuzz, built by make fuzz-build.
#
# usage: build-aux/fuzz.sh run SECONDS BUILDDIR NAME...
#        build-aux/fuzz.sh replay BUILDDIR NAME
#
# run: fuzz each harness for SECONDS, starting from its seed corpus
# tests/fuzz/corpus/NAME; new inputs go to BUILDDIR/corpus/NAME, never
# into the tree, findings to BUILDDIR/crash-NAME-*.  One summary line
# per harness (execs, execs/s, cov, ft); fails if any harness found
# something.  replay: run harness NAME once over each file of its seed
# corpus (a regression check, seconds); fails on any crash or leak.
# FUZZ_FLAGS adds libFuzzer flags (e.g. -jobs=2 -workers=2).
set -u
cd "$(dirname "$0")/.." || exit 1

if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && ! command -v llvm-symbolizer >/dev/null &&
   command -v llvm-symbolizer-14 >/dev/null; then
	ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer-14)
	export ASAN_SYMBOLIZER_PATH
fi
# Leaks fail the run; a crash report shows where memory came from.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=20}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Flags each harness needs: inputs as long as the files it reads.
flags_of() {
	d=tests/fuzz/$1.dict
	[ -f "$d" ] && printf ' -dict=%s' "$d"
	case $1 in
	mountinfo) printf ' -max_len=20000' ;;
	cgroup) printf ' -max_len=9000' ;;
	env|passwd) printf ' -max_len=8192' ;;
	*) printf ' -max_len=1024' ;;
	esac
}

# skipped LOG NAME: the harness said it cannot run on this host (a
# plain chroot: fuzz_setup's "fuzz: skip:" line); say so.
skipped() {
	line=$(grep -m 1 '^fuzz: skip: ' "$1") || return 1
	echo "fuzz: $2: skipped: ${line#fuzz: skip: }"
}

replay() {	# replay BUILDDIR NAME
	bin=$1/fuzz-$2 corpus=tests/fuzz/corpus/$2
	[ -x "$bin" ] || { echo "fuzz: $bin missing (make fuzz-build)" >&2; return 1; }
	[ -d "$corpus" ] || { echo "fuzz: no seed corpus $corpus" >&2; return 1; }
	log=$(mktemp) || return 1
	# Files, not the directory: libFuzzer then runs each once and
	# writes nothing into the tree.
	# shellcheck disable=SC2046
	"$bin" -runs=1 $(flags_of "$2") $(find "$corpus" -type f | sort) >"$log" 2>&1
	rc=$?
	n=$(grep -c '^Executed ' "$log")
	if skipped "$log" "$2"; then
		rc=77
	elif [ "$rc" -ne 0 ]; then
		cat "$log"
		echo "fuzz: $2: replay of $corpus failed (status $rc)" >&2
	else
		echo "fuzz: $2: $n corpus files replayed"
	fi
	rm -f "$log"
	return "$rc"
}

run() {		# run SECONDS BUILDDIR NAME
	secs=$1 b=$2 name=$3
	bin=$b/fuzz-$name work=$b/corpus/$name log=$b/fuzz-$name.log
	[ -x "$bin" ] || { echo "fuzz: $bin missing (make fuzz-build)" >&2; return 1; }
	mkdir -p "$work"
	echo "== fuzz $name: $secs s"
	# shellcheck disable=SC2046
	"$bin" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$b/crash-$name-" $(flags_of "$name") \
		${FUZZ_FLAGS:-} "$work" "tests/fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	skipped "$log" "$name" && return 0
	awk -v name="$name" '
		/cov: / { for (i = 1; i < NF; i++) {
			if ($i == "cov:") cov = $(i + 1)
			if ($i == "ft:") ft = $(i + 1) } }
		/^stat::number_of_executed_units:/ { execs = $2 }
		/^stat::average_exec_per_sec:/ { rate = $2 }
		END { printf "fuzz: %s: %s execs, %s/s, cov %s, ft %s\n",
			name, execs, rate, cov, ft }' "$log"
	if [ "$rc" -ne 0 ]; then
		grep -E -A40 '^==[0-9]+== ?ERROR|runtime error|^fuzz: .*check failed' "$log" | head -60
		echo "fuzz: $name: FAILED (status $rc), log $log, input $b/crash-$name-*" >&2
	fi
	return "$rc"
}

case ${1:-} in
replay)
	[ $# -eq 3 ] || { echo "usage: $0 replay BUILDDIR NAME" >&2; exit 2; }
	replay "$2" "$3" ;;
run)
	[ $# -ge 4 ] || { echo "usage: $0 run SECONDS BUILDDIR NAME..." >&2; exit 2; }
	secs=$2 b=$3 status=0
	shift 3
	for name in "$@"; do
		run "$secs" "$b" "$name" || status=1
	done
	exit $status ;;
*)	echo "usage: $0 run SECONDS BUILDDIR NAME... | replay BUILDDIR NAME" >&2
	exit 2 ;;
esac
