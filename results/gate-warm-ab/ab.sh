#!/usr/bin/env bash
# A/B: --warm-guest off vs auto, alternating ci runs (order swapped each pair).
set -u
PT=/work/main/build/ptbench
out=${1:-/work/exp/ab}; pairs=${2:-5}
mkdir -p "$out"
for i in $(seq 1 "$pairs"); do
	if [ $((i % 2)) -eq 1 ]; then order="off auto"; else order="auto off"; fi
	for arm in $order; do
		d="$out/$arm-$i"
		[ -e "$d/meta.json" ] && continue
		echo "$(date -u +%T) pair $i $arm"
		"$PT" run --suite ci --warm-guest "$arm" --tag "ab-$arm" --out "$d" >"$d.log" 2>&1 || echo "run $d failed"
	done
done
echo "$(date -u +%T) done"
