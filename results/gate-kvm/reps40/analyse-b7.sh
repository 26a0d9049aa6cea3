#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# the rules of 17:37 and 17:38 (results/gate-kvm/reps40/rule.txt): judged first, then the reported variants
set -u
cd /work/exp/r40d
PT=/work/main/build/ptbench
aa() { local db=$1 out=$2; shift 2; $PT history aa --db "$db" --tag r40ab "$@" > "$out" 2> "${out%.txt}.err"; }
echo "$(date -u +%T) judged + split"
aa h.sqlite aa-p76-sets.txt --pool 76 --inject-sets all &
aa h.sqlite aa-p76-split-sets.txt --pool 76 --run-effect split --inject-sets all
wait
echo "$(date -u +%T) factors, pool 76"
aa h.sqlite aa-p76-fauto-sets.txt --pool 76 --factors auto --inject-sets all &
aa h.sqlite aa-p76-f2-sets.txt --pool 76 --factors 2 --inject-sets all
wait
echo "$(date -u +%T) factors, pool 46 (block 6)"
aa /work/exp/r40c/h.sqlite aa-b6-p46-fauto.txt --pool 46 --factors auto &
aa /work/exp/r40c/h.sqlite aa-b6-p46-f2.txt --pool 46 --factors 2
wait
echo "$(date -u +%T) pool 30 (block 6), drift"
aa /work/exp/r40c/h30.sqlite aa-b6-p30-sets.txt --pool 30 --inject-sets all &
/usr/bin/python3 /work/main/results/gate-kvm/r20-later/drift.py h.sqlite aa-p76-sets.txt r40ab 15:26 16:30 17:32 > drift-b7.txt 2>&1
/usr/bin/python3 /work/main/results/gate-kvm/r20-later/drift.py /work/exp/r20-b5/h.sqlite /work/main/results/gate-kvm/r20-later/aa-p139.txt > drift-r20.txt 2>&1
wait
echo "$(date -u +%T) done"
