#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figure 5: percent change of each tested series from BASE to NEW with its
95% interval, coloured by the verdict: every number from `ptbench compare
--format json` (cmpjson.py)."""
import argparse
import os
import sys

import cmpjson
import figcommon
import ptdata

COLOUR_OF = {"regression": figcommon.COLOURS["regression"],
             "improvement": figcommon.COLOURS["improvement"]}
MAX_ROWS = 40
ORDER = {"regression": 0, "improvement": 1, "changed (descriptive)": 2}


def _tested_rows(result):
    return [r for r in result.rows
            if r.tested or r.verdict in ("too few samples", "not gated")]


def _rows(result):
    """Tested rows, regressions first, then by the size of the change."""
    rows = sorted(_tested_rows(result),
                  key=lambda r: (ORDER.get(r.verdict, 3), -abs(r.change_pct or 0)))
    return rows[:MAX_ROWS]


def _label(row):
    return cmpjson.label(row)


def plot(result, outdir, stem="compare"):
    title = "Change from BASE to NEW (median, 95% interval)"
    rows = _rows(result)
    if not rows:
        return figcommon.FigureResult(stem, title, note="no tested series in both runs: "
                                      "figure omitted")
    fig, ax = figcommon.new_figure(9, 1.5 + 0.3 * len(rows))
    threshold = result.gate["threshold_pct"]
    for i, r in enumerate(rows):
        colour = COLOUR_OF.get(r.verdict, figcommon.COLOURS["none"])
        # compare gives no interval when a side has too few samples for one
        if r.ci_lo_pct is not None and r.ci_hi_pct is not None:
            ax.plot([max(r.ci_lo_pct, -100.0), r.ci_hi_pct], [i, i], color=colour, lw=2,
                    alpha=0.6)
        marker = {"too few samples": "x", "not gated": "s"}.get(r.verdict, "o")
        if r.change_pct is not None:
            ax.plot([r.change_pct], [i], marker, color=colour, ms=5)
    ax.axvline(0, color="black", lw=0.8)
    for edge in (-threshold, threshold):
        ax.axvline(edge, color="black", lw=0.6, ls=":")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_label(r) for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("change of the median, %% (dotted: +/-%g%% threshold; red: significant "
                  "regression, green: significant improvement, grey: not significant, "
                  "x: too few samples, square: not gated)" % threshold, fontsize=7)
    ax.set_title(title, fontsize=10)
    if len(_tested_rows(result)) > MAX_ROWS:
        note = ("%d of %d tested series shown: significant ones first, then the largest "
                "changes" % (MAX_ROWS, len(_tested_rows(result))))
    else:
        note = None
    return figcommon.FigureResult(stem, title, figcommon.save(fig, outdir, stem), note)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("base", help="the BASE run directory")
    ap.add_argument("new", help="the NEW run directory")
    ap.add_argument("--out", help="where the PNG and SVG go (default: BASE/figures)")
    ap.add_argument("--config", help="passed to 'ptbench compare --config'")
    ap.add_argument("--ptbench", help="the ptbench binary (default: $PTBENCH, else the one "
                                      "these scripts were installed with)")
    args = ap.parse_args()
    try:
        result = cmpjson.compare(ptdata.find_ptbench(args.ptbench), args.base, args.new,
                                 args.config)
        fig = plot(result, args.out or os.path.join(args.base, "figures"))
    except ptdata.InputError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except ptdata.ToolError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("error: writing: %s" % e, file=sys.stderr)
        return 1
    except ptdata.DATA_ERRORS as e:
        print("error: bad input: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 2
    for path in fig.paths:
        print(path)
    if fig.note:
        print("note: %s" % fig.note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
