#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure 1: page-table memory per workload case, measured by the kernel
(VmPTE growth) vs the model for this kernel's format (D64) vs the model's
prediction for D128."""
import sys
from collections import OrderedDict

import figcommon
import ptdata

BARS = (("pgtable_bytes_kernel", "measured (kernel VmPTE)", "kernel"),
        ("pgtable_bytes_model_d64", "modelled D64", "model-d64"),
        ("pgtable_bytes_model_d128", "predicted D128", "model-d128"))
MAX_CASES = 40


def _size_group(series):
    first = next(s for s in series if s is not None)
    params = dict(first.param_map)
    for key in ptdata.SIZE_KEYS:
        params.pop(key, None)
    return (first.workload, tuple(sorted(params.items())))


def _size(series):
    return next(s.size for s in series if s is not None) or 0


def _thin(cases):
    """At most MAX_CASES: the largest size of each (workload, other params)."""
    if len(cases) <= MAX_CASES:
        return cases, None
    largest = OrderedDict()
    for key, case in cases.items():
        group = _size_group(case)
        best = largest.get(group)
        if best is None or _size(case) > _size(cases[best]):
            largest[group] = key
    kept = OrderedDict((k, cases[k]) for k in cases if k in largest.values())
    return kept, ("%d cases: only the largest size of each case family is shown"
                  % len(cases))


def _bar_series(run, metric):
    if metric == "pgtable_bytes_kernel":
        return run.pgtable_kernel_series()
    return run.select(metric=metric)


def collect(run):
    """(workload, case, params) -> [series or None per BARS], in run order."""
    cases = OrderedDict()
    for i, (metric, _label, _colour) in enumerate(BARS):
        for s in _bar_series(run, metric):
            key = (s.workload, s.case, s.params)
            cases.setdefault(key, [None] * len(BARS))[i] = s
    return OrderedDict(sorted(cases.items(), key=_order))


def _order(item):
    (workload, case, _params), series = item
    return (workload, _size(series), case)


def plot(run, outdir):
    title = "Page-table memory per case: measured vs modelled D64 vs predicted D128"
    cases = collect(run)
    if not cases:
        return figcommon.FigureResult("pgtable", title, note="no pgtable_bytes_* rows in "
                                      "results.csv: figure omitted")
    cases, note = _thin(cases)
    fig, ax = figcommon.new_figure(9, 1.2 + 0.36 * len(cases))
    height = 0.8 / len(BARS)
    labels = []
    for row, ((workload, case, _params), series) in enumerate(cases.items()):
        labels.append("%s/%s" % (workload, case))
        for i, (_metric, label, colour) in enumerate(BARS):
            if series[i] is None:
                continue
            y = row + (i - 1) * height
            ax.barh(y, series[i].summary().median, height=height,
                    color=figcommon.COLOURS[colour], label=label if row == 0 else None)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(figcommon.bytes_formatter)
    ax.set_xlabel("page-table bytes (median over repetitions)")
    ax.set_title(title, fontsize=10)
    handles, hlabels = ax.get_legend_handles_labels()
    ax.legend(handles, hlabels, fontsize=8, loc="lower right")
    return figcommon.FigureResult("pgtable", title, figcommon.save(fig, outdir, "pgtable"),
                                  note)


if __name__ == "__main__":
    sys.exit(figcommon.main(__doc__, plot))
