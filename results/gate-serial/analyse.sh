#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh DB TAG OUTDIR PTBENCH: the pool gate on the runs of TAG with
# the serial correlation estimated (the default), without it, split, and a
# pool of 20 (NOTES.md).
set -euo pipefail
db=$1 tag=$2 out=$3 pt=$4
"$pt" history aa --db "$db" --tag "$tag" --pool 30 >"$out/$tag-p30-auto.txt"
"$pt" history aa --db "$db" --tag "$tag" --pool 30 --serial off >"$out/$tag-p30-off.txt"
"$pt" history aa --db "$db" --tag "$tag" --pool 30 --run-effect split >"$out/$tag-p30-split.txt"
"$pt" history aa --db "$db" --tag "$tag" --pool 20 >"$out/$tag-p20-auto.txt"
