#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: ptbench model walk combine on three runs' walk_model.csv
# (made here): the table, the coverage lines and the CSV carry what the
# three files say; bad input exits 2 naming it.
set -u
# shellcheck source=tests/common_e2e.sh
. "$(dirname "$0")/common_e2e.sh"
PT=$PTBENCH

hdr='source,case,backing,ws_bytes,ns_per_access,rel_error,d128_over_d64,d128_over_d64_lo,d128_over_d64_hi,hypothesis,reps_min_ns,reps_max_ns'
# run DIR BOTH LO HI HYP: a run directory whose chase-4k-1G both-stage
# prediction is BOTH [LO, HI]; guest and host agree in every run
run() {
	mkdir -p "$1"
	{
		echo "$hdr"
		echo "measured,chase-4k-1G,4k,1073741824,200,,,,,,150,290"
		echo "predicted-d128,chase-4k-1G,4k,1073741824,220,,1.1,1.05,1.15,$5,,"
		echo "predicted-d128-host,chase-4k-1G,4k,1073741824,220,,1.1,1.05,1.15,$5,,"
		echo "predicted-d128-both,chase-4k-1G,4k,1073741824,240,,$2,$3,$4,$5,,"
		echo "predicted-d128-both,dense-1M,4k,1048576,1.2,,1,1,1,$5,,"
	} >"$1/walk_model.csv"
}
run "$tmp/a" 1.2 1.15 1.25 hyp-a
run "$tmp/b" 1.3 1.28 1.32 hyp-b
run "$tmp/c" 1.1 1.1 1.1 hyp-c

expect_rc 0 "$PT" model walk combine "$tmp/a" "$tmp/b" "$tmp/c/walk_model.csv" -o "$tmp/comb.csv"
out=$tmp/out
grep -q '^run: 2 .*/b/walk_model.csv hypothesis=hyp-b$' "$out" || fail "run line: $(cat "$out")"
grep -q '^# chase-4k-1G  *3   1.100 (1.100-1.100) \[1.050,1.150\]   1.100 (1.100-1.100) \[1.050,1.150\]   1.200 (1.100-1.300) \[1.100,1.320\]$' \
	"$out" || fail "table row: $(grep chase-4k-1G "$out")"
grep -q '^# 1 of 2 cases at 1.000' "$out" || fail "flat case not left out of the table"
# both: no run's range holds another's (0 of 6); of the pairs only {b, c} holds a (1 of 3)
grep -q '^coverage: stage=both runs=1 inside=0.000 points=6 subsets=3$' "$out" || fail "k=1: $(cat "$out")"
grep -q '^coverage: stage=both runs=2 inside=0.333 points=3 subsets=3$' "$out" || fail "k=2"
grep -q '^enough: stage=both none of 1-2 runs' "$out" || fail "enough, both"
grep -q '^coverage: stage=guest runs=1 inside=1.000 points=6 subsets=3$' "$out" || fail "guest k=1"
grep -q '^enough: stage=guest runs=1 ' "$out" || fail "enough, guest"
# the CSV: a header and 3 stages x 2 cases
[ "$(wc -l <"$tmp/comb.csv")" -eq 7 ] || fail "CSV rows: $(cat "$tmp/comb.csv")"
grep -q '^predicted-d128-both,chase-4k-1G,4k,1073741824,3,1.2,1.1,1.3,1.1,1.32$' "$tmp/comb.csv" ||
	fail "CSV row: $(cat "$tmp/comb.csv")"
grep -q '^predicted-d128,dense-1M,4k,1048576,0,,,,,$' "$tmp/comb.csv" ||
	fail "a stage no run predicts: empty fields"
ls "$tmp"/comb.csv.tmp.* >/dev/null 2>&1 && fail "temporary CSV left behind"

expect_rc 0 "$PT" model walk combine --help
grep -q '^usage: ptbench model walk combine' "$tmp/out" || fail "--help"

# bad input: exit 2, naming it
expect_err 2 'needs at least two runs' "$PT" model walk combine "$tmp/a"
expect_err 2 'given twice' "$PT" model walk combine "$tmp/a" "$tmp/a/walk_model.csv"
expect_err 2 "$tmp/nope: No such file" "$PT" model walk combine "$tmp/a" "$tmp/nope"
mkdir "$tmp/empty"
expect_err 2 "$tmp/empty/walk_model.csv" "$PT" model walk combine "$tmp/a" "$tmp/empty"
echo "x,y" >"$tmp/foreign.csv"
expect_err 2 "foreign.csv:1: no column 'source'" "$PT" model walk combine "$tmp/a" "$tmp/foreign.csv"
run "$tmp/d" abc 1 1 hyp-d
expect_err 2 "d/walk_model.csv:5: case chase-4k-1G: d128_over_d64 'abc'" \
	"$PT" model walk combine "$tmp/a" "$tmp/d"
expect_err 2 'not a regular file' "$PT" model walk combine "$tmp/a" /dev/null
expect_err 2 '\-o .*: is a directory' "$PT" model walk combine "$tmp/a" "$tmp/b" -o "$tmp/empty"
expect_err 2 '--ws is not an option here' "$PT" model walk combine --ws 1G "$tmp/a" "$tmp/b"
expect_err 2 'needs a value' "$PT" model walk combine "$tmp/a" "$tmp/b" -o
# a symlink at -o is replaced, never written through
echo keep >"$tmp/target"
ln -s "$tmp/target" "$tmp/link.csv"
expect_rc 0 "$PT" model walk combine "$tmp/a" "$tmp/b" -o "$tmp/link.csv"
[ "$(cat "$tmp/target")" = keep ] || fail "-o wrote through a symlink"
echo "e2e_walk_combine: ok"
