#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule of 20:00 (results/gate-kvm/reps40/rule.txt): judged first, then
# the reported variants. Run after block 8, nothing else running.
set -u
cd /work/exp/r40e
PT=/work/main/build/ptbench
aa() { local db=$1 out=$2; shift 2; $PT history aa --db "$db" --tag r40ab "$@" > "$out" 2> "${out%.txt}.err"; }
# block 7 and 8 alone: a copy without the r40ab runs before block 7 (17:37)
rm -f h-b7.sqlite && cp h.sqlite h-b7.sqlite
sqlite3 h-b7.sqlite "DELETE FROM rows WHERE run_id IN (SELECT id FROM runs WHERE tag = 'r40ab' AND started_utc < '2026-12-06T17:37');
DELETE FROM runs WHERE tag = 'r40ab' AND started_utc < '2026-12-06T17:37';"
echo "$(date -u +%T) judged + split"
aa h.sqlite aa-p106-sets.txt --pool 106 --inject-sets all &
aa h.sqlite aa-p106-split-sets.txt --pool 106 --run-effect split --inject-sets all
wait
echo "$(date -u +%T) pool of block 7 alone"
aa h-b7.sqlite aa-b7-p30-sets.txt --pool 30 --inject-sets all &
/usr/bin/python3 /work/main/results/gate-kvm/r20-later/drift.py h.sqlite aa-p106-sets.txt r40ab 15:26 16:30 17:32 19:00 > drift-b8.txt 2>&1
wait
echo "$(date -u +%T) done"
