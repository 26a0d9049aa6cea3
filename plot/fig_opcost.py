#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure: what D128 would cost each page-table operation the run measured,
as modelled by `ptbench model ops` (ops_model.csv): the D128/D64 ratio for
the same work, with its range, one bar per case. Nothing here is measured."""
import sys

import figcommon
import opcost


def plot(run, outdir):
    title = "Page-table operations: D128 / D64 for the same work (modelled)"
    model, _valid = opcost.load(run)
    rows = [r for r in (model or ()) if r.get("ratio")]
    if not rows:
        return figcommon.FigureResult("opcost", title, note="no ops_model.csv in the run "
                                      "(`ptbench model ops`): figure omitted")
    rows.sort(key=lambda r: (r["op"], r["thp"], int(r["region_bytes"])))
    ratio = [float(r["ratio"]) for r in rows]
    lo = [max(0.0, v - float(r["ratio_lo"])) for v, r in zip(ratio, rows)]
    hi = [max(0.0, float(r["ratio_hi"]) - v) for v, r in zip(ratio, rows)]
    fig, ax = figcommon.new_figure(9, 1.2 + 0.32 * len(rows))
    ys = range(len(rows))
    colours = [figcommon.COLOURS["predicted-d128"] if r["basis"] == "profile" else "#999999"
               for r in rows]
    ax.barh(ys, [v - 1 for v in ratio], left=1, color=colours, height=0.6)
    ax.errorbar(ratio, ys, xerr=[lo, hi], fmt="none", ecolor="black", capsize=2, lw=0.8)
    ax.axvline(1, color="black", lw=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels(["%s/%s" % (r["workload"], r["case"]) for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("D128 / D64 (1 = no change; bar: modelled ratio, whiskers: its range; "
                  "grey: no profile, an upper bound)", fontsize=8)
    ax.set_title(title, fontsize=10)
    return figcommon.FigureResult("opcost", title, figcommon.save(fig, outdir, "opcost"))


if __name__ == "__main__":
    sys.exit(figcommon.main(__doc__, plot))
