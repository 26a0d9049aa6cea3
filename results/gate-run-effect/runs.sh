#!/usr/bin/env bash
# Identical ci runs, each added to one history (the runs of NOTES.md: the
# binary, run and history paths of that session), until the stop file exists or N runs.
set -u
PT=/work/exp/gate/ptbench
out=/work/exp/gate/runs; db=/work/exp/gate/h.sqlite; n=${1:-60}
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e /work/exp/gate/stop ] && break
	d="$out/ci-$i"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i"
	"$PT" run --suite ci --tag s21 --out "$d" >"$d.log" 2>&1 || echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
