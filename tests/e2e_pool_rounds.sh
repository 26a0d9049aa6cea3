#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare --baseline-db --round-effect: drift inside a run, taken out per
# round from the same workload's other series. Synthetic interleaved runs
# of two workloads of eight cases: the host's speed changes from round to
# round (20%, shared by every case) on top of 5% noise of each case. A
# plain run median is then close to one round's value, the median round's,
# and carries that round's own noise whole; the round-adjusted median
# averages each case's own noise over all its rounds, so the smallest
# detectable change is lower. A case slowed 10% is caught, and named;
# unchanged runs pass; a sequential run is left as it is.
set -uo pipefail
# fail, expect_rc, $tmp
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"
db=$tmp/h.sqlite

# make DIR SEED SLOW_FACTOR [ORDER]: two workloads x four cases, ten rounds
make_run() {
	python3 - "$@" <<'PY'
import csv, json, math, os, random, sys
out, seed, slow = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
order = sys.argv[4] if len(sys.argv) > 4 else "interleaved"
rng = random.Random(seed)
os.makedirs(out)
wls = {"wa": ["a%d" % i for i in range(1, 9)], "wb": ["b%d" % i for i in range(1, 9)]}
rows = []
for rep in range(10):
    host = rng.gauss(0, 0.2)  # the host's speed during this round
    for wl, cases in wls.items():
        for c in cases:
            v = 1000.0 * math.exp(host + rng.gauss(0, 0.05))
            if c == "a2":
                v *= slow
            rows.append([wl, c, "", rep, "ns_per_op", "%.9g" % v, "ns", "lower"])
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    w.writerows(sorted(rows, key=lambda r: (r[0], r[1], r[3])))
meta = {"schema_version": 1,
        "run": {"id": "run-%d" % seed, "suite": "ci", "tag": "r", "reps": 10, "order": order},
        "cases": [{"workload": wl, "case": c, "params": "", "status": "ok",
                   "primary_metric": "ns_per_op"} for wl, cs in wls.items() for c in cs]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}

for i in $(seq 1 10); do
	make_run "$tmp/pool$i" "$i" 1
done
"$PTBENCH" history add "$tmp"/pool* --db "$db" >/dev/null 2>&1 || fail "history add failed"
for i in 1 2 3; do
	make_run "$tmp/same$i" $((100 + i)) 1
	make_run "$tmp/slow$i" $((200 + i)) 1.10
done

expect_rc 1 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r "$tmp"/slow{1,2,3}
grep -q 'wa/a2 ns_per_op' "$tmp/err" || fail "the slowed case is not named: $(cat "$tmp/err")"
grep -q 'Round effect taken out of 13 of 13 runs' "$tmp/out" ||
	fail "the round effect is not stated: $(tail -4 "$tmp/out")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r "$tmp"/same{1,2,3}
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r --round-effect off \
	"$tmp"/same{1,2,3}

# Each series judged on its own spread (--spread series): these sixteen
# share one true spread, so the moderated prior would be that spread with
# infinite weight, and every detectable change would sit on the 5%
# threshold whatever the run statistic.
expect_rc 1 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r --format json \
	--spread series "$tmp"/slow{1,2,3}
mv "$tmp/out" "$tmp/on.json"
# the round effect as designed, on run medians (--trim 0.5)
"$PTBENCH" compare --baseline-db "$db" --baseline-tag r --format json --trim 0.5 \
	--spread series "$tmp"/slow{1,2,3} >"$tmp/median.json" 2>/dev/null
"$PTBENCH" compare --baseline-db "$db" --baseline-tag r --format json --round-effect off \
	--trim 0.5 --spread series "$tmp"/slow{1,2,3} >"$tmp/off.json" 2>/dev/null
python3 - "$tmp/median.json" "$tmp/off.json" <<'PY' || fail "the round effect does not do what it claims"
import json, sys
on, off = (json.load(open(f))["summary"] for f in sys.argv[1:])
assert on["round_effect"] is True and on["round_effect_runs"] == 13, on
assert off["round_effect"] is False and off["round_effect_runs"] == 0, off
# the median smallest detectable change: 6.5% against 9.4% for these seeds
assert on["median_detectable_pct"] < 0.8 * off["median_detectable_pct"], (on, off)
PY

# The run statistic (--trim): the default trimmed mean of the round-adjusted
# logs averages more of each run's values than their median (--trim 0.5),
# so with this normal noise the smallest detectable change is lower.
python3 - "$tmp/on.json" "$tmp/median.json" <<'PY' || fail "the trimmed mean does not do what it claims"
import json, sys
trim, med = (json.load(open(f))["summary"] for f in sys.argv[1:])
assert trim["trim"] == 0.2 and med["trim"] == 0.5, (trim, med)
print("detectable: trimmed %.2f%%, median %.2f%%" % (trim["median_detectable_pct"], med["median_detectable_pct"]))
assert trim["median_detectable_pct"] < 0.95 * med["median_detectable_pct"], (trim, med)
PY

# Cut from one end only (--trim LO,HI): the fastest 30% of each run still
# sees a slowdown of every repetition; the minimum spreads more; the text
# and the JSON say which statistic was used.
expect_rc 1 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r --trim 0,0.7 \
	--spread series "$tmp"/slow{1,2,3}
grep -q "cut from the low end and 70% from the high end (--trim 0,0.7)" "$tmp/out" ||
	fail "--trim 0,0.7 is not stated: $(grep 'Run statistic' "$tmp/out")"
# (judged on its own rc: the minimum of 10 may or may not see it)
"$PTBENCH" compare --baseline-db "$db" --baseline-tag r --trim 0,1 --format json \
	--spread series "$tmp"/slow{1,2,3} >"$tmp/min.json" 2>/dev/null
python3 - "$tmp/min.json" "$tmp/on.json" <<'PY' || fail "--trim 0,1 does not do what it claims"
import json, sys
low, sym = (json.load(open(f)) for f in sys.argv[1:])
s = low["summary"]
assert s["trim"] is None and s["trim_low"] == 0 and s["trim_high"] == 1, s
assert sym["summary"]["trim_low"] == sym["summary"]["trim_high"] == 0.2, sym["summary"]
# the minimum of 10 normal repetitions spreads more than their trimmed mean
assert s["median_detectable_pct"] > sym["summary"]["median_detectable_pct"], (s, sym["summary"])
PY
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r --trim 0,1 "$tmp"/same{1,2,3}
grep -q "each run's 0% quantile of its repetitions (--trim 0,1)" "$tmp/out" ||
	fail "--trim 0,1 is not stated: $(grep 'Run statistic' "$tmp/out")"

# A sequential run has no rounds: its plain medians are judged.
make_run "$tmp/seq1" 301 1 sequential
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag r "$tmp/seq1"
grep -q 'Round effect taken out of 10 of 11 runs' "$tmp/out" ||
	fail "a sequential run was adjusted: $(tail -2 "$tmp/out")"

# history aa takes the option too, and judges sets of NEW runs together.
"$PTBENCH" history add "$tmp"/same{1,2,3} --db "$db" >/dev/null 2>&1 || fail "history add failed"
expect_rc 0 "$PTBENCH" history aa --db "$db" --tag r --pool 10
grep -q 'round effect taken out of 13 runs' "$tmp/out" || fail "aa: no round effect: $(cat "$tmp/out")"
grep -q 'fired on [0-9]* of 1 sets of 3' "$tmp/out" || fail "aa: no A/A of sets: $(cat "$tmp/out")"

expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --round-effect maybe "$tmp/same1"
grep -q -- "--round-effect must be on or off, not 'maybe'" "$tmp/err" || fail "$(cat "$tmp/err")"
# two runs take --round-effect too (tests/e2e_two_run_rounds.sh); a bad value is refused there as here
expect_rc 2 "$PTBENCH" compare --round-effect maybe "$tmp/same1" "$tmp/same2"
grep -q -- "--round-effect must be on or off, not 'maybe'" "$tmp/err" || fail "$(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history aa --db "$db" --tag r --round-effect ''
for bad in 0.6 -0.1 '' 0.2x nan; do
	expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --trim "$bad" "$tmp/same1"
	grep -q -- "--trim '$bad': expected a fraction from 0 to 0.5" "$tmp/err" || fail "$(cat "$tmp/err")"
	expect_rc 2 "$PTBENCH" history aa --db "$db" --tag r --trim "$bad"
done
for bad in 0.1, ,0.5 1.1,0 a,b 0.6,0.6 0.1,0.2,0.3; do
	expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --trim "$bad" "$tmp/same1"
	grep -q -- "--trim '$bad': " "$tmp/err" || fail "$(cat "$tmp/err")"
	expect_rc 2 "$PTBENCH" history aa --db "$db" --tag r --trim "$bad"
done
grep -q -- "--trim '0.1,0.2,0.3': expected LO,HI, two fractions from 0 to 1" "$tmp/err" ||
	fail "$(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --trim 0.6,0.6 "$tmp/same1"
grep -q -- "--trim '0.6,0.6': the two fractions cut more than the whole sample" "$tmp/err" ||
	fail "$(cat "$tmp/err")"
# aa's options mean nothing to the other actions: refused, not ignored
expect_rc 2 "$PTBENCH" history list --db "$db" --trim 0.1
grep -q -- '--trim is an option of history aa, not of list' "$tmp/err" || fail "$(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history add "$tmp/same1" --db "$db" --pool=5
grep -q -- '--pool is an option of history aa, not of add' "$tmp/err" || fail "$(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --trim 0.1 "$tmp/same1" "$tmp/same2"
grep -q -- '--trim needs --baseline-db' "$tmp/err" || fail "$(cat "$tmp/err")"
echo "e2e_pool_rounds: ok"
