#!/bin/bash
# SPDX-License-Identifier: ISC
# stress.sh N PARALLEL MARK RESULTS: N launches of leash, PARALLEL at a
# time; even ones hit their deadline (expect 124), odd ones end first
# (expect 0).  One line per launch in RESULTS: "I EXPECTED GOT".
# LEASH and PROBE come from the environment (tests/helpers.bash).
n=$1 par=$2 mark=$3 results=$4

launch() {
	local i=$1 want got=0
	if ((i % 2 == 0)); then
		want=124
		"$LEASH" -t 0.2 "$PROBE" -q -m "$mark" -s 5 || got=$?
	else
		want=0
		"$LEASH" -t 5 "$PROBE" -q -m "$mark" -s 0.01 || got=$?
	fi
	echo "$i $want $got" >>"$results"
}

running=0
for ((i = 0; i < n; i++)); do
	if ((running >= par)); then
		wait -n
		running=$((running - 1))
	fi
	launch "$i" &
	running=$((running + 1))
done
wait
