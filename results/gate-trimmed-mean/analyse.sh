#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# history aa with each run statistic (--trim) on a history of identical ci
# runs: the s23 runs of ../gate-round-replication (the trim was chosen on
# them) and the s24 runs made for this check (it was not).
#   analyse.sh DB TAG OUTDIR [PTBENCH]
set -u
db=$1 tag=$2 o=$3 PT=${4:-ptbench}
mkdir -p "$o"
for p in 30 20; do
	for t in 0.5 0.3 0.2 0.1 0; do
		f=$o/p$p-t$t.txt
		"$PT" history aa --db "$db" --tag "$tag" --pool "$p" --trim "$t" >"$f" 2>&1 ||
			echo "$f: exit $?"
	done
done
for t in 0.5 0.2; do
	"$PT" history aa --db "$db" --tag "$tag" --pool 30 --trim $t --round-effect off \
		>"$o/p30-t$t-round-off.txt" 2>&1
	"$PT" history aa --db "$db" --tag "$tag" --pool 30 --trim $t --factors auto \
		>"$o/p30-t$t-factors-auto.txt" 2>&1
done
grep -H 'fired on\|caught in' "$o"/*.txt
