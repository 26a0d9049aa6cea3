#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare --baseline-db: NEW runs against a pool of runs in a history. Ten
# synthetic pool runs drift 3% from run to run (log-normal) on top of 2%
# noise inside a run (and a count that is always 0, shown and not gated);
# three NEW runs from the same distribution pass, three
# with one primary metric 10% slower fail and name it, a pool below
# --pool-min is exit 2, NEW runs already in the history are left out of the
# pool, and the JSON carries each series' smallest detectable change. A
# drift shared by the whole run is taken out (--run-effect) and gated itself,
# and runs made back to back count as fewer independent ones (--serial);
# --spread moderated draws each spread toward all of theirs.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/h.sqlite

# make DIR SEED SLOW_FACTOR: a fault-like run of 6 cases, 10 repetitions
make_run() {
	python3 - "$@" <<'PY'
import csv, json, math, os, random, sys
out, seed, slow = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rng = random.Random(seed)
os.makedirs(out)
cases = ["anon-write-4k-%dM" % s for s in (1, 4, 16, 64)] + ["cow-4k-16M", "file-read-4k-16M"]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for c in cases:
        drift = math.exp(rng.gauss(0, 0.03))  # the host's speed during this run
        for rep in range(10):
            for m, centre, unit in (("ns_per_fault", 2000.0, "ns"), ("ticks_per_fault", 5000.0, "rdtsc"),
                                    ("major_faults_per_fault", 0.0, "count")):
                v = centre * drift * (1 + rng.gauss(0, 0.02))
                if c == "anon-write-4k-16M" and m == "ns_per_fault":
                    v *= slow
                w.writerow(["fault", c, "size=1", rep, m, "%.9g" % v, unit, "lower"])
meta = {"schema_version": 1, "run": {"id": "run-%d" % seed, "suite": "ci", "tag": "t", "reps": 10},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}

expect_rc() { # want, command...
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$tmp/err") $(head -c 2000 "$tmp/out")"
}

for i in $(seq 1 10); do
	make_run "$tmp/pool$i" "$i" 1
done
"$PTBENCH" history add "$tmp"/pool* --db "$db" >/dev/null 2>&1 || fail "history add failed"
for i in 1 2 3; do
	make_run "$tmp/same$i" $((100 + i)) 1
	make_run "$tmp/slow$i" $((200 + i)) 1.10
done

expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag t "$tmp"/same{1,2,3}
grep -q 'against a pool of 10 run' "$tmp/out" || fail "the pool size is not stated: $(head -3 "$tmp/out")"
expect_rc 1 "$PTBENCH" compare --baseline-db "$db" --baseline-tag t "$tmp"/slow{1,2,3}
grep -q 'anon-write-4k-16M ns_per_fault' "$tmp/err" || fail "the regression is not named: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --baseline-tag t --pool-min 20 "$tmp/same1"
grep -q 'the pool has 10 run' "$tmp/err" || fail "no pool-size message: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --baseline-tag nosuch "$tmp/same1"
expect_rc 2 "$PTBENCH" compare --baseline-db "$db" --format csv "$tmp/same1"
expect_rc 2 "$PTBENCH" compare --baseline-tag t "$tmp/same1" "$tmp/same2"

# NEW runs in the history already are not their own baseline.
"$PTBENCH" history add "$tmp"/slow{1,2,3} --db "$db" >/dev/null 2>&1 || fail "history add failed"
expect_rc 1 "$PTBENCH" compare --baseline-db "$db" --baseline-tag t "$tmp"/slow{1,2,3} --format json
python3 - "$tmp/out" <<'PY' || fail "pool JSON is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "pool" and d["pool"]["runs"] == 10, d["pool"]
s = {(r["case"], r["metric"]): r for r in d["series"]}
slow = s[("anon-write-4k-16M", "ns_per_fault")]
assert slow["verdict"] == "worse" and slow["gated"], slow
assert s[("anon-write-4k-16M", "ticks_per_fault")]["verdict"] == "shown"
# a count that is 0 in every run has no log: shown, not "too few pool runs"
assert s[("anon-write-4k-16M", "major_faults_per_fault")]["verdict"] == "shown"
assert d["summary"]["too_few"] == 0, d["summary"]
assert 0 < slow["detectable_pct"] < 10, slow["detectable_pct"]
assert 0 < d["summary"]["median_detectable_pct"] < 10, d["summary"]
assert d["summary"]["exit_status"] == 1
PY
# history aa: the gate measured on identical runs (10 pool, 4 more).
aadb=$tmp/aa.sqlite
for i in $(seq 1 14); do
	make_run "$tmp/aa$i" $((300 + i)) 1
done
"$PTBENCH" history add "$tmp"/aa{1,2,3,4,5,6,7,8,9,10,11,12,13,14} --db "$aadb" >/dev/null 2>&1 ||
	fail "history add failed"
expect_rc 0 "$PTBENCH" history aa --db "$aadb" --tag t
grep -q '^A/A: the gate fired on [01] of 4 runs; 95% upper bound' "$tmp/out" ||
	fail "aa's A/A line: $(grep A/A "$tmp/out")"
grep -Eq 'caught in [0-6] of 6 gated series with 3 NEW run' "$tmp/out" ||
	fail "aa's injection line: $(tail -2 "$tmp/out")"
expect_rc 2 "$PTBENCH" history aa --db "$aadb" --tag t --pool 20
expect_rc 2 "$PTBENCH" history aa --db "$aadb"
expect_rc 2 "$PTBENCH" history aa --db "$aadb" --tag t --inject nan
# --inject-sets: the injection repeated in each disjoint NEW set (4 runs
# after the pool of 10, sets of 2); set 1 is the first injection itself,
# and the summary is what the per-set and per-series lines say.
expect_rc 0 "$PTBENCH" history aa --db "$aadb" --tag t --new 2 --inject-sets all
grep -q 'injected into each of 2 disjoint sets of 2 NEW runs' "$tmp/out" ||
	fail "no sets section: $(tail -12 "$tmp/out")"
python3 - "$tmp/out" <<'PY' || fail "aa --inject-sets summary is wrong: $(tail -14 "$tmp/out")"
import re, statistics, sys
t = open(sys.argv[1]).read()
first = re.search(r"caught in (\d+) of (\d+) gated series with 2 NEW", t)
sets = [int(m) for m in re.findall(r"  set \d+ \(runs \d+-\d+ after the pool\): caught (\d+) of", t)]
per = [int(m) for m in re.findall(r"caught in (\d+) of 2 sets", t)]
summ = re.search(r"over 2 sets of 2 NEW runs: caught in a median ([\d.]+) of (\d+) gated series "
                 r"per set \((\d+) to (\d+)\); (\d+) series caught in at least 2 of the 2 sets", t)
assert first and summ and len(sets) == 2 and len(per) == int(first.group(2)), (first, sets, per)
assert sets[0] == int(first.group(1)), sets
assert float(summ.group(1)) == statistics.median(sets), summ.group(1)
assert (int(summ.group(3)), int(summ.group(4))) == (min(sets), max(sets))
assert sum(per) == sum(sets) and int(summ.group(5)) == sum(p >= 2 for p in per), per
PY
expect_rc 0 "$PTBENCH" history aa --db "$aadb" --tag t --inject-sets 5
grep -q -- '--inject-sets: 1 full set of 3 NEW runs after the pool of 10; no more' "$tmp/out" ||
	fail "one set: $(tail -3 "$tmp/out")"
expect_rc 0 "$PTBENCH" history aa --db "$aadb" --tag t --pool 12 --inject-sets all
grep -q -- '--inject-sets: 0 full sets of 3 NEW runs after the pool of 12; no more' "$tmp/out" ||
	fail "no full set: $(tail -3 "$tmp/out")"
for bad in 0 -1 x ''; do
	expect_rc 2 "$PTBENCH" history aa --db "$aadb" --tag t --inject-sets "$bad"
	grep -q -- "--inject-sets needs a whole number >= 1 or all, not '$bad'" "$tmp/err" ||
		fail "$(cat "$tmp/err")"
done
expect_rc 2 "$PTBENCH" history list --db "$aadb" --inject-sets 2
grep -q -- '--inject-sets is an option of history aa, not of list' "$tmp/err" || fail "$(cat "$tmp/err")"

# The run effect: a host whose speed moves every case of a run together by
# ~20% hides a 10% slowdown of one case from the raw test; taken out, the
# slowdown is caught, and a change of the whole run is caught as the run
# effect itself.
make_drift_run() { # DIR SEED SLOW_FACTOR GLOBAL_FACTOR
	python3 - "$@" <<'PY'
import csv, json, math, os, random, sys
out, seed, slow, glob = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)
os.makedirs(out)
cases = ["anon-write-4k-%dM" % s for s in (1, 2, 4, 8, 16, 32, 64)]
run = math.exp(rng.gauss(0, 0.2)) * glob  # the host's speed during the whole run
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for c in cases:
        case = math.exp(rng.gauss(0, 0.01))
        for rep in range(10):
            v = 2000.0 * run * case * (1 + rng.gauss(0, 0.02))
            if c == "anon-write-4k-16M":
                v *= slow
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
meta = {"schema_version": 1, "run": {"id": "drift-%d" % seed, "suite": "ci", "tag": "d", "reps": 10},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}
ddb=$tmp/drift.sqlite
for i in $(seq 1 10); do
	make_drift_run "$tmp/dpool$i" $((400 + i)) 1 1
done
"$PTBENCH" history add "$tmp"/dpool* --db "$ddb" >/dev/null 2>&1 || fail "history add failed"
for i in 1 2 3; do
	make_drift_run "$tmp/dslow$i" $((500 + i)) 1.10 1
	make_drift_run "$tmp/dall$i" $((600 + i)) 1 2
done
expect_rc 1 "$PTBENCH" compare --baseline-db "$ddb" --baseline-tag d "$tmp"/dslow{1,2,3}
grep -q 'anon-write-4k-16M ns_per_fault' "$tmp/err" || fail "the run effect hid the slowdown: $(cat "$tmp/err")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$ddb" --baseline-tag d --run-effect off "$tmp"/dslow{1,2,3}
expect_rc 1 "$PTBENCH" compare --baseline-db "$ddb" --baseline-tag d "$tmp"/dall{1,2,3}
grep -q 'run/effect' "$tmp/err" || fail "a change of the whole run is not named: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$ddb" --run-effect maybe "$tmp/dslow1"
expect_rc 2 "$PTBENCH" compare --run-effect off "$tmp/dslow1" "$tmp/dslow2"
expect_rc 2 "$PTBENCH" compare --run-effect on "$tmp/dslow1" "$tmp/dslow2"
grep -q -- '--run-effect needs --baseline-db' "$tmp/err" || fail "no message for --run-effect: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history aa --db "$ddb" --tag d --run-effect sometimes

# Run factors (--factors): two independent host factors, one moving the
# fault cases, the other the fork cases, both the munmap cases. One run
# effect cannot take both out of a fault case; two factors scored from the
# other workloads can, and a 10% slowdown of one fault case, or of every
# fault case at once, is caught with them and missed without.
# one run of cases (workload, case) whose ns values level(workload, case) sets,
# 10 repetitions with 1% noise each: the shared part of the generators below
cat >"$tmp/levels.py" <<'PY'
import csv, json, os


def write_run(out, run_id, tag, cases, level, rng, slow=lambda wl, c: 1):
    os.makedirs(out)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
        for wl, c in cases:
            lv = level(wl, c)
            for rep in range(10):
                x = lv * (1 + rng.gauss(0, 0.01)) * slow(wl, c)
                w.writerow([wl, c, "", rep, "ns", "%.9g" % x, "ns", "lower"])
    meta = {"schema_version": 1, "run": {"id": run_id, "suite": "ci", "tag": tag, "reps": 10},
            "cases": [{"workload": wl, "case": c, "params": "", "status": "ok",
                       "primary_metric": "ns"} for wl, c in cases]}
    json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
make_factor_run() { # DIR SEED SLOW_CASE(S: "all" for every fault case) SLOW_FACTOR
	PYTHONPATH=$tmp python3 - "$@" <<'PY'
import math, random, sys
from levels import write_run
out, seed, slow_case, slow = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
rng = random.Random(seed)
u, v = rng.gauss(0, 0.15), rng.gauss(0, 0.15)  # the host's two factors in this run
load = {"fault": (1, 0), "fork": (0, 1), "munmap": (0.7, 0.7)}
cases = [(wl, "%s-%d" % (wl, i)) for wl in load for i in range(4)]
write_run(out, "factor-%d" % seed, "f", cases,
          lambda wl, c: 1000.0 * math.exp(load[wl][0] * u + load[wl][1] * v + rng.gauss(0, 0.01)),
          rng, lambda wl, c: slow if c == slow_case or (slow_case == "all" and wl == "fault") else 1)
PY
}
fdb=$tmp/factor.sqlite
for i in $(seq 1 20); do
	make_factor_run "$tmp/fpool$i" $((700 + i)) none 1
done
"$PTBENCH" history add "$tmp"/fpool* --db "$fdb" >/dev/null 2>&1 || fail "history add failed"
for i in 1 2 3; do
	make_factor_run "$tmp/fone$i" $((800 + i)) fault-2 1.10
	make_factor_run "$tmp/fall$i" $((900 + i)) all 1.10
	make_factor_run "$tmp/fsame$i" $((950 + i)) none 1
done
expect_rc 0 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f "$tmp"/fone{1,2,3}
expect_rc 1 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors 2 "$tmp"/fone{1,2,3}
grep -q 'fault/fault-2 ns' "$tmp/err" || fail "two factors did not name the slow case: $(cat "$tmp/err")"
expect_rc 1 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors auto "$tmp"/fone{1,2,3}
expect_rc 1 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors 2 "$tmp"/fall{1,2,3}
grep -q 'fault/fault-0 ns' "$tmp/err" ||
	fail "a whole workload's slowdown was taken out with the factors: $(cat "$tmp/err")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors 2 "$tmp"/fsame{1,2,3}
# into files, not pipes: grep -q stops reading at its match (SIGPIPE under pipefail)
expect_rc 0 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors auto "$tmp"/fsame1
grep -q '^Run factors: 2, from 12 gated timed series' "$tmp/out" ||
	fail "auto did not find the two factors: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$fdb" --baseline-tag f --factors 2 --format json \
	"$tmp"/fsame1
grep -q '"run_factors": 2' "$tmp/out" || fail "no run_factors in the JSON"
expect_rc 2 "$PTBENCH" compare --baseline-db "$fdb" --factors 9 "$tmp/fone1"
grep -q -- "--factors '9': expected auto or 0 to 8" "$tmp/err" || fail "no message for --factors 9"
expect_rc 2 "$PTBENCH" compare --baseline-db "$fdb" --factors some "$tmp/fone1"
expect_rc 2 "$PTBENCH" compare --factors 2 "$tmp/fone1" "$tmp/fone2"
grep -q -- '--factors needs --baseline-db' "$tmp/err" || fail "no message for --factors: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history aa --db "$fdb" --tag f --factors -1
expect_rc 2 "$PTBENCH" compare --baseline-db "$fdb" --run-effect off --factors 2 "$tmp/fone1"
grep -q -- '--factors takes run factors out in place of the run effect' "$tmp/err" ||
	fail "no message for --factors with --run-effect off: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history aa --db "$fdb" --tag f --run-effect off --factors auto

# The split run effect (--run-effect split): in a quarter of the runs the
# host slows the kernel's families (fault, munmap), each case by its own
# amount, while the user-space ones (tlb, ptops) drift on their own. Two
# medians, one per part, take the state out; a 10% slowdown of one fault
# case in three slow runs is still caught and named.
make_split_run() { # DIR SEED SLOW(0|1) SLOW_FACTOR_OF_fault-2
	PYTHONPATH=$tmp python3 - "$@" <<'PY'
import math, random, sys
from levels import write_run
out, seed, state, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)
common, user = rng.gauss(0, 0.03), rng.gauss(0, 0.03)
load = [0.5, 0.8, 1.0, 1.2, 1.5, 0.7, 1.1, 1.3]
cases = [(wl, "%s-%d" % (wl, i)) for wl in ("fault", "munmap", "tlb", "ptops") for i in range(4)]


def level(wl, c):
    n = cases.index((wl, c))
    own = 0.3 * load[n] * state if n < 8 else user
    return 1000.0 * (n + 1) * math.exp(common + own + rng.gauss(0, 0.01))


write_run(out, "split-%d" % seed, "s", cases, level, rng,
          lambda wl, c: slow if c == "fault-2" else 1)
PY
}
sdb=$tmp/split.sqlite
for i in $(seq 1 20); do
	make_split_run "$tmp/spool$i" $((1000 + i)) $((i % 4 == 0)) 1
done
"$PTBENCH" history add "$tmp"/spool* --db "$sdb" >/dev/null 2>&1 || fail "history add failed"
for i in 1 2 3; do
	make_split_run "$tmp/sslow$i" $((1100 + i)) 1 1.10
	make_split_run "$tmp/ssame$i" $((1200 + i)) 1 1
done
expect_rc 0 "$PTBENCH" compare --baseline-db "$sdb" --baseline-tag s --run-effect split \
	"$tmp"/ssame{1,2,3}
grep -q '^Run effect split in two (medians over 8 gated timed series of the kernel' "$tmp/out" ||
	fail "the text does not say the run effect was split: $(cat "$tmp/out")"
expect_rc 1 "$PTBENCH" compare --baseline-db "$sdb" --baseline-tag s --run-effect split \
	"$tmp"/sslow{1,2,3}
grep -q 'fault/fault-2 ns' "$tmp/err" || fail "the split hid the slow case: $(cat "$tmp/err")"
grep -q 'munmap/\|tlb/\|ptops/\|fault/fault-[013]' "$tmp/err" &&
	fail "the split named a series that did not change: $(cat "$tmp/err")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$sdb" --baseline-tag s --run-effect split \
	--format json "$tmp"/ssame1
grep -q '"run_effect_split": true' "$tmp/out" || fail "no run_effect_split in the JSON"
grep -q '"run_effect_kernel_series": 8' "$tmp/out" || fail "no kernel series count in the JSON"
grep -q '"run_effect_slope_user"' "$tmp/out" || fail "no user slope in the JSON"
expect_rc 0 "$PTBENCH" compare --baseline-db "$sdb" --baseline-tag s --format json "$tmp"/ssame1
grep -q '"run_effect_split": false' "$tmp/out" || fail "the one run effect said it was split"
expect_rc 0 "$PTBENCH" history aa --db "$sdb" --tag s --pool 10 --run-effect split
grep -q 'run effect split: yes' "$tmp/out" || fail "aa did not split: $(cat "$tmp/out")"
# the drift runs are all fault cases: no user part to split on, one effect, and it says so
expect_rc 1 "$PTBENCH" compare --baseline-db "$ddb" --baseline-tag d --run-effect split \
	"$tmp"/dslow{1,2,3}
grep -q 'Not split: the kernel' "$tmp/out" || fail "a split that fell back is not said: $(cat "$tmp/out")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$sdb" --run-effect split --factors 2 "$tmp/ssame1"
grep -q -- '--factors takes run factors out in place of the run effect: not with --run-effect split' \
	"$tmp/err" || fail "no message for --factors with --run-effect split: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$sdb" --run-effect halves "$tmp/ssame1"
grep -q -- "--run-effect must be on, off or split, not 'halves'" "$tmp/err" ||
	fail "no message for --run-effect halves: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --run-effect split "$tmp/ssame1" "$tmp/ssame2"

# Runs made back to back share the host's state: ten pool runs and three
# NEW ones 75 s apart whose drift is an AR(1) process (lag-1 correlation
# 0.8). The correlation is estimated from the pool and the three NEW runs
# count as fewer than three; --serial off takes them as independent, a
# given correlation is used as given, and a bad one is exit 2.
make_serial() { # DIR SEED INDEX
	python3 - "$@" <<'PY'
import csv, json, math, os, random, sys, time
out, seed, idx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
os.makedirs(out)
# the drift of run idx: every run's state follows from the one before (phi 0.8)
state, walk = 0.0, random.Random(7)
for i in range(idx + 1):
    state = 0.8 * state + 0.6 * walk.gauss(0, 0.04)
cases = ["c%d" % i for i in range(6)]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for k, c in enumerate(cases):
        for rep in range(10):
            v = 1000.0 * (k + 1) * math.exp(state * (1 + 0.3 * k) + rng.gauss(0, 0.01))
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
t0 = 1796515668 + 75 * idx
utc = lambda t: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
meta = {"schema_version": 1,
        "run": {"id": "serial-%d" % idx, "suite": "ci", "tag": "r", "reps": 10,
                "started_utc": utc(t0), "finished_utc": utc(t0 + 70)},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}
rdb=$tmp/serial.sqlite
for i in $(seq 0 12); do
	make_serial "$tmp/ser$i" $((500 + i)) "$i"
done
"$PTBENCH" history add "$tmp"/ser{0,1,2,3,4,5,6,7,8,9} --db "$rdb" >/dev/null 2>&1 ||
	fail "history add failed"
expect_rc 0 "$PTBENCH" compare --baseline-db "$rdb" --baseline-tag r --run-effect off \
	--format json "$tmp"/ser{10,11,12}
python3 - "$tmp/out" <<'PY' || fail "the serial correlation is not in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))["summary"]
assert d["serial"] == "auto", d
assert d["serial_series"] == 6 and d["serial_pairs"][0] == 6 * 9, d
assert d["serial_run_pairs"] == 9, d
assert d["serial_rho"][0] > 0.2, d["serial_rho"]
assert 1 <= d["new_runs_effective"] < 3, d["new_runs_effective"]
PY
expect_rc 0 "$PTBENCH" compare --baseline-db "$rdb" --baseline-tag r --run-effect off \
	"$tmp"/ser{10,11,12}
grep -q '^Serial correlation between runs made back to back, from 9 pairs of pool runs over 6 series' \
	"$tmp/out" || fail "the text does not give the serial correlation: $(cat "$tmp/out")"
grep -q '^The 3 NEW runs count as' "$tmp/out" || fail "no effective NEW runs: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$rdb" --baseline-tag r --run-effect off \
	--serial off --format json "$tmp"/ser{10,11,12}
grep -q '"new_runs_effective": 3' "$tmp/out" || fail "--serial off still counts fewer NEW runs"
expect_rc 0 "$PTBENCH" compare --baseline-db "$rdb" --baseline-tag r --run-effect off \
	--serial 0.5 --format json "$tmp"/ser{10,11,12}
grep -q '"serial": "given"' "$tmp/out" || fail "--serial 0.5 is not given"
# 3 runs, lags 1 (twice) and 2: 9 / (3 + 2 (0.5 + 0.5 + 0.25)) = 1.636
grep -q '"new_runs_effective": 1.636' "$tmp/out" || fail "--serial 0.5: 3 runs count as 1.636"
expect_rc 2 "$PTBENCH" compare --baseline-db "$rdb" --serial 1.5 "$tmp/ser10"
grep -q -- "--serial '1.5': expected auto, off or a lag-1 correlation from 0 to 0.95" "$tmp/err" ||
	fail "no message for --serial 1.5: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$rdb" --serial sometimes "$tmp/ser10"
expect_rc 2 "$PTBENCH" compare --serial 0.2 "$tmp/ser10" "$tmp/ser11"
grep -q -- "--serial needs --baseline-db" "$tmp/err" || fail "no message for --serial alone"
expect_rc 2 "$PTBENCH" history aa --db "$rdb" --tag r --serial -0.1

# --spread moderated (the default): twelve series whose between-run spreads
# differ (1% to 6.5%); the prior is fitted over them, each spread is drawn
# toward it and tested with more degrees of freedom; --spread series tests
# each with its own. Fewer than 8 timed series: not moderated, and said so.
# A bad value is exit 2.
make_many() { # DIR SEED
	python3 - "$@" <<'PY'
import csv, json, math, os, random, sys
out, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
os.makedirs(out)
cases = ["m%02d" % i for i in range(12)]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for k, c in enumerate(cases):
        drift = rng.gauss(0, 0.01 + 0.005 * k)
        for rep in range(10):
            v = 1000.0 * math.exp(drift + rng.gauss(0, 0.01))
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
meta = {"schema_version": 1, "run": {"id": "many-%d" % seed, "suite": "ci", "tag": "m", "reps": 10},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
json.dump(meta, open(os.path.join(out, "meta.json"), "w"))
PY
}
mdb=$tmp/many.sqlite
for i in $(seq 0 12); do
	make_many "$tmp/many$i" $((700 + i))
done
"$PTBENCH" history add "$tmp"/many{0,1,2,3,4,5,6,7,8,9} --db "$mdb" >/dev/null 2>&1 ||
	fail "history add failed"
expect_rc 0 "$PTBENCH" compare --baseline-db "$mdb" --run-effect off --spread moderated \
	--format json "$tmp"/many{10,11,12}
python3 - "$tmp/out" <<'PY' || fail "the moderated spread is not in the JSON: $(head -c 1500 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["spread_moderated"] and s["spread_prior_series"] == 12, s
assert s["spread_prior_df"] is None or s["spread_prior_df"] > 0, s
rows = [r for r in d["series"] if r["tested"]]
assert len(rows) == 12, len(rows)
prior = s["spread_prior_pct"]
for r in rows:
    assert r["spread_moderated"] and r["df"] > 9, r
    own, mod = r["series_spread_pct"], r["pool_spread_pct"]
    # drawn toward the prior, never past it
    assert min(own, prior) - 1e-9 <= mod <= max(own, prior) + 1e-9, (r["case"], own, mod, prior)
lo = min(rows, key=lambda r: r["series_spread_pct"])
hi = max(rows, key=lambda r: r["series_spread_pct"])
assert lo["pool_spread_pct"] > lo["series_spread_pct"], lo
assert hi["pool_spread_pct"] < hi["series_spread_pct"], hi
PY
expect_rc 0 "$PTBENCH" compare --baseline-db "$mdb" --run-effect off --spread moderated \
	"$tmp"/many{10,11,12}
grep -q '^Spread moderated: each gated timed series' "$tmp/out" ||
	fail "the text does not say the spread is moderated: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" compare --baseline-db "$mdb" --run-effect off --format json "$tmp"/many{10,11,12}
grep -q '"spread_moderated": true' "$tmp/out" || fail "the default does not moderate the spread"
expect_rc 0 "$PTBENCH" compare --baseline-db "$mdb" --run-effect off --spread series --format json \
	"$tmp"/many{10,11,12}
grep -q '"spread_moderated": false' "$tmp/out" || fail "--spread series moderates the spread"
python3 - "$tmp/out" <<'PY' || fail "--spread series: a series is not tested with its own spread"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["series"] if r["tested"]]
assert len(rows) == 12 and all(r["df"] == 9 and not r["spread_moderated"] for r in rows), rows
PY
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag t --spread moderated "$tmp"/same{1,2,3}
grep -q '^Spread not moderated: fewer than 8 gated timed series' "$tmp/out" ||
	fail "no word that 6 series are too few to moderate: $(cat "$tmp/out")"
expect_rc 2 "$PTBENCH" compare --baseline-db "$mdb" --spread pooled "$tmp/many10"
grep -q -- "--spread must be series or moderated, not 'pooled'" "$tmp/err" ||
	fail "no message for --spread pooled: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" compare --spread moderated "$tmp/many10" "$tmp/many11"
grep -q -- "--spread needs --baseline-db" "$tmp/err" || fail "no message for --spread alone"
expect_rc 2 "$PTBENCH" history aa --db "$mdb" --tag m --spread none

echo "ok: pool compare passes same-distribution runs, catches 10% in 3 runs, refuses a small pool"
