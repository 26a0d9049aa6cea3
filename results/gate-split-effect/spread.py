#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Between-run spread of each ci primary metric before and after the noise
work, from two `ptbench history aa` outputs of the same runs: BEFORE
(--run-effect off --round-effect off --trim 0.5: each run's plain median)
and AFTER (the defaults). Their '+10% injected into 3 NEW' sections give
each gated series' spread, detectable change and whether it was caught.
Usage: spread.py BEFORE AFTER"""
import statistics
import sys


def injected(path):
    rows, on = {}, False
    with open(path) as f:
        for line in f:
            if line.startswith("+10% injected into 3 NEW"):
                on = True
                continue
            if on and not line.startswith("  "):
                break
            # the moderated spread's prior, '  (spread moderated over ...)', is not a series
            if on and not line.startswith("  ("):
                w = line.split()
                rows[(w[0], w[1], w[2])] = (float(w[4].rstrip("%")), float(w[6].rstrip("%")),
                                            w[7])
    return rows


before, after = injected(sys.argv[1]), injected(sys.argv[2])
print("%-10s %-28s %-14s %8s %8s %11s %s" % ("workload", "case", "metric", "before", "after",
                                             "detectable", "10% with 3 NEW"))
for k in sorted(after):
    b = before.get(k)
    print("%-10s %-28s %-14s %7.1f%% %7.1f%% %10.1f%% %s" % (
        k[0], k[1], k[2], b[0] if b else float("nan"), after[k][0], after[k][1], after[k][2]))
common = [k for k in after if k in before]
print("median over %d series: before %.1f%%, after %.1f%%; lower after for %d" % (
    len(common), statistics.median(before[k][0] for k in common),
    statistics.median(after[k][0] for k in common),
    sum(after[k][0] < before[k][0] for k in common)))
