#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# history aa with the one run effect (--run-effect on, the default) and the
# split one (--run-effect split) on a history of identical ci runs: s23 and
# s24 (the split was designed after seeing s24's slow state) and s25 (made
# before any analysis of them; the rule for choosing is in NOTES.md).
#   analyse.sh DB TAG OUTDIR [PTBENCH]
set -u
db=$1 tag=$2 o=$3 PT=${4:-ptbench}
mkdir -p "$o"
for p in 30 20; do
	for e in on split; do
		f=$o/$tag-p$p-$e.txt
		"$PT" history aa --db "$db" --tag "$tag" --pool "$p" --run-effect "$e" >"$f" 2>&1 ||
			echo "$f: exit $?"
	done
done
for e in on split; do
	"$PT" history aa --db "$db" --tag "$tag" --pool 30 --run-effect "$e" --trim 0.5 \
		>"$o/$tag-p30-$e-t0.5.txt" 2>&1 || echo "$tag t0.5 $e: exit $?"
done
grep -H 'fired on\|caught in' "$o"/"$tag"-*.txt
