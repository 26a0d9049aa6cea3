#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The two-run mode's round effect (compare --round-effect on). Synthetic
# interleaved runs of six fault series, 10 rounds, 2% noise, with rounds
# 4-6 25% slower for all of them together, as the host made a real fault
# run on this project's PVM guest (results/gate-two-run-2026-12-07/). A
# copy with one series 10% slower: the raw repetitions cannot tell it
# (exit 0); with the round effect taken out the test does (exit 1, named).
# A sequential run has no rounds to take out; a bad value is exit 2.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# make DIR FACTOR ORDER: the slow case's ns_per_fault times FACTOR
make_run() {
	python3 - "$@" <<'PY'
import csv, json, os, random, sys
out, factor, order = sys.argv[1], float(sys.argv[2]), sys.argv[3]
os.makedirs(out)
rng = random.Random(11)  # the same noise in every copy: only the injected change differs
cases = ["anon-write-4k-64M", "anon-read-4k-64M", "cow-child-4k-64M",
         "file-shared-write-4k-64M", "anon-write-thp-64M", "anon-write-4k-16M"]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for rep in range(10):
        stretch = 1.25 if 4 <= rep <= 6 else 1.0
        for c in cases:
            v = 10000.0 * stretch * (1 + rng.gauss(0, 0.02))
            if c == "anon-write-4k-64M":
                v *= factor
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
meta = {"schema_version": 1, "run": {"suite": "quick", "reps": 10, "order": order},
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

make_run "$tmp/base" 1 interleaved
make_run "$tmp/slow" 1.10 interleaved
make_run "$tmp/seq-base" 1 sequential
make_run "$tmp/seq-slow" 1.10 sequential

# The default is the raw repetitions: the slow stretch hides the change.
expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow"
grep -q 'round effect' "$tmp/err" && fail "round effect said taken out by default: $(cat "$tmp/err")"
expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --round-effect off

expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --round-effect on
grep -q 'anon-write-4k-64M .*ns_per_fault: +10.0%' "$tmp/err" ||
	fail "the regression is not named with its +10.0%: $(cat "$tmp/err")"
grep -q 'round effect taken out of 6 series of BASE and 6 of NEW' "$tmp/err" ||
	fail "no note of the series adjusted: $(cat "$tmp/err")"
grep -q "round effect taken out of base's 6 and new's 6" "$tmp/out" ||
	fail "the table does not say the round effect was taken out"
# only the slowed series is named
[ "$(grep -c 'ns_per_fault: ' "$tmp/err")" -eq 1 ] || fail "more than one series named: $(cat "$tmp/err")"

"$PTBENCH" compare "$tmp/base" "$tmp/slow" --round-effect on --format json >"$tmp/c.json" 2>/dev/null
python3 - "$tmp/c.json" <<'PY' || fail "compare JSON: round effect fields wrong"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["gate"]
assert g["round_effect"] is True and g["round_adjusted_base"] == 6 and g["round_adjusted_new"] == 6
assert d["summary"]["exit_status"] == 1
PY

# A sequential run's repetitions were not measured round by round: none taken out.
expect_rc 0 "$PTBENCH" compare "$tmp/seq-base" "$tmp/seq-slow" --round-effect on
grep -q 'round effect taken out of 0 series of BASE and 0 of NEW' "$tmp/err" ||
	fail "a sequential run was adjusted: $(cat "$tmp/err")"

expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --round-effect yes
grep -q "round-effect must be on or off, not 'yes'" "$tmp/err" || fail "no message for a bad value"
expect_rc 2 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --trim 0.1
grep -q -- '--trim needs --baseline-db' "$tmp/err" || fail "--trim accepted for two runs"
echo "ok: two runs with a slow stretch: raw exit 0, round effect on exit 1 naming the series"
