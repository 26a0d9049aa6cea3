#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# How much of a series' spread between runs is the run median's own
# sampling noise? Per ci primary metric over identical runs: the spread of
# its repetitions inside a run (1.4826 x the MAD of ln value, median over
# the runs), the standard error of a median of n such values (1.2533 x
# that / sqrt(n), for normal samples), and the standard deviation of the
# ln run medians between runs (raw: no run or round effect taken out).
#   python3 within-run.py RUNS_DIR GATED_LIST
# RUNS_DIR holds ci-NN/results.csv; GATED_LIST is `ptbench list --suite ci`.
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ci_runs  # noqa: E402

if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]) or not os.path.isfile(sys.argv[2]):
    print("usage: within-run.py RUNS_DIR GATED_LIST", file=sys.stderr)
    sys.exit(2)
gated = ci_runs.gated_series(sys.argv[2])
positive = lambda row: ((row["workload"], row["case"], row["metric"]) in gated
                        and float(row["value"]) > 0)
runs = [{k: [math.log(x) for x in v] for k, v in vals.items()}
        for _, vals in ci_runs.read_runs(sys.argv[1], positive)]
if len(runs) < 2:
    print(f"within-run.py: fewer than 2 runs in {sys.argv[1]}", file=sys.stderr)
    sys.exit(2)
print(f"# {len(runs)} runs; spreads in % of ln value")
print(f"{'workload':10s} {'case':28s} {'within':>7s} {'se_med':>7s} {'between':>8s}")
for key in sorted(gated):
    within, meds, n = [], [], []
    for r in runs:
        v = r.get(key)
        if not v:
            continue
        m = statistics.median(v)
        meds.append(m)
        within.append(1.4826 * statistics.median(abs(x - m) for x in v))
        n.append(len(v))
    if len(meds) < 2:
        continue
    w = statistics.median(within)
    se = 1.2533 * w / math.sqrt(statistics.median(n))
    print(f"{key[0]:10s} {key[1]:28s} {100 * w:6.1f}% {100 * se:6.1f}% "
          f"{100 * statistics.stdev(meds):7.1f}%")
