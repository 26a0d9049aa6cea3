#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Identical ci runs on a fresh machine, each added to one history, until the
# stop file exists or N runs (the runs of results/gate-round-replication).
set -u
PT=/work/exp/gate3/ptbench
out=/work/exp/gate3/runs; db=/work/exp/gate3/h.sqlite; n=${1:-60}
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e /work/exp/gate3/stop ] && break
	d="$out/ci-$i"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i"
	"$PT" run --suite ci --tag s23 --out "$d" >"$d.log" 2>&1 || echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
