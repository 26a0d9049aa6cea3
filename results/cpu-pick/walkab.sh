#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# walkab.sh: ./run.sh runs 53-58 alternating default pinning and --cpu pick
# (walk-decision-rule.txt), one after another, nothing else running.
set -u
cd "$(dirname "$0")/../.."
for spec in 53:last 54:pick 55:pick 56:last 57:last 58:pick; do
	n=${spec%%:*} mode=${spec##*:}
	echo "$(date -u +%T) run.sh $n $mode"
	./run.sh --cpu "$mode" --out "/work/exp/runsh-$n" >"/work/exp/runsh-$n.log" 2>&1 ||
		echo "run.sh $n failed"
done
echo "$(date -u +%T) done"
