#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""half_cliff.py CALIB...: the half-density check's largest miss, run by run.

Each CALIB is a run's walk_calibration.txt (ptbench model walk calibrate).
For the 4K chase at 64M and 128M, the half chase at 128M and 256M (which
load the same number of pages as the 4K chase at half their size) and the
4K chase at 256M: measured / predicted ns per access, then how often the
half chase at 256M was predicted more than 15% low, and how its measured
cost compares with the 4K chase's over the same number of pages (128M), which is fitted.
"""
import re
import statistics as st
import sys

CASES = ["chase-4k-64M", "chase-half-128M", "chase-4k-128M", "chase-half-256M", "chase-4k-256M"]
ROW = re.compile(r"# (chase-\S+)\s+([\d.]+) \[[\d.]+,[\d.]+\]\s+([\d.]+)\s+[+-][\d.]+%")


def read(path):
    d = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m and m.group(1) in CASES:
                d[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return d


if len(sys.argv) < 2:
    sys.exit("usage: half_cliff.py CALIB...")
print("%-26s" % "run" + "".join("%18s" % c.replace("chase-", "") for c in CASES))
low = low128 = both = ratio = n = 0
ratios = []
for path in sys.argv[1:]:
    d = read(path)
    if any(c not in d for c in CASES):
        continue
    n += 1
    print("%-26s" % path.split("/")[-2]
          + "".join("%9.0f / %6.0f" % d[c] for c in CASES))
    m, p = d["chase-half-256M"]
    m4, p4 = d["chase-4k-128M"]
    low += (m - p) / m > 0.15
    low128 += (m4 - p4) / m4 > 0.15
    both += (m - p) / m > 0.15 and (m4 - p4) / m4 > 0.15
    ratios.append(m / d["chase-4k-128M"][0])
    ratio += p / d["chase-4k-128M"][1]
if not n:
    print("half_cliff.py: no run has all of %s" % ", ".join(CASES), file=sys.stderr)
    sys.exit(2)
print("(measured / predicted ns per access)")
print("runs: %d; predicted more than 15%% low: half-256M on %d, 4k-128M (fitted) on %d, both on %d"
      % (n, low, low128, both))
print("half-256M over 4k-128M (the same number of pages): measured median %.2f (%.2f-%.2f), "
      "predicted mean %.2f" % (st.median(ratios), min(ratios), max(ratios), ratio / n))
