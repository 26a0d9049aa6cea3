#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Per run, the median over repetitions of a few ci primary metrics, from
# each run's results.csv (the per-run table of NOTES.md):
#   python3 run-medians.py /work/exp/gate3/runs > run-medians.txt
import csv
import glob
import os
import statistics
import sys

CASES = [("fork", "fork-thp-0", "ns_per_fork", 1e-6, "ms"),
         ("mprotect", "toggle-4k-4M", "ns_per_call", 1e-3, "us"),
         ("fault", "anon-write-4k-64M", "ns_per_fault", 1.0, "ns"),
         ("control", "cpu-loop", "ns_per_iter", 1.0, "ns")]

if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
    print("usage: run-medians.py RUNS_DIR (a directory holding ci-NN/results.csv)",
          file=sys.stderr)
    sys.exit(2)
print("run " + " ".join("%s(%s)" % (c[1], c[4]) for c in CASES))
for path in sorted(glob.glob(os.path.join(sys.argv[1], "ci-*", "results.csv"))):
    vals = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["workload"], row["case"], row["metric"])
            vals.setdefault(key, []).append(float(row["value"]))
    cells = []
    for w, c, m, scale, _ in CASES:
        v = vals.get((w, c, m))
        cells.append("%.2f" % (statistics.median(v) * scale) if v else "missing")
    print(os.path.basename(os.path.dirname(path))[3:] + " " + " ".join(cells))
