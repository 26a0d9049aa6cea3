#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Per run, the median over repetitions of a few ci primary metrics, from
# each run's results.csv (the per-run table of NOTES.md):
#   python3 run-medians.py /work/exp/gate3/runs > run-medians.txt
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ci_runs  # noqa: E402

CASES = [("fork", "fork-thp-0", "ns_per_fork", 1e-6, "ms"),
         ("mprotect", "toggle-4k-4M", "ns_per_call", 1e-3, "us"),
         ("fault", "anon-write-4k-64M", "ns_per_fault", 1.0, "ns"),
         ("control", "cpu-loop", "ns_per_iter", 1.0, "ns")]

if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
    print("usage: run-medians.py RUNS_DIR (a directory holding ci-NN/results.csv)",
          file=sys.stderr)
    sys.exit(2)
print("run " + " ".join("%s(%s)" % (c[1], c[4]) for c in CASES))
for name, vals in ci_runs.read_runs(sys.argv[1], lambda row: True):
    cells = []
    for w, c, m, scale, _ in CASES:
        v = vals.get((w, c, m))
        cells.append("%.2f" % (statistics.median(v) * scale) if v else "missing")
    print(name[3:] + " " + " ".join(cells))
