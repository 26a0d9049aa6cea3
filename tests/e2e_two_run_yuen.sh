#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The two-run mode's tests (compare --test yuen, the default, and mw). Synthetic runs of
# six fault series, 10 repetitions, 2% noise; in one series three single
# repetitions 25% slow that no other series shares, as the host made them
# on this project's PVM guest (results/gate-two-run-rounds-2026-12-07/). A
# copy with that series 10% slower: the rank test cannot tell it past the
# three slow values (--test mw: exit 0); Yuen's test of each side's fastest
# 60% does (exit 1, named). Both say which test gave p; a bad --test is
# exit 2.
set -uo pipefail
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"

# make DIR FACTOR: tests/fault_run_noisy.py, three lone slow repetitions
make_run() {
	python3 "$(dirname "${BASH_SOURCE[0]}")/fault_run_noisy.py" "$1" "$2" interleaved lone ||
		fail "fault_run_noisy.py $*"
}

make_run "$tmp/base" 1
make_run "$tmp/slow" 1.10

expect_rc 0 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --test mw
grep -q 'p: Mann-Whitney U, holm-corrected' "$tmp/out" || fail "the legend does not name the rank test"
expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow"
grep -q "(--test yuen)" "$tmp/out" || fail "Yuen's test is not the default"
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
echo "ok: three lone slow repetitions: --test mw exit 0, yuen (the default) exit 1 naming the series"
