#!/bin/sh
# SPDX-License-Identifier: ISC
# checkman.sh: do man/leash.1 and the README say what the program does?
#
# For each personality, the options of `PROG --help` (lines in GNU layout:
# "  -x, --long=ARG   text") must appear as flags (.Fl) in that
# personality's part of the page, and every flag of an option list item
# (.It Fl ...) there must appear in --help, so neither side drifts:
#   leash    ->  .Sh OPTIONS
#   timeout  ->  .Ss timeout   (under PERSONALITIES)
#   su       ->  .Ss su        (under PERSONALITIES)
#   watch    ->  .Sh WATCH     (leash watch --help)
# A sentence there that ends "is refused." must not be about an option
# --help lists (the program takes it).  The exit statuses that leash
# --help and timeout --help list are those of the man page's EXIT STATUS
# (its first list: native and timeout) and of the README's table.
# Usage: build-aux/checkman.sh [MANPAGE [README]]
# LEASH, TIMEOUT and SU pick the binaries (default build/leash ...).
# Exits 1 naming each option or status that is missing on either side.

LC_ALL=C
export LC_ALL
man=${1:-man/leash.1}
readme=${2:-README}
LEASH=${LEASH:-build/leash}
TIMEOUT=${TIMEOUT:-build/timeout}
SU=${SU:-build/su}

for f in "$man" "$readme"; do
	if [ ! -r "$f" ]; then
		echo "checkman: cannot read $f" >&2
		exit 2
	fi
done

# Options of a --help text, one per line: "-x", "--long", or "-" (su's
# bare dash, only when a list follows it as in "-, -l, --login").
help_options() {
	awk '
	/^ +-/ {
		line = $0
		sub(/^ +/, "", line)
		if (length($0) - length(line) > 8) next
		# The option column ends at two blanks or a <placeholder>.
		col = line
		if (match(col, /  |\t/)) col = substr(col, 1, RSTART - 1)
		sub(/ *<.*$/, "", col)
		n = split(col, w, /[ ,]+/)
		for (i = 1; i <= n; i++) {
			o = w[i]
			sub(/[=\[].*$/, "", o)
			if (o == "-") {
				if (index(col, "-,") == 1) print o
				continue
			}
			if (o ~ /^-[A-Za-z0-9?]$/ || o ~ /^--[A-Za-z0-9][-A-Za-z0-9]*$/)
				print o
		}
	}'
}

# Flags written with .Fl in the scope of the page (a .Sh or .Ss title);
# ITEMS=1 keeps only those of .It lines (the declared options).
man_flags() {
	awk -v kind="$1" -v title="$2" -v items="$3" '
	function macro(t) { return t ~ /^[A-Z][a-z][a-z]?$/ }
	/^\.Sh / || /^\.Ss / {
		t = $0; sub(/^\.S[hs] +/, "", t); gsub(/"/, "", t)
		if ($1 == "." kind) { in_scope = (t == title); next }
		if ($1 == ".Sh") { in_scope = 0 }
		next
	}
	!in_scope { next }
	items && $1 != ".It" { next }
	{
		n = split($0, w, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] != "Fl" && w[i] != ".Fl") continue
			got = 0
			for (j = i + 1; j <= n && !macro(w[j]); j++) {
				if (length(w[j]) == 1 && index(",.;:|()[]", w[j])) break
				print "-" w[j]; got = 1
			}
			if (!got) print "-"
		}
	}' "$man" | sort -u
}

# Flags of the sentences in the scope that end "is refused.": a sentence
# starts after a text line ending in ".", or at .Pp, .It, .Bl, .El.
refused_flags() {
	awk -v kind="$1" -v title="$2" '
	function macro(t) { return t ~ /^[A-Z][a-z][a-z]?$/ }
	/^\.Sh / || /^\.Ss / {
		t = $0; sub(/^\.S[hs] +/, "", t); gsub(/"/, "", t)
		if ($1 == "." kind) { in_scope = (t == title); n = 0; next }
		if ($1 == ".Sh") { in_scope = 0 }
		next
	}
	!in_scope { next }
	$1 ~ /^\.(Pp|It|Bl|El)$/ { n = 0 }
	{
		k = split($0, w, /[ \t]+/)
		for (i = 1; i <= k; i++) {
			if (w[i] != "Fl" && w[i] != ".Fl") continue
			for (j = i + 1; j <= k && !macro(w[j]); j++) {
				if (length(w[j]) == 1 && index(",.;:|()[]", w[j])) break
				f[++n] = "-" w[j]
			}
		}
	}
	/is refused\.$/ { for (i = 1; i <= n; i++) print f[i] }
	$0 !~ /^\./ && /\.$/ { n = 0 }' "$man" | sort -u
}

status=0
check() {
	prog=$1 bin=$2 kind=$3 title=$4
	if ! help=$("$bin" --help 2>/dev/null); then
		echo "checkman: $bin --help failed" >&2
		status=1
		return
	fi
	documented=$(man_flags "$kind" "$title" 0)
	declared=$(man_flags "$kind" "$title" 1)
	if [ -z "$documented" ]; then
		echo "checkman: $man has no .$kind $title for $prog" >&2
		status=1
		return
	fi
	listed=$(printf '%s\n' "$help" | help_options | sort -u)
	for o in $listed; do
		printf '%s\n' "$documented" | grep -qxe "$o" && continue
		echo "checkman: $prog: $o is in --help but not in $man ($kind $title)" >&2
		status=1
	done
	for o in $declared; do
		printf '%s\n' "$listed" | grep -qxe "$o" && continue
		echo "checkman: $prog: $o is in $man ($kind $title) but not in --help" >&2
		status=1
	done
	for o in $(refused_flags "$kind" "$title"); do
		printf '%s\n' "$listed" | grep -qxe "$o" || continue
		echo "checkman: $prog: $man ($kind $title) says $o is refused, but --help lists it" >&2
		status=1
	done
}

# Exit statuses: of a --help ("Exit status:" then "  N  text" lines), of
# the man page's EXIT STATUS (.It N of its first list), of the README's
# "## Exit status" table ("| N | text |").
help_statuses() {
	"$1" --help 2>/dev/null | awk '/^Exit status:/ { on = 1; next }
		on && /^ +[0-9]+ / { print $1; next } on && !/^ / { on = 0 }' | sort -u
}
man_statuses() {
	awk '/^\.Sh / { on = ($0 ~ /^\.Sh EXIT STATUS/); next }
		on && /^\.El/ { exit } on && /^\.It [0-9]+$/ { print $2 }' "$man" | sort -u
}
readme_statuses() {
	awk '/^## / { on = ($0 ~ /^## Exit status/); next }
		on && /^\| *[0-9]+ *\|/ { split($0, c, / *\| */); print c[2] }' "$readme" | sort -u
}
check_statuses() {
	want=$(help_statuses "$LEASH" | tr '\n' ' ')
	if [ -z "$want" ]; then
		echo "checkman: $LEASH --help lists no exit status" >&2
		status=1
		return
	fi
	for where in "timeout --help:$(help_statuses "$TIMEOUT" | tr '\n' ' ')" \
		"$man EXIT STATUS:$(man_statuses | tr '\n' ' ')" \
		"$readme's table:$(readme_statuses | tr '\n' ' ')"; do
		[ "${where#*:}" = "$want" ] && continue
		echo "checkman: exit statuses: leash --help has $want; ${where%%:*} has ${where#*:}" >&2
		status=1
	done
}

check leash "$LEASH" Sh OPTIONS
check timeout "$TIMEOUT" Ss timeout
check su "$SU" Ss su
# leash watch, a personality reached only as `leash watch`.
leash_watch() { "$LEASH" watch "$@"; }
check watch leash_watch Sh WATCH
check_statuses
[ $status -eq 0 ] && echo "checkman: $man documents every option of leash, timeout, su and leash watch, and it and $readme every exit status"
exit $status
