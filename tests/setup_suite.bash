# SPDX-License-Identifier: ISC
# setup_suite.bash: bats (1.7 and later) runs setup_suite before the
# files of a run in this directory, and teardown_suite after them.
#
# The tree may sit where other users cannot reach it: a clone under
# Debian's /root (mode 0700).  The tests run leash, its links and the
# probe as test users (leash -u USER -- "$PROBE", as_nobody "$LEASH"), so
# these are copied into a fresh directory every user may enter, and
# LEASH, TIMEOUT, SU and PROBE name the copies; teardown_suite removes it.
# A TIMEOUT or SU that is not leash (host mode: TIMEOUT=/usr/bin/timeout)
# stays where it is.

setup_suite() {
	local top
	top=$(cd "$(dirname "$BATS_TEST_FILENAME")/.." && pwd)
	LEASH=${LEASH:-$top/build/leash}
	TIMEOUT=${TIMEOUT:-$top/build/timeout}
	SU=${SU:-$top/build/su}
	PROBE=${PROBE:-$top/build/probe}
	LEASH_TESTBIN=$(mktemp -d /tmp/leash_bin.XXXXXX)
	chmod 755 "$LEASH_TESTBIN"
	export LEASH_TESTBIN LEASH TIMEOUT SU PROBE

	if [[ -x $PROBE ]]; then
		cp "$PROBE" "$LEASH_TESTBIN/probe"
	else	# host mode on a fresh tree: a probe built for this run
		"${CC:-cc}" -O2 -o "$LEASH_TESTBIN/probe" "$top/tests/probe.c"
	fi
	PROBE=$LEASH_TESTBIN/probe
	if [[ -x $LEASH ]]; then
		local real n
		real=$(readlink -f "$LEASH")
		cp "$LEASH" "$LEASH_TESTBIN/leash"
		LEASH=$LEASH_TESTBIN/leash
		for n in TIMEOUT SU; do
			[[ $(readlink -f "${!n}") == "$real" ]] || continue
			ln -s leash "$LEASH_TESTBIN/${n,,}"
			printf -v "$n" '%s' "$LEASH_TESTBIN/${n,,}"
		done
	fi
	[[ -n ${LEASH_NOSYS:-} ]] && nosys_wrappers "$top"
	chmod -R go+rX "$LEASH_TESTBIN"

	# Say so at once if the copies are out of reach all the same (a /tmp
	# without the x bit for others, say).  sh runs the probe: setpriv
	# itself still reaches it, as it execs with root's capabilities.
	if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null &&
	   ! setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		sh -c 'exec "$0" -k uid' "$PROBE" >/dev/null; then
		echo "setup_suite: uid 65534 cannot run $PROBE: the tests need a /tmp every user may enter" >&2
		return 1
	fi
}

# LEASH_NOSYS=CALL,...: LEASH and TIMEOUT become copies of tests/nosys.c,
# which exec the real ones (moved to real/) under a seccomp filter
# refusing those calls: the whole run takes leash's fallbacks, with the
# same pid and argv[0] name.
nosys_wrappers() {
	local nosys=${NOSYS:-${LEASH_BUILDDIR:-$1/build}/nosys}
	mkdir "$LEASH_TESTBIN/real"
	mv "$LEASH_TESTBIN/leash" "$LEASH_TESTBIN/real/leash"
	ln -s leash "$LEASH_TESTBIN/real/timeout"
	cp "$nosys" "$LEASH_TESTBIN/leash"
	[[ -L $LEASH_TESTBIN/timeout ]] || return 0
	rm "$LEASH_TESTBIN/timeout"
	cp "$nosys" "$LEASH_TESTBIN/timeout"
}

teardown_suite() {
	[[ ${LEASH_TESTBIN:-} == /tmp/leash_bin.* ]] && rm -rf "$LEASH_TESTBIN"
	return 0
}
