#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ci runs alternating --reps 10 and --reps 20 (ABBA), tagged r10 and r20,
# each added to one history, until N runs or the deadline (UTC HH:MM).
#   runs.sh DIR N DEADLINE   (DIR holds ptbench, a copy of the binary)
set -u
dir=$1 n=$2 deadline=$3
PT=$dir/ptbench out=$dir/runs db=$dir/h.sqlite
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e "$dir/stop" ] && break
	[ "$(date -u +%H:%M)" \> "$deadline" ] && break
	case $((10#$i % 4)) in 1 | 0) reps=10 ;; *) reps=20 ;; esac
	d="$out/ci-$i-r$reps"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i r$reps"
	"$PT" run --suite ci --reps "$reps" --tag "r$reps" --out "$d" >"$d.log" 2>&1 ||
		echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
