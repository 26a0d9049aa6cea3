#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fault-runs.sh PTBENCH OUTDIR N: N fresh `ptbench run --workload fault
# --reps 10` runs, one after another, into OUTDIR/f01 ... (the held-out
# check of rule.txt); each run's start, end and exit status on stdout.
set -u
[ $# -eq 3 ] || { echo "usage: ${0##*/} PTBENCH OUTDIR N" >&2; exit 2; }
pt=$1 out=$2 n=$3
[ ! -e "$out" ] || { echo "${0##*/}: $out exists" >&2; exit 2; }
mkdir -p "$out" || exit 2
for i in $(seq -w 1 "$n"); do
	start=$(date -u +%H:%M:%S)
	rc=0
	"$pt" run --workload fault --reps 10 --out "$out/f$i" >"$out/f$i.log" 2>&1 || rc=$?
	echo "f$i $start-$(date -u +%H:%M:%S) exit $rc"
done
