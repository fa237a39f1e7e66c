#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# passwd.bats: leash reads /etc/passwd and /etc/group as glibc's files
# backend does.  A differential test: crafted files are laid over the
# real ones in a private mount namespace (over_etc), each name is looked up by
# glibc (getent -s files) and by leash (-u NAME, -g NAME, the groups of
# -u NAME), and the two must agree, except for the few differences listed
# (and asserted) below.  leash runs with --no-nss: a name the crafted
# files lack would otherwise be asked of getent (nss.bats tests that).
# Needs root (mount namespace, identity switch).

bats_require_minimum_version 1.5.0

load helpers

# The crafted passwd, one case a line.
write_passwd() {
	local long
	long=$(printf 'g%.0s' {1..20000})
	local lines=(
		'root:x:0:0:root:/root:/bin/sh'
		'lp_full:x:5001:5001:gecos:/h/full:/bin/sh'     # seven fields
		'lp_six:x:5002:5002:g:/h/six'                   # no shell
		'lp_four:x:5003:5003'                           # no gecos, home, shell
		'lp_three:x:5004'                               # no gid: skipped
		'lp_colon:x:5005:5005:g:/h/colon:/bin/sh:extra' # the shell is the rest
		'lp_empty::5006:5006:::'                        # empty fields
		'lp_nouid:x::5007:g:/h:/bin/sh'                 # empty uid: skipped
		$'lp_space:x: 5008:\t5008:g:/h/space:/bin/sh'   # blanks before ids
		'lp_plus:x:+5009:5009:g:/h/plus:/bin/sh'        # a plus sign
		'lp_minus:x:-1:5010:g:/h:/bin/sh'               # -1 is ULONG_MAX: skipped
		'lp_wrap:x:-18446744073709551615:5011:g:/h/wrap:/bin/sh' # strtoul: 1
		'lp_big:x:99999999999:5012:g:/h:/bin/sh'        # over 32 bits: skipped
		'lp_junk:x:5013x:5013:g:/h:/bin/sh'             # junk after the id
		'lp_trail:x:5014 :5014:g:/h:/bin/sh'            # a blank after it
		'   lp_indent:x:5015:5015:g:/h/indent:/bin/sh'  # leading blanks
		'#lp_comment:x:5016:5016:g:/h:/bin/sh'          # comments
		'  #lp_comment2:x:5016:5016:g:/h:/bin/sh'
		$'lp_crlf:x:5017:5017:g:/h/crlf:/bin/sh\r'      # the CR is the shell's
		'+lp_nis:x:5018:5018:g:/h:/bin/sh'              # compat lines
		'-lp_nis2:x:5019:5019:g:/h:/bin/sh'
		'+'
		"lp_long:x:5020:5020:$long:/h/long:/bin/sh"     # 20 kB
		'lp_dup:x:5021:5021:g:/h/first:/bin/sh'         # the first wins
		'lp_dup:x:5121:5121:g:/h/second:/bin/sh'
		'lp_hex:x:0x16:5022:g:/h:/bin/sh'               # decimal only
		'lp_max:x:4294967295:5023:g:/h:/bin/sh'         # (uid_t)-1
		'lp_gidbig:x:5024:4294967296:g:/h:/bin/sh'
		'   '                                           # blank lines
		''
		'lp_zero:x:005026:05026:g:/h/zero:/bin/sh'      # leading zeros
		'lp_one'                                        # a name alone
		$'lp_crgid:x:5027:5027\r'                       # a CR ends the gid
		'+:x:5028:5028::/:'                             # compat, by uid
		'nobody:x:65534:65534:nobody:/nonexistent'      # main took it for 9999
		'lg_u1:x:6001:7001::/:' 'lg_u2:x:6002:9999::/:' # for the group file
		'lg_u3:x:6003:9999::/:' 'lg_u4:x:6004:9999::/:'
		'lg_u5:x:6005:9999::/:' 'lg_u6:x:6006:9999::/:'
		'lg_u7:x:6007:9999::/:' 'lg_u9:x:6009:9999::/:'
	)
	printf '%s\n' "${lines[@]}"
	# A NUL ends a line for both; no newline on the last line.
	printf 'lp_nul:x:5025:5025:g:/h/nul:/bin/sh\0junk\n'
	printf '  lp_last:x:5030:5030:g:/h/last:/bin/sh'
}

write_group() {
	local lines=(
		'lg_g1:x:7001:lg_u1,lg_u2'
		'lg_g2:x:7002'                      # no member field
		'lg_g3:x:7003:'
		'lg_g4:x'                           # no gid: skipped
		'lg_g5::7005: lg_u1 , lg_u2,,lg_u3' # blanks before a member go, after stay
		'lg_g6:x:7006:lg_u1:lg_u4,lg_u5'    # members are the rest of the line
		'+lg_g8:x:7008:lg_u1'               # compat lines
		'-lg_g9:x:7009:lg_u1'
		'+'
		'#lg_g12:x:7012:lg_u1'              # a comment
		'  lg_g11:x:7011:lg_u1'             # leading blanks
		'lg_g13:x:-1:lg_u1'                 # skipped
		'lg_g15:x:+7015:lg_u1'
		'lg_g1:x:7101:lg_u1'                # by name the first lg_g1 wins
		$'lg_g16:x:7016:lg_u6\t,lg_u1'      # "lg_u6<TAB>" is not lg_u6
		$'lg_g17:x:7017:lg_u7\r'            # nor "lg_u7<CR>" lg_u7
		$'lg_g18:x:7018\r'                  # a CR ends the gid
		'lg_max:x:4294967295:lg_u9'         # (gid_t)-1
	)
	printf '%s\n' "${lines[@]}"
	printf 'lg_g19:x:7019:lg_u1'
}

setup_file() {
	[[ $(id -u) == 0 ]] || return 0
	export PW_DIR
	PW_DIR=$(mktemp -d /tmp/leash_pw.XXXXXX)
	chmod 755 "$PW_DIR"
	cp "$PROBE" "$PW_DIR/probe"
	chmod 755 "$PW_DIR/probe"
	mkdir "$PW_DIR/etc"
	write_passwd >"$PW_DIR/etc/passwd"
	write_group >"$PW_DIR/etc/group"
}

teardown_file() {
	[[ ${PW_DIR:-} == /tmp/leash_pw.* ]] && rm -rf "$PW_DIR"
	return 0
}

setup() {
	common_setup
	need_root "a private mount namespace and an identity switch"
	need_mountns
	command -v getent >/dev/null || must_run_or_skip "no getent(1)"
	command -v perl >/dev/null || must_run_or_skip "no perl"
}

teardown() {
	common_teardown
}

# --- the two views, run inside the namespace ---------------------------------

# glibc_pw KEY: name|uid|gid|home|shell of passwd KEY as glibc's files
# backend sees it (empty home and shell as leash fills them in: / and
# /bin/sh), or "none".  getent cannot print an entry with a colon in its
# shell (putpwent refuses it): then perl's getpwnam says it, the same
# lookup.
glibc_pw() {
	local e name _p uid gid _g home shell
	e=$(getent -s files passwd -- "$1" 2>/dev/null) || { echo none; return; }
	[[ -n $e ]] || e=$(perl -e '@p = getpwnam($ARGV[0]) or exit 2;
		print join(":", @p[0, 1, 2, 3, 6, 7, 8])' -- "$1")
	IFS=: read -r name _p uid gid _g home shell <<<"$e"
	echo "$name|$uid|$gid|${home:-/}|${shell:-/bin/sh}"
}

# leash_pw KEY: the same five from inside the command of leash -u KEY
# (USER for the name), "none" when the name is no one, "refused: MESSAGE"
# for another error.
leash_pw() {
	local out
	if ! out=$("$LEASH" --no-nss -u "$1" -- "$PW_DIR/probe" -e 2>&1); then
		[[ $out == *": no such user (leash reads /etc/passwd only)" || $out == *": not a user name or number" ]] &&
			echo none || echo "refused: $out"
		return
	fi
	printf '%s|%s|%s|%s|%s\n' "$(sed -n 's/^env:USER=//p' <<<"$out")" \
		"$(sed -n 's/^uid=//p' <<<"$out")" \
		"$(sed -n 's/^gid=//p' <<<"$out")" \
		"$(sed -n 's/^env:HOME=//p' <<<"$out")" \
		"$(sed -n 's/^env:SHELL=//p' <<<"$out")"
}

# glibc_gr NAME: the gid of group NAME, or "none" (perl when getent
# cannot print the entry: a colon in a member).
glibc_gr() {
	local e
	e=$(getent -s files group -- "$1" 2>/dev/null) || { echo none; return; }
	[[ -n $e ]] || e=$(perl -e '@g = getgrnam($ARGV[0]) or exit 2;
		print join(":", @g[0, 1, 2])' -- "$1")
	IFS=: read -r _ _ e _ <<<"$e"
	echo "$e"
}

leash_gr() {
	local out
	if ! out=$("$LEASH" --no-nss -u root -g "$1" -- "$PW_DIR/probe" -k gid 2>&1); then
		[[ $out == *": no such group (leash reads /etc/group only)" || $out == *": not a group name or number" ]] &&
			echo none || echo "refused: $out"
		return
	fi
	echo "$out"
}

# glibc_in USER: USER's groups as initgroups gives them (its passwd gid
# and the groups of getent initgroups), sorted, comma-separated.
glibc_in() {
	local gid
	gid=$(getent -s files passwd -- "$1" | cut -d: -f4)
	{ echo "$gid"; getent -s files initgroups -- "$1" | tr -s ' ' '\n' | tail -n +2; } |
		grep . | sort -nu | paste -sd,
}

leash_in() {
	"$LEASH" --no-nss -u "$1" -- "$PW_DIR/probe" -k groups 2>&1 || true
}

# in_crafted FN KEY...: "KEY<TAB>glibc's view<TAB>leash's view" for each
# KEY, FN being pw, gr or in, with the crafted files mounted.
in_crafted() {
	unshare -m --propagation private -- bash -c \
		"$(over_etc "$PW_DIR/etc")"' || exit 99
		'"$(declare -f glibc_pw leash_pw glibc_gr leash_gr glibc_in leash_in)"'
		fn=$1
		shift
		for k in "$@"; do
			printf "%s\t%s\t%s\n" "$k" "$(glibc_$fn "$k")" "$(leash_$fn "$k")"
		done' bash "$@"
}

# compare_views: $output of in_crafted has one line per key; glibc and
# leash agree, except for the keys in DIFF (KEY -> leash's view), where
# leash must say exactly that and glibc something else.
compare_views() {
	local k g l bad=0 n=0
	while IFS=$'\t' read -r k g l; do
		n=$((n + 1))
		if [[ -n ${DIFF[$k]+set} ]]; then
			[[ $l == "${DIFF[$k]}" && $g != "$l" ]] && continue
			printf 'key %q: expected leash %q (a known difference), got %q; glibc %q\n' \
				"$k" "${DIFF[$k]}" "$l" "$g" >&2
		elif [[ $g == "$l" ]]; then
			continue
		else
			printf 'key %q: glibc %q, leash %q\n' "$k" "$g" "$l" >&2
		fi
		bad=1
	done <<<"$output"
	[[ $n == "$1" ]] || { echo "expected $1 keys, got $n" >&2; return 1; }
	return "$bad"
}

# -----------------------------------------------------------------------------

@test "passwd by name: leash finds what glibc finds, field for field" {
	local keys=(lp_full lp_six lp_four lp_three lp_colon lp_empty lp_nouid
		lp_space lp_plus lp_minus lp_wrap lp_big lp_junk lp_trail
		lp_indent lp_comment '#lp_comment' lp_comment2 lp_crlf lp_nis
		+lp_nis lp_nis2 -lp_nis2 + lp_long lp_dup lp_hex lp_max
		lp_gidbig lp_zero lp_one lp_crgid lp_nul lp_last nobody
		system shell u0_a35 app_35 root)
	declare -A DIFF=(
		# glibc takes uid 4294967295; it is (uid_t)-1, "unchanged", to set*id.
		[lp_max]="refused: leash: cannot resolve user 'lp_max': number out of range"
		# glibc's nss_readline shifts a last line without a newline by its
		# leading blanks and keeps as many bytes of its tail (/bin/shsh).
		[lp_last]="lp_last|5030|5030|/h/last|/bin/sh"
	)
	run in_crafted pw "${keys[@]}"
	assert_status 0
	compare_views ${#keys[@]}
}

@test "passwd by uid: the first line with that uid, compat lines never" {
	local keys=(5001 5008 5009 1 5015 5017 5018 5021 5121 5026 5028 5025 65534)
	declare -A DIFF=(
		# No line for these uids (compat lines do not count): leash runs
		# a bare number as itself, named by its number.
		[5018]="5018|5018|5018|/|/bin/sh"
		[5028]="5028|5028|5028|/|/bin/sh"
	)
	run in_crafted pw "${keys[@]}"
	assert_status 0
	compare_views ${#keys[@]}
}

@test "group by name: -g finds what getgrnam finds" {
	local keys=(lg_g1 lg_g2 lg_g3 lg_g4 lg_g5 lg_g6 lg_g8 +lg_g8 lg_g9
		lg_g12 '#lg_g12' lg_g11 lg_g13 lg_g15 lg_g16 lg_g17 lg_g18
		lg_g19 lg_max inet all_a35)
	declare -A DIFF=(
		[lg_max]="refused: leash: cannot resolve group 'lg_max': number out of range"
	)
	run in_crafted gr "${keys[@]}"
	assert_status 0
	compare_views ${#keys[@]}
}

@test "groups of a user: initgroups' members, but no comment or compat line grants one" {
	local keys=(lg_u1 lg_u2 lg_u3 lg_u4 lg_u5 lg_u6 lg_u7 lg_u9)
	declare -A DIFF=(
		# glibc's files initgroups parses every line as a group, so the
		# commented-out #lg_g12 (7012) and the compat lines +lg_g8 and
		# -lg_g9 (7008, 7009) still make lg_u1 a member.
		[lg_u1]=7001,7011,7015,7016,7019,7101
		# lg_max has gid 4294967295, which setgroups cannot take.
		[lg_u9]="leash: cannot resolve user 'lg_u9': number out of range"
	)
	run in_crafted in "${keys[@]}"
	assert_status 0
	compare_views ${#keys[@]}
	# glibc's list is leash's plus exactly those three.
	[[ $(grep '^lg_u1' <<<"$output" | cut -f2) == 7001,7008,7009,7011,7012,7015,7016,7019,7101 ]]
}

@test "an empty /etc/passwd: nobody is no one (never Android's 9999)" {
	mkdir "$TMP/etc"
	: >"$TMP/etc/passwd"
	run unshare -m --propagation private -- sh -c \
		"$(over_etc "$TMP/etc")"' && exec "$1" --no-nss -u nobody -- id -u' sh "$LEASH"
	assert_status 125
	assert_output "leash: cannot resolve user 'nobody': no such user (leash reads /etc/passwd only)"
}
