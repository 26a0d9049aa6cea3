#!/bin/bash
# 30 more --reps 20 ci runs, tag r20, into the same history
PT=/work/exp/reps20/ptbench out=/work/exp/reps20/runs db=/work/exp/reps20/h.sqlite
for i in $(seq 41 70); do
	[ "$(date -u +%H:%M)" \> "10:40" ] && break
	d="$out/ci-$i-r20"
	echo "$(date -u +%T) run $i r20"
	"$PT" run --suite ci --reps 20 --tag r20 --out "$d" >"$d.log" 2>&1 || echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
