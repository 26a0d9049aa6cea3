#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""modes.py DIR...: the THP chase at 32M against the 4K chase of the same round.

Each DIR holds ci run directories (ci-*/results.csv, meta.json), oldest
first. The runs are interleaved, so repetition r of every case ran in round
r: for each round, the THP chase's ns_per_access over the 4K chase's. Prints
the histogram of that ratio, the rounds below CUT (THP cheap: "fast") by
block, how the modes follow one another inside a run, and the between-run
spread of each chase's run median (all rounds, and the THP chase's slow
rounds alone), and how the 32M cases' run medians follow the memory-chase
control's.
"""
import csv
import glob
import json
import math
import os
import statistics as st
import sys

CUT = 0.70
THP, K4 = "chase-thp-32M", "chase-4k-32M"
CONTROL, CONTROLLED = "mem-chase", [K4, THP, "dense-32M"]


def rounds(path):
    """{rep: (thp, 4k)} of one run's results.csv."""
    v = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["workload"] == "tlb" and r["metric"] == "ns_per_access" and r["case"] in (THP, K4):
                v.setdefault(int(r["rep"]), {})[r["case"]] = float(r["value"])
    return {k: (x[THP], x[K4]) for k, x in v.items() if THP in x and K4 in x}


def medians(path, cases):
    """{case: median ns_per_access} of one run's results.csv, for these cases."""
    v = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["metric"] == "ns_per_access" and r["case"] in cases:
                v.setdefault(r["case"], []).append(float(r["value"]))
    return {c: st.median(x) for c, x in v.items()}


def corr(xs, ys):
    """Pearson's correlation."""
    mx, my = st.mean(xs), st.mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def started(run):
    """HH:MM the run started (UTC), from its meta.json."""
    with open(os.path.join(run, "meta.json")) as f:
        return json.load(f)["run"]["started_utc"][11:16]


def sd_log(xs):
    return 100 * st.stdev([math.log(x) for x in xs]) if len(xs) > 1 else float("nan")


def main(dirs):
    if not dirs:
        sys.stderr.write(__doc__)
        return 2
    blocks, meds = [], []
    for d in dirs:
        runs = sorted(glob.glob(os.path.join(d, "ci-*", "results.csv")))
        if not runs:
            print("modes.py: %s: no ci-*/results.csv" % d, file=sys.stderr)
            return 2
        span = [started(os.path.dirname(runs[i])) for i in (0, -1)]
        blocks.append((os.path.basename(os.path.normpath(d)), [rounds(p) for p in runs], span))
        meds += [medians(p, CONTROLLED + [CONTROL]) for p in runs]
    ratios = [t / k for _, rs, _ in blocks for r in rs for t, k in r.values()]
    print("THP chase / 4K chase of the same round, %s and %s, ns_per_access" % (THP, K4))
    print("rounds: %d in %d runs" % (len(ratios), sum(len(rs) for _, rs, _ in blocks)))
    print("\nhistogram of the ratio")
    edges = [0.3 + 0.05 * i for i in range(17)]
    for lo, hi in zip(edges, edges[1:]):
        n = sum(lo <= x < hi for x in ratios)
        print("  %.2f-%.2f %5d %s" % (lo, hi, n, "#" * ((n + 9) // 10)))
    print("  other     %5d" % sum(not (edges[0] <= x < edges[-1]) for x in ratios))
    print("\nfast rounds (ratio < %.2f) by block" % CUT)
    print("  %-10s %-11s %5s %12s %14s %14s" % ("block", "UTC", "runs", "fast rounds", "runs all fast",
                                               "runs any fast"))
    for name, rs, span in blocks:
        fast = [[t / k < CUT for t, k in (r[i] for i in sorted(r))] for r in rs]
        print("  %-10s %-11s %5d %6d of %3d %8d %14d" % (
            name, "-".join(span), len(rs), sum(map(sum, fast)), sum(map(len, fast)),
            sum(all(f) for f in fast), sum(any(f) for f in fast)))
    # inside a run: does the mode change at random, round to round, or in stretches?
    switches = same = 0
    for _, rs, _ in blocks:
        for r in rs:
            f = [r[i][0] / r[i][1] < CUT for i in sorted(r)]
            switches += sum(a != b for a, b in zip(f, f[1:]))
            same += sum(a == b for a, b in zip(f, f[1:]))
    p = sum(x < CUT for x in ratios) / len(ratios)
    print("\nconsecutive rounds of one run: %d in the same mode, %d switched" % (same, switches))
    print("  (were the modes independent round to round: %.0f%% switched; seen %.0f%%)" % (
        100 * 2 * p * (1 - p), 100 * switches / max(1, switches + same)))
    print("\nbetween-run spread of run medians (sd of ln, %), all runs")
    allr = [r for _, rs, _ in blocks for r in rs]
    thp = [st.median(t for t, _ in r.values()) for r in allr]
    k4 = [st.median(k for _, k in r.values()) for r in allr]
    slow = [st.median(t for t, k in r.values() if t / k >= CUT) for r in allr
            if any(t / k >= CUT for t, k in r.values())]
    ratio = [st.median(t / k for t, k in r.values()) for r in allr]
    print("  %-44s %5.1f%%" % (K4, sd_log(k4)))
    print("  %-44s %5.1f%%" % (THP, sd_log(thp)))
    print("  %-44s %5.1f%% (%d runs with one)" % (THP + ", slow rounds only", sd_log(slow), len(slow)))
    print("  %-44s %5.1f%%" % ("THP / 4K of the same round", sd_log(ratio)))
    print("\ncorrelation of ln run medians with the memory-chase control (%s), all runs" % CONTROL)
    for c in CONTROLLED:
        both = [m for m in meds if c in m and CONTROL in m]
        print("  %-44s %5.2f (%d runs)" % (c, corr([math.log(m[c]) for m in both],
                                                    [math.log(m[CONTROL]) for m in both]), len(both)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
