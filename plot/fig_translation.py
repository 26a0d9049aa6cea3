#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure 2: translation overhead, ns per access against the working set:
the tlb workload's measurement (4K, THP, hugetlb, dense control), the walk
model fitted to it for D64 and its prediction for D128 (walk_model.csv)."""
import sys
from collections import OrderedDict

import figcommon

MODEL_STYLES = (("fitted-d64", "--", "fitted D64 (model)"),
                ("predicted-d128", ":", "predicted D128 (model)"))


def measured_curves(run):
    """backing -> [(ws, Summary)] sorted by ws, from tlb ns_per_access."""
    curves = OrderedDict()
    for s in run.select("tlb", "ns_per_access"):
        backing = s.param_map.get("backing")
        if backing is None or s.size is None:
            continue
        curves.setdefault(backing, []).append((s.size, s.summary()))
    for points in curves.values():
        points.sort(key=lambda p: p[0])
    return curves


def model_curves(run):
    """(source, backing) -> [(ws, ns)] from walk_model.csv."""
    curves = OrderedDict()
    for row in run.walk or []:
        if row["source"] in ("fitted-d64", "predicted-d128"):
            curves.setdefault((row["source"], row["backing"]), []).append(
                (row["ws"], row["ns_per_access"]))
    for points in curves.values():
        points.sort()
    return curves


def _plot_measured(ax, curves):
    for backing, points in curves.items():
        xs = [p[0] for p in points]
        med = [p[1].median for p in points]
        err = [[p[1].median - p[1].ci_lo for p in points],
               [p[1].ci_hi - p[1].median for p in points]]
        ax.errorbar(xs, med, yerr=err, marker="o", ms=4, capsize=2, lw=1.5,
                    color=figcommon.COLOURS.get(backing), label="measured %s" % backing)


def _plot_model(ax, curves):
    for source, style, label in MODEL_STYLES:
        for (src, backing), points in curves.items():
            if src != source:
                continue
            ax.plot([p[0] for p in points], [p[1] for p in points], linestyle=style,
                    lw=1.5, color=figcommon.COLOURS.get(backing, "black"),
                    label="%s %s" % (label, backing))


def plot(run, outdir):
    title = "Translation overhead: ns per access vs working set"
    measured = measured_curves(run)
    model = model_curves(run)
    if not measured and not model:
        return figcommon.FigureResult("translation", title, note="no tlb ns_per_access rows "
                                      "and no walk_model.csv: figure omitted")
    note = None if model else "no walk_model.csv in the run: model curves omitted"
    fig, ax = figcommon.new_figure(9, 5.5)
    _plot_measured(ax, measured)
    _plot_model(ax, model)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(figcommon.bytes_formatter)
    ax.tick_params(axis="x", labelsize=8, rotation=30)
    ax.set_xlabel("working set")
    ax.set_ylabel("ns per access (median; bars: 95% CI, min-max when n < 6)")
    ax.set_title(title + "\nsolid: measured; dashed/dotted: modelled", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return figcommon.FigureResult("translation", title,
                                  figcommon.save(fig, outdir, "translation"), note)


if __name__ == "__main__":
    sys.exit(figcommon.main(__doc__, plot))
