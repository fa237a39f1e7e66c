# SPDX-License-Identifier: ISC
# cgmounts.sh: sourced by build-aux/demo-fair.sh and tests/cgroup-helpers.bash.

# mount_of FSTYPE [OPTION]: the first mount point of that type (with that
# whole option among the super options), from /proc/self/mountinfo.
mount_of() {
	awk -v t="$1" -v o="${2:-}" '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) != t) next
		if (o != "" && index("," $(i + 3) ",", "," o ",") == 0) next
		print $5; exit }' /proc/self/mountinfo
}
