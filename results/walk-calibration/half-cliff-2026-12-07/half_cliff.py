#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""half_cliff.py CALIB...: the half-density check's largest miss, run by run.

Each CALIB is a run's walk_calibration.txt (ptbench model walk calibrate).
For the 4K chase at 64M and 128M, the half chase at 128M and 256M (which
load the same number of pages as the 4K chase at half their size) and the
4K chase at 256M: measured / predicted ns per access, then how often the
half chase at 256M was predicted more than 15% low, and how its measured
cost compares with the 4K chase's over the same number of pages (128M),
which is fitted. A file without all five cases is left out and counted.
"""
import os
import statistics as st
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from calib_table import cases  # noqa: E402

CASES = ["chase-4k-64M", "chase-half-128M", "chase-4k-128M", "chase-half-256M", "chase-4k-256M"]


def low(d, case):
    """Predicted more than 15% below the measurement."""
    m, p = d[case]
    return (m - p) / m > 0.15


def main(paths):
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    runs, skipped = [], 0
    for path in paths:
        try:
            d = cases(path)
        except (OSError, UnicodeDecodeError) as e:
            print("half_cliff.py: %s: %s" % (path, e), file=sys.stderr)
            return 2
        if all(c in d and d[c][1] for c in CASES):
            runs.append((path, d))
        else:
            skipped += 1
    if not runs:
        print("half_cliff.py: no file has all of %s" % ", ".join(CASES), file=sys.stderr)
        return 2
    print("%-26s" % "run" + "".join("%18s" % c.replace("chase-", "") for c in CASES))
    for path, d in runs:
        print("%-26s" % os.path.basename(os.path.dirname(os.path.abspath(path)))
              + "".join("%9.0f / %6.0f" % d[c] for c in CASES))
    print("(measured / predicted ns per access)")
    if skipped:
        print("%d file(s) without all five cases left out" % skipped)
    half = sum(low(d, "chase-half-256M") for _, d in runs)
    four = sum(low(d, "chase-4k-128M") for _, d in runs)
    both = sum(low(d, "chase-half-256M") and low(d, "chase-4k-128M") for _, d in runs)
    print("runs: %d; predicted more than 15%% low: half-256M on %d, 4k-128M (fitted) on %d, "
          "both on %d" % (len(runs), half, four, both))
    measured = [d["chase-half-256M"][0] / d["chase-4k-128M"][0] for _, d in runs]
    predicted = [d["chase-half-256M"][1] / d["chase-4k-128M"][1] for _, d in runs]
    print("half-256M over 4k-128M (the same number of pages): measured median %.2f (%.2f-%.2f), "
          "predicted mean %.2f" % (st.median(measured), min(measured), max(measured),
                                   st.mean(predicted)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
