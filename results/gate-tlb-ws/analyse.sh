#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# history aa on the s26 runs (ci with tlb at 4M and 32M): the defaults with
# pools of 30 and 20, each run's plain median (nothing taken out) with a
# pool of 30, the split run effect; then each ci primary metric's spread
# before and after (../gate-split-effect/spread.py) and the tlb lines of s25
# (tlb at 16M and 256M) beside those of s26.
#   analyse.sh DB TAG OUTDIR [PTBENCH]
set -u
db=$1 tag=$2 o=$3 PT=${4:-ptbench}
here=$(dirname "$0")
mkdir -p "$o"
"$PT" history aa --db "$db" --tag "$tag" --pool 30 >"$o/$tag-p30-on.txt" 2>&1 || echo "p30: exit $?"
"$PT" history aa --db "$db" --tag "$tag" --pool 20 >"$o/$tag-p20-on.txt" 2>&1 || echo "p20: exit $?"
"$PT" history aa --db "$db" --tag "$tag" --pool 30 --run-effect split \
	>"$o/$tag-p30-split.txt" 2>&1 || echo "split: exit $?"
"$PT" history aa --db "$db" --tag "$tag" --pool 30 --run-effect off --round-effect off \
	--trim 0.5 >"$o/$tag-p30-raw.txt" 2>&1 || echo "raw: exit $?"
/usr/bin/python3 "$here/../gate-split-effect/spread.py" "$o/$tag-p30-raw.txt" \
	"$o/$tag-p30-on.txt" >"$o/spread-before-after-$tag.txt"
{
	echo "# s25 (tlb at 16M and 256M), pool 30, defaults:"
	grep -E '^(control|tlb) ' "$here/../gate-split-effect/spread-before-after-s25.txt"
	echo "# $tag (tlb at 4M and 32M), pool 30, defaults:"
	grep -E '^(control|tlb) ' "$o/spread-before-after-$tag.txt"
} >"$o/tlb-s25-$tag.txt"
grep -H 'fired on\|caught in\|median' "$o"/"$tag"-*.txt
