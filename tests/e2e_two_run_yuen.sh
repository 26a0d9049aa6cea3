#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The two-run mode's second test (compare --test yuen). Synthetic runs of
# six fault series, 10 repetitions, 2% noise; in one series three single
# repetitions 25% slow that no other series shares, as the host made them
# on this project's PVM guest (results/gate-two-run-rounds-2026-12-07/). A
# copy with that series 10% slower: the rank test cannot tell it past the
# three slow values (exit 0); Yuen's test of each side's fastest 60% does
# (exit 1, named). Both say which test gave p; a bad --test is exit 2.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# make DIR FACTOR: the slowed case's ns_per_fault times FACTOR
make_run() {
	python3 - "$@" <<'PY'
import csv, json, os, random, sys
out, factor = sys.argv[1], float(sys.argv[2])
os.makedirs(out)
rng = random.Random(5)  # the same noise in every copy: only the injected change differs
cases = ["anon-write-4k-64M", "anon-read-4k-64M", "cow-child-4k-64M",
         "file-shared-write-4k-64M", "anon-write-thp-64M", "anon-write-4k-16M"]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for rep in range(10):
        for c in cases:
            v = 10000.0 * (1 + rng.gauss(0, 0.02))
            if c == "anon-write-4k-64M":
                v *= factor * (1.25 if rep in (1, 4, 7) else 1)
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
meta = {"schema_version": 1, "run": {"suite": "quick", "reps": 10, "order": "interleaved"},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}

expect_rc() { # want, command...
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$tmp/err")"
}

make_run "$tmp/base" 1
make_run "$tmp/slow" 1.10

expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow"
grep -q 'p: Mann-Whitney U, holm-corrected' "$tmp/out" || fail "the legend does not name the rank test"
expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --test mw
expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --test yuen
grep -q 'anon-write-4k-64M .*ns_per_fault: +10.0%' "$tmp/err" ||
	fail "the regression is not named with its +10.0%: $(cat "$tmp/err")"
[ "$(grep -c 'ns_per_fault: ' "$tmp/err")" -eq 1 ] || fail "more than one series named: $(cat "$tmp/err")"
grep -q "p: Yuen's test of the fastest 60% of ln(value) (--test yuen), holm-corrected" "$tmp/out" ||
	fail "the legend does not name Yuen's test"
# a run against itself: nothing to find
expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/base" --test yuen

"$PTBENCH" compare "$tmp/base" "$tmp/slow" --test yuen --format json >"$tmp/c.json" 2>/dev/null
python3 - "$tmp/c.json" <<'PY' || fail "compare JSON: the test is not recorded"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["gate"]["test"] == "yuen", d["gate"]
assert d["summary"]["exit_status"] == 1
PY

expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --test t
grep -q -- "--test 't': expected mw or yuen" "$tmp/err" || fail "no message for a bad --test"
expect_rc 2 "$PTBENCH" compare --baseline-db "$tmp/none.sqlite" --test yuen "$tmp/slow"
grep -q -- '--test chooses the two-run test' "$tmp/err" || fail "--test accepted with --baseline-db"
echo "ok: three lone slow repetitions: rank test exit 0, --test yuen exit 1 naming the series"
