#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ptbench report on the fixture run (tests/fixtures/run-small), headless:
# REPORT.md opens with the D128-against-D64 table (or, with two runs, the
# comparison), has its sections and headline numbers, its appendix file is
# written and linked, every figure it references exists and is a valid PNG
# or SVG, a comparison of two runs names the metric slowed down, and bad
# input exits 2 with a message and no traceback.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/report_common.sh"

# ---- usage and bad input ----
expect 0 "report --help" "$PTBENCH" report --help
grep -q '^usage: ptbench report' "$tmp/out" || fail "--help prints no usage"
expect 2 "report without a directory" "$PTBENCH" report
expect 2 "report with three directories" "$PTBENCH" report "$tmp" "$tmp" "$tmp"
expect 2 "report --bogus" "$PTBENCH" report --bogus "$fixture"
expect 2 "report of a missing directory" "$PTBENCH" report "$tmp/missing"
grep -q "$tmp/missing" "$tmp/err" || fail "the message does not name the directory"
mkdir -p "$tmp/empty"
expect 2 "report of a directory without results.csv" "$PTBENCH" report "$tmp/empty"
grep -q 'results.csv' "$tmp/err" || fail "the message does not name results.csv"

new_run bad
sed -i '5s/,ns_per_access,[^,]*,/,ns_per_access,fast,/' "$tmp/bad/results.csv"
expect 2 "report of a malformed results.csv" "$PTBENCH" report "$tmp/bad"
grep -q 'results.csv:5' "$tmp/err" || fail "the message does not give results.csv:5"
expect 2 "report.py on a malformed results.csv" "$py" "$plot/report.py" "$tmp/bad"
grep -q Traceback "$tmp/err" && fail "report.py printed a traceback for bad input"
new_run badmeta
echo '{"truncated": ' >"$tmp/badmeta/meta.json"
expect 2 "report of a malformed meta.json" "$PTBENCH" report "$tmp/badmeta"
new_run badwalk
printf 'source,case,backing,ws_bytes,ns_per_access\n%s\n' \
	'fitted-d64,chase-4k-1G,4k,1073741824,slow' >"$tmp/badwalk/walk_model.csv"
expect 2 "report of a malformed walk_model.csv" "$PTBENCH" report "$tmp/badwalk"
expect 2 "report with a bad second directory" "$PTBENCH" report "$fixture" "$tmp/missing"
[ -e "$tmp/bad/REPORT.md" ] && fail "a REPORT.md was written for bad input"
expect 1 "report with an unusable ptbench" env PTBENCH=/nonexistent/ptbench \
	"$py" "$plot/report.py" "$fixture" --no-plots
grep -q 'nonexistent/ptbench' "$tmp/err" || fail "the message does not name the binary"
grep -q Traceback "$tmp/err" && fail "report.py printed a traceback for a missing binary"

# ---- one run ----
new_run a
expect 0 "report of the fixture run" "$PTBENCH" report "$tmp/a"
r=$tmp/a/REPORT.md
grep -qx "$r" "$tmp/out" || fail "report does not print the path of REPORT.md"
for s in "## What D128 would change against D64" "## Headline figures" \
	"## Measured vs modelled" "## Workloads" "## Caveats" \
	"### tlb" "### fault" "### mprotect" "### fork" "### munmap" "### thp" "### pgtable"; do
	has "$r" "^$s\$" "section '$s'"
done
# the decision table is the first section, and each of its rows is there
[ "$(grep -m1 '^## ' "$r")" = "## What D128 would change against D64" ] &&
	ok "the D128 table comes first" || fail "the first section is $(grep -m1 '^## ' "$r")"
has "$r" '^\| page-table memory per populated GiB \(4K pages\) \| [0-9.]+ MiB \(model\); kernel [0-9.]+ MiB \(measured\) \| [0-9.]+ MiB \| [0-9.]+x' \
	"decision: page-table memory"
has "$r" '^\| translation cost per access, 4K pages, working sets measured \|.*\| [+-][0-9.]+% to [+-][0-9.]+% \(at 1 GiB: .*\| modelled \|' \
	"decision: translation cost as a range"
has "$r" '^\| PMD block: THP and the smaller hugetlb size \| 2 MiB \| 1 MiB \|' "decision: PMD 2M -> 1M"
has "$r" '^\| PUD block: the larger hugetlb size \| 1 GiB \| 256 MiB \|' "decision: PUD 1G -> 256M"
has "$r" '^\| contiguous run at PMD level.* \| 32 MiB \| 16 MiB \|' "decision: contiguous runs"
has "$r" '^\| THP cases measured \(backing=thp\) \| THP fraction' "decision: the THP cases"
has "$r" '^\| kernel operation costs \(fork, mprotect, munmap, faults\) \|.*\| not modelled in this run \|.*ptbench model ops' \
	"decision: operation costs not modelled without ops_model.csv"
has "$r" '^## Page-table operations under D128 \(modelled\)' "the operations section"
# the appendix: its own file, linked, with every series and the environment
a=$tmp/a/REPORT-series.md
has "$r" '\]\(REPORT-series.md\)' "the appendix linked"
has "$a" '^## Every series$' "appendix: every series"
has "$a" '^## Environment and translation regime$' "appendix: the environment"
[ "$(grep -c '^| ' "$a")" -gt "$(tail -n +2 "$tmp/a/results.csv" | cut -d, -f1-3,5 | sort -u | wc -l)" ] &&
	ok "appendix: a row per series" || fail "appendix: fewer rows than series"
grep -q '^## Every series' "$r" && fail "the every-series table is still in REPORT.md"
# the tlb table shows the metric the harness writes, with ptbench summary's median
has "$r" '^\| case \| ns_per_access \(ns\) \| ticks_per_access \(rdtsc\) \|' "ticks_per_access in the tlb table"
want=$("$PTBENCH" summary "$tmp/a" | "$py" -c 'import json,sys
r = [s for s in json.load(sys.stdin)["series"] if s["case"] == "chase-4k-1G" and s["metric"] == "ticks_per_access"][0]
print(("%.4g \\(%.4g-%.4g" % (r["median"], r["ci_lo"], r["ci_hi"])).replace(".", "\\."))')
has "$r" "^\| chase-4k-1G \|.*\| $want" "chase-4k-1G ticks_per_access median and interval from ptbench summary"
has "$r" 'D128 would use [0-9]+\.[0-9]+x the page-table memory of D64: [0-9.]+ MiB per populated' \
	"page-table headline"
has "$r" 'Modelled translation cost [+-][0-9.]+% per access at a 1 GiB working set' \
	"translation headline"
has "$r" 'x86-64 4-level' "the translation regime"
has "$r" 'dTLB-load-misses' "unsupported counters listed"
has "$r" 'nested paging' "the VM caveat"
has "$r" '\| measured \|' "measured numbers labelled"
has "$r" '\| modelled \|' "modelled numbers labelled"
# the headline ratio is computed from the data: the marginal D128 / D64
# bytes from pgtable/dense-4k-64M to pgtable/dense-4k-1G
want=$(awk -F, '$1=="pgtable" && $4==0 && $5 ~ /^pgtable_bytes_model_d(64|128)$/ {
	v[$2 "/" $5] = $6 }
	END { m = "pgtable_bytes_model_"
	d128 = v["dense-4k-1G/" m "d128"] - v["dense-4k-64M/" m "d128"]
	d64 = v["dense-4k-1G/" m "d64"] - v["dense-4k-64M/" m "d64"]
	printf "%.2f", d128 / d64 }' "$tmp/a/results.csv")
has "$r" "use ${want}x the page-table" "headline ratio ${want} from results.csv"
n=$(check_figures "$tmp/a")
[ "$n" -eq 4 ] && ok "4 figures referenced" || fail "$n figures referenced, expected 4"
for f in pgtable translation mmcost faults; do
	for e in png svg; do
		valid_figure "$tmp/a/figures/$f.$e" || fail "figures/$f.$e missing or invalid"
	done
done
for f in pgtable translation mmcost-fork mmcost-mprotect mmcost-munmap; do
	[ -s "$tmp/a/plot-data/$f.csv" ] || fail "plot-data/$f.csv not written"
done
ls "$tmp/a"/*.tmp "$tmp/a/figures"/*.tmp 2>/dev/null && fail "temporary files left behind"

# ---- two runs: one metric 50% slower ----
new_run b
awk -F, -v OFS=, '$2=="anon-write-4k" && $5=="ns_per_fault" {$6=sprintf("%.9g", $6*1.5)} 1' \
	"$fixture/results.csv" >"$tmp/b/results.csv"
expect 0 "report of two runs" "$PTBENCH" report "$tmp/a" "$tmp/b"
has "$r" '^## Comparison: BASE against NEW$' "comparison section"
[ "$(grep -m1 '^## ' "$r")" = "## Comparison: BASE against NEW" ] &&
	ok "the comparison comes first" || fail "the first section is $(grep -m1 '^## ' "$r")"
has "$r" 'Verdicts: [0-9]+ series: 1 worse, 0 better' "verdict counts from compare"
has "$r" 'exit status 1' "compare's exit status"
has "$tmp/a/REPORT-series.md" '^## Comparison: every series' "compare's full table in the appendix"
has "$r" 'anon-write-4k.*ns_per_fault.*\*\*regression\*\*' "the slowed metric named a regression"
[ "$(grep -c '\*\*regression\*\*' "$r")" -eq 1 ] && ok "only one regression" ||
	fail "other series reported as regressions"
n=$(check_figures "$tmp/a")
[ "$n" -eq 5 ] && ok "5 figures referenced" || fail "$n figures referenced, expected 5"
# the same with a gate config that takes the slowed series out of the gate
printf 'fault/anon-write-4k/ns_per_fault gate=off\n' >"$tmp/gate.conf"
expect 0 "report of two runs with --config" "$PTBENCH" report "$tmp/a" "$tmp/b" --config "$tmp/gate.conf"
has "$r" "per-series settings of .$tmp/gate.conf." "the config named in the report"
[ "$(grep -c '\*\*regression\*\*' "$r")" -eq 0 ] && ok "no regression under gate=off" ||
	fail "a gate=off series reported as a regression"
has "$r" 'Verdicts: [0-9]+ series: 0 worse, .* 1 not gated' "the series counted as not gated"
expect 2 "report --config missing" "$PTBENCH" report "$tmp/a" "$tmp/b" --config "$tmp/nope.conf"

# ---- --no-plots, and a run with only some workloads ----
new_run c
expect 0 "report --no-plots" "$PTBENCH" report --no-plots "$tmp/c"
has "$tmp/c/REPORT.md" 'not made \(--no-plots\)' "--no-plots said in the report"
[ -e "$tmp/c/figures" ] && fail "--no-plots made figures"
new_run d
awk -F, 'NR==1 || $1=="mprotect"' "$fixture/results.csv" >"$tmp/d/results.csv"
rm -f "$tmp/d/walk_model.csv"
expect 0 "report of a run with only mprotect" "$PTBENCH" report "$tmp/d"
has "$tmp/d/REPORT.md" 'Figure 1 omitted|Figure 1 \(pgtable\): the run has no' \
	"absent figure 1 said"
has "$tmp/d/REPORT.md" 'no `walk_model.csv`' "absent walk model said"
[ -e "$tmp/d/figures/translation.png" ] && fail "a translation figure was made without data"
check_figures "$tmp/d" >/dev/null

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all report checks passed"
