#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure 4: page-fault latency distributions, one row per case (fault
ns_per_fault, thp ns_per_huge_fault): every per-repetition sample as a dot,
and the median with its 95% interval and the range as `ptbench summary`
gives them (matplotlib's own quartiles are not used: the statistics are the
C code's)."""
import random
import sys

import figcommon

SOURCES = (("fault", "ns_per_fault"), ("thp", "ns_per_huge_fault"))


def collect(run):
    """[(label, values, summary)] for every series of SOURCES."""
    out = []
    for workload, metric in SOURCES:
        for s in run.select(workload, metric):
            out.append(("%s/%s (%s)" % (workload, s.case, metric), s.values, s.summary()))
    return out


def box_stats(label, m):
    """A box for Axes.bxp from a ptbench summary: the interval of the median
    as the box, the median as its line, min and max as the whiskers."""
    return {"label": label, "med": m.median, "q1": m.ci_lo, "q3": m.ci_hi,
            "whislo": m.min, "whishi": m.max, "fliers": []}


def plot(run, outdir):
    title = "Page-fault latency distributions (measured, per-repetition samples)"
    boxes = collect(run)
    if not boxes:
        return figcommon.FigureResult("faults", title, note="no fault ns_per_fault or thp "
                                      "ns_per_huge_fault rows: figure omitted")
    fig, ax = figcommon.new_figure(9, 1.2 + 0.45 * len(boxes))
    ax.bxp([box_stats(b[0], b[2]) for b in boxes], vert=False, widths=0.6,
           showfliers=False)
    jitter = random.Random(0)  # fixed seed: the same figure every time
    for i, (_label, values, _m) in enumerate(boxes):
        ys = [i + 1 + jitter.uniform(-0.15, 0.15) for _ in values]
        ax.plot(values, ys, "o", ms=3, alpha=0.6, color=figcommon.COLOURS["measured"])
    ax.set_yticks(range(1, len(boxes) + 1))
    ax.set_yticklabels([b[0] for b in boxes], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("ns per fault taken (line: median; box: its 95% interval; whiskers: min "
                  "and max; dots: samples)", fontsize=8)
    ax.set_title(title, fontsize=10)
    return figcommon.FigureResult("faults", title, figcommon.save(fig, outdir, "faults"))


if __name__ == "__main__":
    sys.exit(figcommon.main(__doc__, plot))
