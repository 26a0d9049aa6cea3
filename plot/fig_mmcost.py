#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure 3: the cost of fork, mprotect and munmap against the resident size
of the region they work on (all measured), one line per case family."""
import sys
from collections import OrderedDict

import figcommon
import ptdata

PANELS = (("fork", "ns_per_fork", "fork: ns per fork"),
          ("mprotect", "ns_per_page", "mprotect: ns per page"),
          ("munmap", "ns_per_page", "munmap / MADV_DONTNEED: ns per page"))


# Parameters that follow from the size (munmap releases several small regions
# per repetition) and so must not split one family into several lines.
PER_SIZE_KEYS = ("regions",)


def family_label(series):
    """The params without the size: what distinguishes one line from another."""
    params = series.param_map
    for key in ptdata.SIZE_KEYS + PER_SIZE_KEYS:
        params.pop(key, None)
    return ";".join("%s=%s" % kv for kv in params.items()) or series.case


def curves(run, workload, metric):
    """label -> [(size bytes, Summary)] sorted by size."""
    out = OrderedDict()
    for s in run.select(workload, metric):
        if s.size is None:
            continue
        out.setdefault(family_label(s), []).append((s.size, s.summary()))
    for points in out.values():
        points.sort(key=lambda p: p[0])
    return out


def _plot_panel(ax, lines, title):
    from matplotlib.ticker import NullFormatter

    has_zero = any(p[0] == 0 for points in lines.values() for p in points)
    for label, points in lines.items():
        xs = [p[0] / (1 << 20) for p in points]
        med = [p[1].median for p in points]
        err = [[p[1].median - p[1].ci_lo for p in points],
               [p[1].ci_hi - p[1].median for p in points]]
        ax.errorbar(xs, med, yerr=err, marker="o", ms=4, capsize=2, label=label)
    if not has_zero:  # a log axis cannot show a resident size of 0
        ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(figcommon.mib_formatter)
    ax.tick_params(axis="x", labelsize=8, rotation=30)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(figcommon.plain_formatter)
    ax.yaxis.set_minor_formatter(NullFormatter())  # decades only: readable
    ax.tick_params(axis="y", which="both", labelsize=7)
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("resident size")
    ax.set_ylabel("ns (median; bars: 95% CI, min-max when n < 6)", fontsize=8)
    ax.legend(fontsize=7)


def plot(run, outdir):
    title = "fork, mprotect and munmap cost vs resident size"
    panels = [(t, curves(run, w, m)) for w, m, t in PANELS]
    panels = [(t, lines) for t, lines in panels if lines]
    if not panels:
        return figcommon.FigureResult("mmcost", title, note="no fork, mprotect or munmap rows "
                                      "with a size parameter: figure omitted")
    fig = figcommon.plt.figure(figsize=(5 * len(panels), 4.5))
    for i, (panel_title, lines) in enumerate(panels):
        _plot_panel(fig.add_subplot(1, len(panels), i + 1), lines, panel_title)
    fig.suptitle(title + " (measured)", fontsize=10)
    fig.tight_layout()
    missing = [w for w, _m, t in PANELS if t not in dict(panels)]
    note = ("no data for: %s" % ", ".join(missing)) if missing else None
    return figcommon.FigureResult("mmcost", title, figcommon.save(fig, outdir, "mmcost"), note)


if __name__ == "__main__":
    sys.exit(figcommon.main(__doc__, plot))
