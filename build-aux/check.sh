#!/bin/bash
# SPDX-License-Identifier: ISC
# The check driver behind `make check`: every tests/*.bats file, several
# side by side, then the man page checks and the fuzz replays.  Each
# file's TAP is printed whole when the file ends, with its time; the run
# ends with the slowest files and tests, one line "N passed, N failed,
# N skipped" and its wall time, and fails on any failure.  The Makefile
# sets LEASH, TIMEOUT, SU, PROBE, LEASH_BUILDDIR.
#
# The supervision files run whole under the first waiter strategy, and
# under each other one without their tests tagged no_waiter (bats
# test_tags): those in which leash never picks a waiter (usage errors,
# the harness alone, tests that set LEASH_WAIT themselves), so that a
# strategy cannot change them; tests/README says how that is checked.
#
# Environment: LEASH_CHECK_FILES="tests/a.bats ..." runs only those files
# (and no fuzz replay); LEASH_FUZZ_BUILDDIR the harnesses of tests/fuzz,
# each replayed over its seed corpus;
# LEASH_CHECK_WAITS="thread pidfd poll" the strategies for the
# supervision files; LEASH_CHECK_WAIT_ALL=1 runs those files whole under
# every strategy; LEASH_CHECK_JOBS bats runs side by side (default 4;
# 1: one after the other); BATS_TEST_TIMEOUT seconds per test (default
# 180) and LEASH_FILE_TIMEOUT seconds per bats run (default 900), so
# that a hung test fails instead of holding up CI.
set -uo pipefail
check_t0=$EPOCHREALTIME

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
file_timeout=${LEASH_FILE_TIMEOUT:-900}
njobs=${LEASH_CHECK_JOBS:-4}
export BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-180}
passed=0 failed=0 skipped=0
failures=()

command -v bats >/dev/null || { echo "leash: bats not found: apt-get install bats" >&2; exit 1; }
for v in LEASH PROBE; do
	[ -x "${!v:-}" ] || { echo "leash: $v=${!v:-} is not an executable (run make first)" >&2; exit 1; }
done
[[ $njobs =~ ^[1-9][0-9]*$ ]] || { echo "leash: LEASH_CHECK_JOBS=$njobs is not a number of jobs" >&2; exit 1; }

out=$(mktemp -d "${TMPDIR:-/tmp}/leash-check.XXXXXX") || exit 1
# What the runs may share, made once (compiled locales: timeout.bats).
export LEASH_TEST_CACHE=$out/cache
mkdir "$LEASH_TEST_CACHE"

# --- the runs: a label, a file, then VAR=VALUE words and bats options ------

labels=() rfiles=() rargs=()
add_run() {	# add_run LABEL FILE [VAR=VALUE | --bats-option]...
	labels+=("$1") rfiles+=("$2")
	shift 2
	rargs+=("$*")
}

# Debian 12's bats (1.8.2) takes --filter-tags, though its --help does
# not list it; one that does not gets the whole file (slower, the same).
tags_ok=0
tagprobe=$out/tags.bats
printf '# bats test_tags=t\n@test t { false; }\n@test u { true; }\n' >"$tagprobe"
[ "$(bats --tap --filter-tags '!t' "$tagprobe" 2>/dev/null </dev/null)" = "1..1
ok 1 u" ] && tags_ok=1

files=${LEASH_CHECK_FILES:-$(ls tests/*.bats 2>/dev/null)}
[ -n "$files" ] || echo "leash: no tests/*.bats yet"
for f in $files; do
	case " $SUPERVISION_FILES " in
	*" $f "*)
		first=1
		for w in $waits; do
			if ((first)) || [ "${LEASH_CHECK_WAIT_ALL:-0}" = 1 ] || ((!tags_ok)); then
				add_run "$f (LEASH_WAIT=$w)" "$f" LEASH_WAIT="$w"
			else
				add_run "$f (LEASH_WAIT=$w, not no_waiter)" "$f" \
					LEASH_WAIT="$w" --filter-tags '!no_waiter'
			fi
			first=0
		done ;;
	*)	add_run "$f" "$f" ;;
	esac
done

# The supervision core once more with the newer kernel interfaces
# refused (tests/nosys.c), as an old kernel or a seccomp profile would
# (ENOSYS), and as an Android app's filter does (TRAP: a SIGSYS, which
# leash takes as ENOSYS): the tests that reach the spawn and the waiter.
nosys_set=pidfd_open,clone3,timerfd_create
if [ -z "${LEASH_CHECK_FILES:-}" ]; then
	for how in ENOSYS TRAP; do
		tag=() what=
		((tags_ok)) && [ "${LEASH_CHECK_WAIT_ALL:-0}" != 1 ] &&
			tag=(--filter-tags '!no_waiter') what=', not no_waiter'
		add_run "tests/supervise.bats ($nosys_set denied, $how$what)" tests/supervise.bats \
			LEASH_NOSYS=$nosys_set LEASH_NOSYS_ERRNO=$how LEASH_WAIT=pidfd "${tag[@]}"
	done
fi

# check_item LABEL COMMAND...: one non-bats check counted as one test
# (status 77: skipped, the host cannot run it).
check_item() {
	local label=$1 t0=$EPOCHREALTIME
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
	times+=("$(secs_since "$t0")	$label")
}

# mandoc -Tlint: warnings and errors fail; so do style messages, except a
# reference to a page that is not installed on this machine.  Notes about
# the machine's own mandoc.db carry no level and are ignored.
lint_man() {
	local lint rc page=${1:-man/leash.1}
	[ -f "$page" ] || { echo "$page is missing"; return 1; }
	command -v mandoc >/dev/null || { echo "mandoc not found: apt-get install mandoc"; return 1; }
	lint=$(mandoc -Tlint -Wstyle "$page" 2>&1)
	rc=$?
	lint=$(printf '%s\n' "$lint" | grep -E ': (STYLE|WARNING|ERROR|UNSUPP|BADARG|SYSERR): ')
	[ "$rc" -le 1 ] || { printf '%s\n' "$lint"; return 1; }
	if printf '%s\n' "$lint" | grep -v -e '^$' -e 'STYLE: referenced manual not found' | grep -q .; then
		printf '%s\n' "$lint"
		return 1
	fi
	# What is left names pages this machine lacks (SEE ALSO): not a fault.
	[ -z "$lint" ] || echo "# mandoc: $(printf '%s\n' "$lint" | grep -c .) SEE ALSO pages not installed here (not a failure)"
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
}
cg_before=$out/cgroups-before
cg_existing >"$cg_before"
trap 'cg_tidy; rm -rf "$out"' EXIT

# --- job control ------------------------------------------------------------

# Longest first, so that the last to start are short: the seconds each
# label took last time (build/check-times), else this guess.
times_file=${LEASH_BUILDDIR:-build}/check-times
# Seconds a run took in the run side by side of issue 35 (2 cores);
# build.bats counts double, as its make dist is cpu alone and comes
# last on a busy machine when it starts late.
guess() {
	case ${1%% *} in
	tests/build.bats) echo 120 ;;
	tests/timeout.bats|tests/hostile.bats) echo 100 ;;
	tests/report.bats|tests/fallback.bats) echo 65 ;;
	tests/supervise.bats) echo 50 ;;
	tests/terminal.bats|tests/su.bats|tests/cgroup.bats) echo 28 ;;
	tests/nss.bats|tests/pty.bats|tests/ident.bats|tests/cross.bats) echo 20 ;;
	*) echo 8 ;;
	esac
}
order=()
while read -r _ i; do order+=("$i"); done < <(
	for i in "${!labels[@]}"; do
		s=$(awk -F'\t' -v l="${labels[i]}" '$2 == l { s = $1 } END { print s }' \
			"$times_file" 2>/dev/null)
		printf '%s %s\n' "${s:-$(guess "${labels[i]}")}" "$i"
	done | sort -k1,1nr -k2,2n)

guard=()
command -v timeout >/dev/null && guard=(timeout --foreground -k 10 "$file_timeout")

# start_run I: bats for run I in the background, its TAP and stderr in
# $out/I.tap.  Standard input is /dev/null, typed at a terminal as in
# CI: the tests of leash at a terminal make their own (tests/ptyrun.c).
declare -A run_of=()
t_start=()
start_run() {
	local i=$1 a envs=() opts=()
	for a in ${rargs[i]}; do
		case $a in *=*) envs+=("$a") ;; *) opts+=("$a") ;; esac
	done
	env "${envs[@]}" "${guard[@]}" bats --tap --timing "${opts[@]}" "${rfiles[i]}" \
		</dev/null >"$out/$i.tap" 2>&1 &
	run_of[$!]=$i
	t_start[i]=$EPOCHREALTIME
}

# secs_since T0: whole seconds from EPOCHREALTIME T0 to now.
secs_since() {
	local a=${1/./} b=${EPOCHREALTIME/./}
	echo $(((b - a + 500000) / 1000000))
}

# finish_run I RC: run I's TAP printed and counted.
times=()
finish_run() {
	local i=$1 rc=$2 label=${labels[$1]} tap=$out/$1.tap p f s plan secs
	secs=$(secs_since "${t_start[i]}")
	echo "== $label"
	cat "$tap"
	read -r p f s plan < <(awk '
		/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0 }
		/^ok / { if ($0 ~ /# skip/) s++; else p++ }
		/^not ok / { f++ }
		END { print p + 0, f + 0, s + 0, plan + 0 }' "$tap")
	# A file that dies early (syntax error, hung run) still counts.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			echo "not ok - $label: still running after ${file_timeout}s (LEASH_FILE_TIMEOUT), stopped"
		else
			echo "not ok - $label: bats exited with status $rc"
		fi
		f=1
	elif [ $((p + f + s)) -lt "$plan" ]; then
		echo "not ok - $label: $((plan - p - f - s)) of $plan tests did not report"
		f=$((f + plan - p - f - s))
	fi
	echo "-- $label: $p passed, $f failed, $s skipped in $secs s"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures+=("$label")
	times+=("$secs	$label")
}

# ^C or TERM: stop the bats runs this driver started, by their pids.
stop_runs() {
	local pid
	for pid in "${!run_of[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	exit 130
}
trap stop_runs INT TERM

echo "leash: ${#labels[@]} bats runs, $njobs at a time (LEASH_CHECK_JOBS); each file's TAP when it ends"
next=0
while ((next < ${#order[@]} || ${#run_of[@]} > 0)); do
	while ((next < ${#order[@]} && ${#run_of[@]} < njobs)); do
		start_run "${order[next]}"
		next=$((next + 1))
	done
	done_pid=
	wait -n -p done_pid "${!run_of[@]}"
	rc=$?
	[ -n "$done_pid" ] || continue
	i=${run_of[$done_pid]}
	unset "run_of[$done_pid]"
	finish_run "$i" "$rc"
done


if [ -z "${LEASH_CHECK_FILES:-}" ]; then
	check_item "man/leash.1: mandoc -Tlint" lint_man
	check_item "man/leash.3: mandoc -Tlint" lint_man man/leash.3
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

# Where the time went: the slowest runs, and tests (bats --timing).
if [ -z "${LEASH_CHECK_FILES:-}" ]; then
	printf '%s\n' "${times[@]}" | sort -t $'\t' -k2,2 >"$times_file.tmp" 2>/dev/null &&
		mv "$times_file.tmp" "$times_file"
fi
echo "slowest runs (seconds):"
printf '%s\n' "${times[@]}" | sort -t $'\t' -k1,1nr | head -n 8 | sed 's/^/  /'
echo "slowest tests (seconds):"
for i in "${!labels[@]}"; do
	[ -f "$out/$i.tap" ] || continue
	awk -v f="${labels[i]%% *}" '
		/^(not )?ok [0-9]+ .* in [0-9]+ms$/ {
			ms = $NF; sub(/ms$/, "", ms)
			name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ in [0-9]+ms$/, "", name)
			printf "%d\t%s: %s\n", ms, f, name
		}' "$out/$i.tap"
done | sort -t $'\t' -k1,1nr | head -n 8 | awk -F'\t' '{ printf "  %5.1f  %s\n", $1 / 1000, $2 }'

if [ ${#failures[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
wall=$(secs_since "$check_t0")
echo "$passed passed, $failed failed, $skipped skipped in $((wall / 60)) min $((wall % 60)) s"
[ "$failed" -eq 0 ]
