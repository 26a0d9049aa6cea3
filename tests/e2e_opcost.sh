#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end: ptbench model ops on a synthetic run whose predictions can be
# worked by hand (tests/fixtures/ops-run/make_fixture.py), its outputs,
# idempotent rows, and bad input (exit 2 with the reason).
set -u
# fail, expect_err, $tmp, $fixtures
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"
PT=$PTBENCH
FIX=$fixtures

# column C of the row of ops_model.csv (or ops_validation.csv) whose case is K
col() { python3 - "$1" "$2" "$3" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["case"] == sys.argv[2]:
        print(r[sys.argv[3]])
PY
}
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * (b < 0 ? -b : b) + 1e-9) }'; }

"$PT" model ops --help >"$tmp/help" || fail "--help exit $?"
grep -q "modelled" "$tmp/help" || fail "--help does not say the numbers are modelled"
"$PT" model --help | grep -q "model ops" || fail "model --help lacks ops"

cp -r "$FIX/ops-run" "$tmp/run"
rows0=$(wc -l <"$tmp/run/results.csv")
"$PT" model ops --results "$tmp/run" >"$tmp/out" || fail "model ops exit $?"
grep -q "modelled" "$tmp/out" || fail "output does not say modelled"

# fork-4k-1G by hand: half pt_copy (32 ms over 262144 PTEs at 1 ns each, x1.5
# under D128), half the rest of the kernel (unchanged): 1 + 0.5 * 0.008192 * 0.5
m="$tmp/run/ops_model.csv"
close "$(col "$m" fork-4k-1G ratio)" 1.002048 || fail "fork-4k-1G ratio $(col "$m" fork-4k-1G ratio)"
# the upper end scales all of pt_copy (1.25), plus two sampling sd (1.3e-4)
awk -v r="$(col "$m" fork-4k-1G ratio_hi)" 'BEGIN { exit !(r > 1.2501 && r < 1.2502) }' ||
	fail "fork-4k-1G ratio_hi $(col "$m" fork-4k-1G ratio_hi)"
[ "$(col "$m" fork-4k-1G basis)" = profile ] || fail "fork-4k-1G basis"
[ "$(col "$m" fork-4k-1G levels_d128)" = 5 ] || fail "D128 levels"
close "$(col "$m" fork-4k-1G tables_d128)" 1031 || fail "D128 tables of a 1G fork"
[ "$(col "$m" toggle-4k-256M basis)" = no-profile ] || fail "toggle without a profile"
# a THP fault is two 1M block faults: twice the entries
close "$(col "$m" anon-write-thp-64M entries_d128)" 2 || fail "THP fault entries"

v="$tmp/run/ops_validation.csv"
close "$(col "$v" fork-4k-1G value | head -1)" 0.97 || fail "coverage"
# held out: 1000 ns + 50 ns/KiB + the replica's 0.5 ns x 16 entries at 64K
close "$(col "$v" anon-write-mthp64K-64M value)" "$(awk 'BEGIN { print (1000 + 50 * 64 + 0.5 * 16 - 0.5 * 1 + 0) / 5000 - 1 }')" ||
	fail "held-out fault $(col "$v" anon-write-mthp64K-64M value)"
[ "$(col "$v" fork-4k-1G pass | tail -1)" = yes ] || fail "held-out fork"

# rows: three per repetition of each predicted case, replaced, not added, on a rerun
n1=$(grep -c ',d128_predicted_' "$tmp/run/results.csv")
[ "$n1" -eq $((9 * 5 * 3)) ] || fail "want 135 predicted rows, got $n1"
"$PT" model ops --results "$tmp/run" >/dev/null || fail "second run"
[ "$(grep -c ',d128_predicted_' "$tmp/run/results.csv")" -eq "$n1" ] || fail "rows doubled"
[ "$(wc -l <"$tmp/run/results.csv")" -eq $((rows0 + n1)) ] || fail "measured rows lost"
"$PT" summary "$tmp/run" --format csv | grep -q 'd128_predicted_ns_per_fork_hi' ||
	fail "summary does not read the predicted rows"
cp "$tmp/run/results.csv" "$tmp/before.csv"
rm "$tmp/run/ops_model.csv"
"$PT" model ops --results "$tmp/run" --no-write >/dev/null || fail "--no-write"
[ ! -e "$tmp/run/ops_model.csv" ] || fail "--no-write wrote ops_model.csv"
cmp -s "$tmp/before.csv" "$tmp/run/results.csv" || fail "--no-write changed results.csv"

# bad input
expect_err 2 "required" "$PT" model ops
expect_err 2 "unknown option" "$PT" model ops --results "$tmp/run" --bogus
expect_err 2 "needs a value" "$PT" model ops --results
expect_err 2 "nosuch" "$PT" model ops --results "$tmp/nosuch"
mkdir "$tmp/tlbonly"
head -1 "$FIX/ops-run/results.csv" >"$tmp/tlbonly/results.csv"
echo 'tlb,chase-4k-16K,backing=4k;ws=16384,0,ns_per_access,1.5,ns,lower' >>"$tmp/tlbonly/results.csv"
expect_err 2 "no fork, mprotect, munmap or fault case" "$PT" model ops --results "$tmp/tlbonly"
echo "e2e_opcost: ok"
