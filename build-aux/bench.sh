#!/bin/sh
# SPDX-License-Identifier: ISC
# make bench: measure leash against the tools it replaces, in one run.
# Runs build/bench (tests/bench/*.c), which prints the tables and writes
# bench-<commit>[-dirty][-quick].json at the top of the source tree
# (ignored by git), so that two runs can be compared.  See
# tests/bench/README.
#
# Environment:
#   BENCH_QUICK=1      a short run (under a minute on an idle machine)
#   BENCH_ONLY=LIST    only these sections: launch,latency,overshoot,
#                      memory,size,scale,stress,fair,relay,watch,library
#   BENCH_JSON=FILE    write the JSON there instead
#   BENCH_VARIANT="LEASH..."  up to 3 more leash binaries for the launch
#                      table (--variant: before and after in one run)
#   BENCH_QEMU=PATH    qemu-user for this machine's architecture, for the
#                      emulated rows; unset: the one build-aux/cross.sh
#                      unpacks into the build directory (fetched once);
#                      "no": no emulated rows
#   BENCH_GLIBC=PATH   the bench built against glibc (make bench builds
#                      build-glibc/bench), for the library section's glibc
#                      host rows; unset or "no": none, BENCH_GLIBC_WHY
#                      says why
#   LEASH, BENCH       the binaries (make passes build/leash, build/bench)
set -eu

srcdir=${LEASH_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${LEASH_BUILDDIR:-$srcdir/build}
bench=${BENCH:-$builddir/bench}
leash=${LEASH:-$builddir/leash}

if [ ! -x "$bench" ]; then
	echo "bench: $bench is not built (run: make $builddir/bench)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "bench: not root: the -u and cgroup rows will be skipped" >&2
fi

# The commit the figures belong to; -dirty when the tree has changes.
commit=$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null) ||
	commit=uncommitted
if [ "$commit" != uncommitted ] &&
	! git -C "$srcdir" diff --quiet HEAD -- 2>/dev/null; then
	commit=$commit-dirty
fi

# A quick run gets its own name, so it never replaces a full one.
case ${BENCH_QUICK:-0} in
0 | '') quick= ;;
*) quick=-quick ;;
esac
set -- --leash "$leash" --commit "$commit" \
	--json "${BENCH_JSON:-$srcdir/bench-$commit$quick.json}"
if [ -f "$srcdir/build-aux/demo-fair.sh" ]; then
	set -- "$@" --fair "$srcdir/build-aux/demo-fair.sh"
fi
if [ -n "$quick" ]; then
	set -- "$@" --quick
fi
if [ -n "${BENCH_ONLY:-}" ]; then
	set -- "$@" --only "$BENCH_ONLY"
fi
for v in ${BENCH_VARIANT:-}; do
	set -- "$@" --variant "$v"
done
# The emulated start: leash and the minimal supervisor under the same
# qemu-user, the machine's own architecture on itself.
qemu=${BENCH_QEMU-}
if [ -z "$qemu" ]; then
	qemu=$("$srcdir/build-aux/cross.sh" qemu "$(uname -m)" "$builddir/qemu") ||
		echo "bench: no qemu-user: the emulated rows are skipped" >&2
fi
case $qemu in
no | '') ;;
*) set -- "$@" --qemu "$qemu" ;;
esac
case ${BENCH_GLIBC-} in
'') set -- "$@" --glibc-skip \
	"${BENCH_GLIBC_WHY:-no glibc build: make bench builds one, or BENCH_GLIBC}" ;;
no) set -- "$@" --glibc-skip "${BENCH_GLIBC_WHY:-BENCH_GLIBC=no}" ;;
*) set -- "$@" --glibc "$BENCH_GLIBC" ;;
esac
exec "$bench" "$@"
