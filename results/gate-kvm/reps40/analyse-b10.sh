#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule of 01:57 (results/gate-kvm/reps40/rule.txt): the pool of 166
# through the night judged on block 10, then the split run effect
# reported. Run after block 10, nothing else running.
set -u
cd /work/exp/r40g
PT=/work/main/build/ptbench
aa() { local out=$1; shift; $PT history aa --db h.sqlite --tag r40ab "$@" > "$out" 2> "${out%.txt}.err"; }
echo "$(date -u +%T) judged + split"
aa aa-p166-sets.txt --pool 166 --inject-sets all &
aa aa-p166-split-sets.txt --pool 166 --run-effect split --inject-sets all
wait
/usr/bin/python3 /work/main/results/gate-kvm/r20-later/drift.py h.sqlite aa-p166-sets.txt r40ab 2026-12-06T15:26 2026-12-06T16:30 2026-12-06T17:32 2026-12-06T19:00 2026-12-06T23:00 2026-12-07T01:50 > drift-b10.txt 2>&1
echo "$(date -u +%T) done"
