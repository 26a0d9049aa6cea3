#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# aa.sh DB NAME POOL TRIM [HI] [extra...]: history aa with the scratch build
# (../lower-2026-12-06/lower-trim.patch applied to main at 2255174: PT_TRIM_HI cuts that fraction of repetitions from the
# top of the sorted logs, --trim from the bottom)
db=$1 name=$2 pool=$3 trim=$4 hi=$5
shift 5 2>/dev/null || shift $#
if [ -n "$hi" ] && [ "$hi" != - ]; then export PT_TRIM_HI=$hi; fi
/work/exp/lowq40/src/build/ptbench history aa --db "$db" --tag r40ab --pool "$pool" --trim "$trim" "$@" > "$name.txt" 2> "$name.err"
echo "$name: $(grep -c 'FIRED' "$name.txt") fired lines | $(grep -E 'gate fired|caught .* of|median detectable' "$name.txt" | tr '\n' ' ')"
