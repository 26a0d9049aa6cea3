#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /work/exp/lowq/build/ptbench: main at 756c0a1 with lower-trim.patch (PT_TRIM_HI cuts that fraction from the top, --trim from the bottom)
# aa.sh DB TAG NAME TRIM [HI]: one history aa with the scratch binary
db=$1 tag=$2 name=$3 trim=$4 hi=$5
if [ -n "$hi" ]; then export PT_TRIM_HI=$hi; fi
/work/exp/lowq/build/ptbench history aa --db "$db" --tag "$tag" --pool 30 --trim "$trim" > "$tag-$name.txt" 2>&1
echo "$tag $name: $(grep -c ' fired' "$tag-$name.txt") | $(tail -1 "$tag-$name.txt")"
