#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""THP and hugetlb chases against the 4K chase of the same working set,
from the per-case table of `ptbench model walk calibrate` (walk_calibration.txt:
'# chase-<backing>-<ws>  <measured median> [...]'). Prints each run's
ratios, then over all runs given: the median ratio and how many pairs
lie below 0.95 and above 1.05 from 16M to 256M, and within 5% at 512M
and 1G.
    python3 backing-ratios.py DIR/walk_calibration.txt...
"""
import statistics
import sys

from calib_table import cases

MID = ["16M", "32M", "64M", "128M", "256M"]
BIG = ["512M", "1G"]


def medians(path):
    out = {}
    for case, (measured, _) in cases(path).items():
        parts = case.split("-", 2)
        if parts[0] == "chase" and len(parts) == 3 and parts[1] in ("4k", "thp", "hugetlb"):
            out[(parts[1], parts[2])] = measured
    return out


def main(paths):
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    mid = {"thp": [], "hugetlb": []}
    big = {"thp": [], "hugetlb": []}
    print("run: thp/4k hugetlb/4k at " + " ".join(MID + BIG))
    for path in paths:
        m = medians(path)
        cols = []
        for ws in MID + BIG:
            if ("4k", ws) not in m or ("thp", ws) not in m or ("hugetlb", ws) not in m:
                sys.stderr.write("%s: no 4k, thp and hugetlb chase at %s\n" % (path, ws))
                return 2
            pair = [m[(b, ws)] / m[("4k", ws)] for b in ("thp", "hugetlb")]
            for b, r in zip(("thp", "hugetlb"), pair):
                (mid if ws in MID else big)[b].append(r)
            cols.append("%.2f/%.2f" % tuple(pair))
        print("%s: %s" % (path, " ".join(cols)))
    for b in ("thp", "hugetlb"):
        lo, hi = mid[b], big[b]
        print("%s 16M-256M: median %.2f, below 0.95 in %d of %d, above 1.05 in %d | "
              "512M-1G: median %.2f, within 5%% in %d of %d"
              % (b, statistics.median(lo), sum(r < 0.95 for r in lo), len(lo),
                 sum(r > 1.05 for r in lo), statistics.median(hi),
                 sum(abs(r - 1) <= 0.05 for r in hi), len(hi)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
