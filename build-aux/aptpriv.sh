# SPDX-License-Identifier: ISC
# aptpriv.sh: apt-get with a private configuration (sources list, package
# lists and cache all under one directory), so that the machine's
# /etc/apt, /var/lib/apt and dpkg's architectures are never changed.
# Sourced by build-aux/libcap.sh and build-aux/cross.sh:
#
#   apt_setup DIR TYPE [ARCHS [SUITE]]  write DIR/sources.list: TYPE is
#                                deb-src, or deb for the comma list ARCHS;
#                                SUITE (default bookworm) and its -security
#   apt_run DIR ARGS...          apt-get ARGS with that configuration
#   apt_cache DIR ARGS...        apt-cache ARGS with that configuration
#   apt_drop_lists DIR           remove the lists and cache (~20 MB each)
#
# The sources are the machine's bookworm and bookworm-security entries
# (mirror and signed-by kept; one-line .list and deb822 .sources both
# read), or deb.debian.org when it has none; another SUITE (bullseye,
# trixie) takes the place of bookworm in them, on the same mirrors.

# apt_lines TYPE ARCHS SUITE: one TYPE line per machine deb entry.
apt_lines() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk -v type="$1" -v archs="$2" -v suite="$3" '
		$1 == "deb" {
			opt = ""; i = 2
			if ($2 ~ /^\[/) {
				while (i <= NF) {
					o = $i; gsub(/[][]/, "", o)
					if (o != "" && o !~ /^arch=/) opt = opt " " o
					if ($(i++) ~ /\]$/) break
				}
			}
			if (archs != "") opt = opt " arch=" archs
			s = $(i + 1)
			if (s == "bookworm" || s == "bookworm-security") {
				sub(/^bookworm/, suite, s)
				print type (opt != "" ? " [" substr(opt, 2) "]" : "") \
					" " $i " " s " main"
			}
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v type="$1" -v archs="$2" -v suite="$3" '
		function flush(  n, s, u, k, opt, t) {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				opt = signed != "" ? " signed-by=" signed : ""
				if (archs != "") opt = opt " arch=" archs
				if (opt != "") opt = " [" substr(opt, 2) "]"
				n = split(suites, s, " "); split(uris, u, " ")
				for (k = 1; k <= n; k++)
					if (s[k] == "bookworm" || s[k] == "bookworm-security") {
						t = s[k]; sub(/^bookworm/, suite, t)
						print type opt " " u[1] " " t " main"
					}
			}
			types = uris = suites = signed = enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			key = tolower($1); sub(/:$/, "", key)
			val = $0; sub(/^[^:]*:[ \t]*/, "", val)
			if (key == "types") types = val
			else if (key == "uris") uris = val
			else if (key == "suites") suites = val
			else if (key == "signed-by" && val ~ /^\//) signed = val
			else if (key == "enabled") enabled = tolower(val)
		}
		END { flush() }' "$f"
	done
}

apt_setup() {
	_d=$1
	mkdir -p "$_d/lists/partial" "$_d/cache/archives/partial" "$_d/parts"
	_suite=${4:-bookworm}
	apt_lines "$2" "${3:-}" "$_suite" | sort -u >"$_d/sources.list.new"
	if ! [ -s "$_d/sources.list.new" ]; then
		kr=/usr/share/keyrings/debian-archive-keyring.gpg
		opt=
		[ -r "$kr" ] && opt="signed-by=$kr"
		[ -n "${3:-}" ] && opt="${opt:+$opt }arch=$3"
		opt=${opt:+ [$opt]}
		printf '%s%s %s %s main\n' "$2" "$opt" http://deb.debian.org/debian \
			"$_suite" >"$_d/sources.list.new"
		printf '%s%s %s %s-security main\n' "$2" "$opt" \
			http://deb.debian.org/debian-security "$_suite" >>"$_d/sources.list.new"
	fi
	mv "$_d/sources.list.new" "$_d/sources.list"
	# The architectures the lists are read for (apt's own list, not dpkg's).
	: >"$_d/archs"
	if [ -n "${3:-}" ]; then
		printf '%s\n' "$3" | tr ',' '\n' >"$_d/archs"
	fi
}

apt_run() {
	apt_with apt-get "$@"
}

apt_cache() {
	apt_with apt-cache "$@"
}

# apt_with PROG DIR ARGS...: PROG ARGS with DIR's configuration.
apt_with() {
	_p=$1 _d=$2
	shift 2
	set -- -o Dir::Etc::SourceList="$_d/sources.list" \
		-o Dir::Etc::SourceParts="$_d/parts" \
		-o Dir::State::Lists="$_d/lists" \
		-o Dir::Cache="$_d/cache" \
		-o APT::Sandbox::User=root \
		-o Acquire::Languages=none "$@"
	if [ -s "$_d/archs" ]; then
		for a in $(cat "$_d/archs"); do
			set -- -o "APT::Architectures::=$a" "$@"
		done
	fi
	"$_p" -q "$@"
}

apt_drop_lists() {
	rm -rf "$1/lists" "$1/cache"
}
