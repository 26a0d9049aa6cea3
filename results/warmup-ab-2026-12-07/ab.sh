#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# 3 pairs of non-tlb quick runs, --warmup 0 (A) and 1 (B), alternating
set -u
bin=${1:?ptbench binary}
out=${2:?out dir}
wl=control,fault,mprotect,fork,munmap,thp,pgtable,ptops
for p in 1 2 3; do
	if [ $((p % 2)) = 1 ]; then order="0 1"; else order="1 0"; fi
	for w in $order; do
		d=$out/p$p-w$w
		echo "$(date -u +%T) pair $p warmup $w"
		"$bin" run --workload $wl --reps 4 --warmup $w --no-profile --budget 0 --out "$d" >"$d.log" 2>&1 || echo "rc $? for $d"
	done
done
