#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Block 5's reported (not judged) analyses: pool b3+b4 (59), b4 alone (30), split with pool 139.
set -u
PT=/work/main/build/ptbench
cd /work/exp/r20-b5
rm -f h-b345.sqlite* h-b45.sqlite*
for i in $(seq -w 1 29); do $PT history add /work/exp/r20-b3/runs/ci-$i --db h-b345.sqlite >/dev/null; done
for d in /work/exp/r20-b4/runs/ci-??; do $PT history add $d --db h-b345.sqlite >/dev/null; $PT history add $d --db h-b45.sqlite >/dev/null; done
for d in runs/ci-??; do $PT history add $d --db h-b345.sqlite >/dev/null; $PT history add $d --db h-b45.sqlite >/dev/null; done
$PT history aa --db h-b345.sqlite --tag r20 --pool 59 > aa-b34-p59.txt 2>&1 &
$PT history aa --db h-b45.sqlite --tag r20 --pool 30 > aa-b4-p30.txt 2>&1
wait
$PT history aa --db h.sqlite --tag r20 --pool 139 --run-effect split > aa-p139-split.txt 2>&1
echo done
