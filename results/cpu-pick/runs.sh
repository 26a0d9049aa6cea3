#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ci runs alternating --cpu pick and --cpu last (ABBA), tagged pick and
# last, each added to one history, until N runs or the deadline (UTC HH:MM).
#   runs.sh DIR N DEADLINE   (DIR holds ptbench, a copy of the binary)
set -u
dir=$1 n=$2 deadline=$3
PT=$dir/ptbench out=$dir/runs db=$dir/h.sqlite
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e "$dir/stop" ] && break
	[ "$(date -u +%H:%M)" \> "$deadline" ] && break
	case $((10#$i % 4)) in 1 | 0) mode=pick ;; *) mode=last ;; esac
	d="$out/ci-$i-$mode"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i $mode"
	"$PT" run --suite ci --cpu "$mode" --tag "$mode" --out "$d" >"$d.log" 2>&1 ||
		echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
