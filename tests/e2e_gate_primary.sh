#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The gate judges each case's primary metric only. A run compared with a
# copy of itself in which one primary metric is 10% slower exits 1 and names
# it; the same slowdown of a secondary metric is shown, not gated (exit 0);
# a config's gate=on adds it back. The gate never passes on nothing: a NEW
# without rows, or a --filter that leaves no series, is exit 2. Synthetic
# runs (10 repetitions, 2% noise, like a fault run), made here.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# make DIR SLOW_CASE SLOW_METRIC FACTOR [noprimary]
make_run() {
	python3 - "$@" <<'PY'
import csv, json, os, random, sys
out, slow_case, slow_metric, factor = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
declare = len(sys.argv) < 6
os.makedirs(out)
rng = random.Random(7)  # the same noise in every copy: only the injected change differs
cases = ["anon-write-4k-%dM" % s for s in (1, 4, 16, 64)] + ["cow-4k-16M", "file-read-4k-16M"]
metrics = [("ns_per_fault", 2000.0, "ns"), ("ticks_per_fault", 5000.0, "rdtsc"),
           ("task-clock_per_fault", 1900.0, "ns")]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for c in cases:
        for rep in range(10):
            for m, centre, unit in metrics:
                v = centre * (1 + rng.gauss(0, 0.02))
                if c == slow_case and m == slow_metric:
                    v *= factor
                w.writerow(["fault", c, "size=1", rep, m, "%.9g" % v, unit, "lower"])
meta = {"schema_version": 1, "run": {"suite": "quick", "reps": 10},
        "cases": [dict({"workload": "fault", "case": c, "params": "size=1", "status": "ok"},
                       **({"primary_metric": "ns_per_fault"} if declare else {}))
                  for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}

expect_rc() { # want, command...
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$tmp/err")"
}

make_run "$tmp/base" none none 1
make_run "$tmp/slow-primary" anon-write-4k-16M ns_per_fault 1.10
make_run "$tmp/slow-secondary" anon-write-4k-16M ticks_per_fault 1.10

expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/base"
expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow-primary"
grep -q 'anon-write-4k-16M.*ns_per_fault' "$tmp/err" ||
	fail "the regression is not named on stderr: $(cat "$tmp/err")"
grep -q 'series shown, not gated' "$tmp/err" || fail "no note of the series not gated"

expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow-secondary"
echo 'fault/*/ticks_per_fault gate=on' >"$tmp/gate.conf"
expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow-secondary" --config "$tmp/gate.conf"
grep -q 'ticks_per_fault' "$tmp/err" || fail "gate=on did not gate the added metric"

# JSON: the secondary series is "shown", the primary one gated.
"$PTBENCH" compare "$tmp/base" "$tmp/slow-primary" --format json >"$tmp/c.json"
python3 - "$tmp/c.json" <<'PY' || fail "compare JSON: primary/secondary verdicts wrong"
import json, sys
d = json.load(open(sys.argv[1]))
v = {(s["case"], s["metric"]): s for s in d["series"]}
assert v[("anon-write-4k-16M", "ns_per_fault")]["verdict"] == "worse"
assert v[("anon-write-4k-16M", "ns_per_fault")]["gated"] is True
assert v[("anon-write-4k-16M", "ticks_per_fault")]["verdict"] == "shown"
assert v[("anon-write-4k-16M", "ticks_per_fault")]["gated"] is False
assert d["summary"]["exit_status"] == 1
PY

# Nothing to gate: exit 2, never a pass.
mkdir "$tmp/empty"
head -n 1 "$tmp/base/results.csv" >"$tmp/empty/results.csv"
cp "$tmp/base/meta.json" "$tmp/empty/"
expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/empty"
grep -q 'has no rows' "$tmp/err" || fail "no 'has no rows' message: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/base" --filter 'nothing/*'
grep -q 'no series to compare after --filter' "$tmp/err" || fail "no --filter message: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/base" --filter '*/ticks_per_fault'
grep -q 'no gated series' "$tmp/err" || fail "no 'no gated series' message: $(cat "$tmp/err")"

# Runs from before primary metrics: every series gated, and said.
make_run "$tmp/old-base" none none 1 noprimary
make_run "$tmp/old-slow" anon-write-4k-16M ns_per_fault 1.10 noprimary
rc=0
"$PTBENCH" compare "$tmp/old-base" "$tmp/old-slow" >/dev/null 2>"$tmp/err" || rc=$?
grep -q 'neither run declares primary metrics' "$tmp/err" || fail "no note on old runs"
echo "ok: primary metrics gated, secondary shown, gate=on adds, nothing-to-gate is exit 2 (old runs exit $rc)"
