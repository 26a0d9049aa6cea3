#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# An A/B of one `ptbench run` option: ci runs alternating arm A and arm B
# (ABBA), run with OPTION VALUE-A or OPTION VALUE-B and tagged TAG-A or
# TAG-B, each added to one history, until N runs, the stop file, or the
# deadline (UTC HH:MM) passes.
#   abba.sh DIR N DEADLINE OPTION TAG-A VALUE-A TAG-B VALUE-B
#   (DIR holds ptbench, a copy of the binary)
# e.g. abba.sh DIR 40 10:25 --reps r10 10 r20 20
set -u
[ $# -eq 8 ] || { echo "usage: abba.sh DIR N DEADLINE OPTION TAG-A VALUE-A TAG-B VALUE-B" >&2; exit 2; }
dir=$1 n=$2 deadline=$3 opt=$4
PT=$dir/ptbench out=$dir/runs db=$dir/h.sqlite
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e "$dir/stop" ] && break
	[ "$(date -u +%H:%M)" \> "$deadline" ] && break
	case $((10#$i % 4)) in 1 | 0) tag=$5 val=$6 ;; *) tag=$7 val=$8 ;; esac
	d="$out/ci-$i-$tag"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i $tag"
	"$PT" run --suite ci "$opt" "$val" --tag "$tag" --out "$d" >"$d.log" 2>&1 ||
		echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
