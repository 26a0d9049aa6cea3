#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh DB POOL PTBENCH: history aa of both tags, with the defaults
# and raw (plain run medians), then the decision rule's comparison.
set -eu
db=$1 pool=$2 pt=$3
for t in pick last; do
	"$pt" history aa --db "$db" --tag "$t" --pool "$pool" >"$t-p$pool.txt"
	"$pt" history aa --db "$db" --tag "$t" --pool "$pool" --run-effect off \
		--round-effect off --trim 0.5 >"$t-p$pool-raw.txt"
done
/usr/bin/python3 "$(dirname "$0")/spreads.py" "last-p$pool.txt" "pick-p$pool.txt" \
	"last-p$pool-raw.txt" "pick-p$pool-raw.txt" >"spreads-p$pool.txt"
cat "spreads-p$pool.txt"
