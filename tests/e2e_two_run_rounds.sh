#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The two-run mode's round effect (compare --round-effect on). Synthetic
# interleaved runs of six fault series, 10 rounds, 2% noise, with rounds
# 4-6 25% slower for all of them together, as the host made a real fault
# run on this project's PVM guest (results/gate-two-run-2026-12-07/). A
# copy with one series 10% slower: the rank test (--test mw) on the raw
# repetitions cannot tell it (exit 0); with the round effect taken out it
# does (exit 1, named).
# A sequential run has no rounds to take out; a bad value is exit 2.
set -uo pipefail
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"

# make DIR FACTOR ORDER: tests/fault_run_noisy.py, rounds 4-6 slow
make_run() {
	python3 "$(dirname "${BASH_SOURCE[0]}")/fault_run_noisy.py" "$1" "$2" "$3" stretch ||
		fail "fault_run_noisy.py $*"
}

make_run "$tmp/base" 1 interleaved
make_run "$tmp/slow" 1.10 interleaved
make_run "$tmp/seq-base" 1 sequential
make_run "$tmp/seq-slow" 1.10 sequential

# The default is the raw repetitions: the slow stretch hides the change from the rank test.
expect_rc 0 "$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow"
grep -q 'round effect' "$tmp/err" && fail "round effect said taken out by default: $(cat "$tmp/err")"
expect_rc 0 "$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow" --round-effect off

expect_rc 1 "$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow" --round-effect on
grep -q 'anon-write-4k-64M .*ns_per_fault: +10.0%' "$tmp/err" ||
	fail "the regression is not named with its +10.0%: $(cat "$tmp/err")"
grep -q 'round effect taken out of 6 series of BASE and 6 of NEW' "$tmp/err" ||
	fail "no note of the series adjusted: $(cat "$tmp/err")"
grep -q "round effect taken out of base's 6 and new's 6" "$tmp/out" ||
	fail "the table does not say the round effect was taken out"
# only the slowed series is named
[ "$(grep -c 'ns_per_fault: ' "$tmp/err")" -eq 1 ] || fail "more than one series named: $(cat "$tmp/err")"

"$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow" --round-effect on --format json >"$tmp/c.json" 2>/dev/null
python3 - "$tmp/c.json" <<'PY' || fail "compare JSON: round effect fields wrong"
import json, sys
d = json.load(open(sys.argv[1]))
g = d["gate"]
assert g["round_effect"] is True and g["round_adjusted_base"] == 6 and g["round_adjusted_new"] == 6
assert d["summary"]["exit_status"] == 1
PY

# A sequential run's repetitions were not measured round by round: none taken out.
expect_rc 0 "$PTBENCH" compare --test mw "$tmp/seq-base" "$tmp/seq-slow" --round-effect on
grep -q 'round effect taken out of 0 series of BASE and 0 of NEW' "$tmp/err" ||
	fail "a sequential run was adjusted: $(cat "$tmp/err")"

expect_rc 2 "$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow" --round-effect yes
grep -q "round-effect must be on or off, not 'yes'" "$tmp/err" || fail "no message for a bad value"
expect_rc 2 "$PTBENCH" compare --test mw "$tmp/base" "$tmp/slow" --trim 0.1
grep -q -- '--trim needs --baseline-db' "$tmp/err" || fail "--trim accepted for two runs"
echo "ok: two runs with a slow stretch: raw exit 0, round effect on exit 1 naming the series"
