#!/bin/bash
# SPDX-License-Identifier: ISC
# The check driver behind `make check`: every tests/*.bats file (the
# supervision files once per waiter strategy), then the man page checks.
# Ends with one line "N passed, N failed, N skipped" and fails on any
# failure.  The Makefile sets LEASH, TIMEOUT, SU, PROBE, LEASH_BUILDDIR.
#
# Environment: LEASH_CHECK_FILES="tests/a.bats ..." runs only those files
# (and no fuzz replay); LEASH_FUZZ_BUILDDIR the harnesses of tests/fuzz,
# each replayed over its seed corpus;
# LEASH_CHECK_WAITS="thread pidfd poll" the strategies for the
# supervision files; BATS_TEST_TIMEOUT seconds per test (default 180) and
# LEASH_FILE_TIMEOUT seconds per bats run (default 1200), so that a hung
# test fails instead of holding up CI.
set -uo pipefail

# GNU make 4.3 starts recipes with glibc's posix_spawn, which leaves
# glibc's internal signals 32 and 33 ignored in the child, and a
# background job (nohup make check &) starts with INT and QUIT ignored;
# the tests compare the command's dispositions with a clean caller's,
# so start them from one.  bash cannot reset what it found ignored, and
# libc refuses 32-34: rt_sigaction by syscall.
ign=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status 2>/dev/null)
if [ -n "$ign" ] && (( 16#$ign & 0x380000006 )) && [ -z "${LEASH_SIGRESET:-}" ] &&
   command -v perl >/dev/null; then
	export LEASH_SIGRESET=1
	exec perl -MPOSIX -e '
		my $nr = { x86_64 => 13, aarch64 => 134 }->{ (POSIX::uname())[4] };
		for my $sig (2, 3, 32 .. 34) {
			my $dfl = pack("Q4", 0, 0, 0, 0);
			syscall($nr, $sig + 0, $dfl, 0, 8) if $nr;
		}
		exec @ARGV or die "exec $ARGV[0]: $!\n"' "$0" "$@"
fi

cd "${LEASH_SRCDIR:-$(dirname "$0")/..}" || exit 1

SUPERVISION_FILES='tests/timeout.bats tests/supervise.bats tests/stress.bats tests/prexec.bats tests/terminal.bats tests/hostile.bats tests/progress.bats'
waits=${LEASH_CHECK_WAITS:-thread pidfd poll}
file_timeout=${LEASH_FILE_TIMEOUT:-1200}
export BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-180}
passed=0 failed=0 skipped=0
failures=()

command -v bats >/dev/null || { echo "leash: bats not found: apt-get install bats" >&2; exit 1; }
for v in LEASH PROBE; do
	[ -x "${!v:-}" ] || { echo "leash: $v=${!v:-} is not an executable (run make first)" >&2; exit 1; }
done

# run_bats LABEL FILE [VAR=VALUE...]: one bats run, its TAP counted.
run_bats() {
	local label=$1 file=$2
	shift 2
	echo "== $label"
	local guard=() tap rc p f s plan
	command -v timeout >/dev/null && guard=(timeout --foreground -k 10 "$file_timeout")
	tap=$(mktemp)
	# tee, not awk: mawk buffers its input, which hides a hanging test.
	# Standard input is /dev/null, typed at a terminal as in CI: the tests
	# of leash at a terminal make their own (tests/ptyrun.c).
	env "$@" "${guard[@]}" bats --tap "$file" </dev/null 2>&1 | tee "$tap"
	rc=${PIPESTATUS[0]}
	read -r p f s plan < <(awk '
		/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0 }
		/^ok / { if ($0 ~ /# skip/) s++; else p++ }
		/^not ok / { f++ }
		END { print p + 0, f + 0, s + 0, plan + 0 }' "$tap")
	rm -f "$tap"
	# A file that dies early (syntax error, hung run) still counts.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $label: bats exited with status $rc"
		f=1
	elif [ $((p + f + s)) -lt "$plan" ]; then
		echo "not ok - $label: $((plan - p - f - s)) of $plan tests did not report"
		f=$((f + plan - p - f - s))
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures+=("$label")
}

# check_item LABEL COMMAND...: one non-bats check counted as one test
# (status 77: skipped, the host cannot run it).
check_item() {
	local label=$1
	shift
	echo "== $label"
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "ok - $label"
		passed=$((passed + 1))
	elif [ "$rc" -eq 77 ]; then
		echo "ok - $label # skip"
		skipped=$((skipped + 1))
	else
		echo "not ok - $label"
		failed=$((failed + 1))
		failures+=("$label")
	fi
}

# mandoc -Tlint: warnings and errors fail; so do style messages, except a
# reference to a page that is not installed on this machine.  Notes about
# the machine's own mandoc.db carry no level and are ignored.
lint_man() {
	local out rc
	[ -f man/leash.1 ] || { echo "man/leash.1 is missing"; return 1; }
	command -v mandoc >/dev/null || { echo "mandoc not found: apt-get install mandoc"; return 1; }
	out=$(mandoc -Tlint -Wstyle man/leash.1 2>&1)
	rc=$?
	out=$(printf '%s\n' "$out" | grep -E ': (STYLE|WARNING|ERROR|UNSUPP|BADARG|SYSERR): ')
	[ -n "$out" ] && printf '%s\n' "$out"
	[ "$rc" -le 1 ] || return 1
	! printf '%s\n' "$out" | grep -v -e '^$' -e 'STYLE: referenced manual not found' | grep -q .
}

# leash never removes a uid group in its normal path, so the suite leaves
# uid_<uid> groups (and maybe the leash roots) behind: note what exists
# now and remove, at the end, what this run made and left empty.
. build-aux/cgmounts.sh
cg_existing() {
	local m
	for m in "$(mount_of cgroup2)" "$(mount_of cgroup cpu)"; do
		[ -n "$m" ] && [ -d "$m/leash" ] || continue
		echo "$m/leash"
		find "$m/leash" -mindepth 1 -maxdepth 2 -type d \
			\( -name 'uid_*' -o -name 'run_*' \)
	done
}
cg_tidy() {
	local d
	cg_existing | sort -r | while read -r d; do
		grep -qxF "$d" "$cg_before" || rmdir "$d" 2>/dev/null
	done
	rm -f "$cg_before"
}
cg_before=$(mktemp)
cg_existing >"$cg_before"
trap cg_tidy EXIT

files=${LEASH_CHECK_FILES:-$(ls tests/*.bats 2>/dev/null)}
[ -n "$files" ] || echo "leash: no tests/*.bats yet"
for f in $files; do
	case " $SUPERVISION_FILES " in
	*" $f "*)
		for w in $waits; do
			run_bats "$f (LEASH_WAIT=$w)" "$f" LEASH_WAIT="$w"
		done ;;
	*)	run_bats "$f" "$f" ;;
	esac
done

# The supervision core once more with the newer kernel interfaces
# refused (tests/nosys.c), as an old kernel or a seccomp profile would
# (ENOSYS), and as an Android app's filter does (TRAP: a SIGSYS, which
# leash takes as ENOSYS).
nosys_set=pidfd_open,clone3,timerfd_create
if [ -z "${LEASH_CHECK_FILES:-}" ]; then
	for how in ENOSYS TRAP; do
		run_bats "tests/supervise.bats ($nosys_set denied, $how)" tests/supervise.bats \
			LEASH_NOSYS=$nosys_set LEASH_NOSYS_ERRNO=$how LEASH_WAIT=pidfd
	done
fi

if [ -z "${LEASH_CHECK_FILES:-}" ]; then
	check_item "man/leash.1: mandoc -Tlint" lint_man
	if [ -f build-aux/checkman.sh ]; then
		check_item "man/leash.1: every --help option documented" \
			sh build-aux/checkman.sh
	fi
	# Every harness over its seed corpus: crashes, leaks, failed checks.
	if [ -n "${LEASH_FUZZ_BUILDDIR:-}" ]; then
		for h in tests/fuzz/*.c; do
			h=${h##*/} h=${h%.c}
			[ "$h" = common ] && continue
			check_item "tests/fuzz/$h: seed corpus replay" \
				build-aux/fuzz.sh replay "$LEASH_FUZZ_BUILDDIR" "$h"
		done
	fi
fi

if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
