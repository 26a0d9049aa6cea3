#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse-block.sh DIR POOL CUT...: a block judged against the first POOL
# r40ab runs of DIR/h.sqlite (aa-pPOOL-sets.txt), the split run effect
# reported beside it (aa-pPOOL-split-sets.txt), then the drift between the
# blocks that the CUTs (ISO times) separate (drift-bN.txt, N the block
# after the last cut). Run after the block, nothing else running.
set -u
dir=$1 pool=$2
shift 2
cd "$dir"
PT=/work/main/build/ptbench
aa() { local out=$1; shift; $PT history aa --db h.sqlite --tag r40ab "$@" > "$out" 2> "${out%.txt}.err"; }
echo "$(date -u +%T) judged + split"
aa "aa-p$pool-sets.txt" --pool "$pool" --inject-sets all &
aa "aa-p$pool-split-sets.txt" --pool "$pool" --run-effect split --inject-sets all
wait
/usr/bin/python3 /work/main/results/gate-kvm/r20-later/drift.py h.sqlite "aa-p$pool-sets.txt" r40ab "$@" \
	> "drift-b$(($# + 4)).txt" 2>&1
echo "$(date -u +%T) done"
