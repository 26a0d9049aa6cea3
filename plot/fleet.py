#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The fleet figure of `ptbench report --db`: for each host x kernel, every
series' cost relative to the fleet median (a dot each; above 1 costlier than
the fleet) and the column's median over its series (a bar), one panel for
the measured primary metrics and one for the model's D128 predictions.
Every number is read from DIR/fleet.csv and DIR/fleet-groups.csv, which the
C code wrote (analysis/fleet.c); this script only draws them.

usage: fleet.py DIR [--quiet]   (writes DIR/figures/fleet.png and fleet.svg)
"""
import argparse
import csv
import io
import math
import os
import sys

import figcommon
import ptdata
from matplotlib.ticker import FuncFormatter, NullFormatter  # after figcommon chose the backend

CELL_COLUMNS = ("host", "cpu_model", "kernel_release", "workload", "case", "metric", "kind",
                "relative_cost")
GROUP_COLUMNS = ("host", "cpu_model", "kernel_release", "runs", "measured_relative_cost",
                 "modelled_relative_cost")
KINDS = (("measured", "measured: each case's primary metric", "measured"),
         ("modelled", "modelled: D128 predictions", "predicted-d128"))


def read_csv(path, columns):
    """The rows of a CSV as dicts; InputError when a column is missing."""
    rows = list(csv.DictReader(io.StringIO(ptdata.read_text(path), newline="")))
    have = set(rows[0]) if rows else set()
    missing = [c for c in columns if c not in have]
    if not rows or missing:
        raise ptdata.InputError("%s: no rows, or no column %s" % (path, ", ".join(missing)))
    return rows


def number(text, path):
    """A relative cost: a finite positive number, or None where it is empty."""
    if text == "":
        return None
    v = float(text)
    if not math.isfinite(v) or v <= 0:
        raise ptdata.InputError("%s: relative cost %r is not a positive number" % (path, text))
    return v


def plain(text, limit=32):
    """A name as a label: no mathtext ($ would start it), at most limit characters."""
    text = " ".join(text.split()).replace("$", r"\$")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def columns(groups_path):
    groups = read_csv(groups_path, GROUP_COLUMNS)
    index = {(g["host"], g["cpu_model"], g["kernel_release"]): i for i, g in enumerate(groups)}
    labels = ["%s\n%s\n%s\n%s run%s" % (plain(g["host"]), plain(g["kernel_release"]),
                                        plain(g["cpu_model"], 24), g["runs"],
                                        "" if g["runs"] == "1" else "s") for g in groups]
    medians = {kind: [number(g["%s_relative_cost" % kind], groups_path) for g in groups]
               for kind, _, _ in KINDS}
    return index, labels, medians


def points(cells_path, index):
    """{kind: [(column, series number, relative cost)]}, {kind: number of series}"""
    out = {kind: [] for kind, _, _ in KINDS}
    series = {kind: {} for kind, _, _ in KINDS}
    for row in read_csv(cells_path, CELL_COLUMNS):
        key = (row["host"], row["cpu_model"], row["kernel_release"])
        if key not in index or row["kind"] not in out:
            raise ptdata.InputError("%s: a row of an unknown column or kind: %s" %
                                    (cells_path, row["kind"]))
        v = number(row["relative_cost"], cells_path)
        if v is not None:
            numbers = series[row["kind"]]
            s = numbers.setdefault((row["workload"], row["case"], row["metric"]), len(numbers))
            out[row["kind"]].append((index[key], s, v))
    return out, {kind: max(len(n), 1) for kind, n in series.items()}


def panel(ax, pts, nseries, medians, labels, kind, title, colour):
    for col, s, v in pts:
        # the same series at the same offset in every column, so its dots line up
        ax.plot(col + (s / nseries - 0.5) * 0.5, v, "o", ms=3, alpha=0.6, color=colour)
    for col, m in enumerate(medians):
        if m is not None:
            ax.hlines(m, col - 0.3, col + 0.3, colors="black", linewidth=2)
            ax.annotate("%.3f" % m, (col - 0.3, m), xytext=(0, 3), textcoords="offset points",
                        fontsize=7)
    ax.axhline(1.0, color="#7f7f7f", linestyle="--", linewidth=1)
    ax.set_yscale("log")
    values = [v for _, _, v in pts] + [m for m in medians if m is not None] + [1.0]
    lo, hi = min(values) / 1.05, max(values) * 1.05
    ax.set_ylim(lo, hi)
    ax.yaxis.set_major_formatter(FuncFormatter(figcommon.plain_formatter))
    # within a decade the major ticks are too few to read a value by
    ax.yaxis.set_minor_formatter(FuncFormatter(figcommon.plain_formatter) if hi / lo < 10
                                 else NullFormatter())
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel("cost / fleet median (%s)" % kind)
    ax.set_title(title, fontsize=10)


def draw(directory):
    index, labels, medians = columns(os.path.join(directory, "fleet-groups.csv"))
    pts, nseries = points(os.path.join(directory, "fleet.csv"), index)
    kinds = [k for k in KINDS if pts[k[0]]]
    if not kinds:
        raise ptdata.InputError("%s/fleet.csv: no relative cost to draw" % directory)
    fig, axes = figcommon.plt.subplots(len(kinds), 1, squeeze=False,
                                       figsize=(max(6.0, 1.5 * len(labels) + 2),
                                                3.6 * len(kinds) + 0.6))
    for ax, (kind, title, colour) in zip(axes[:, 0], kinds):
        ax.grid(True, which="major", alpha=0.3)
        panel(ax, pts[kind], nseries[kind], medians[kind], labels, kind, title,
              figcommon.COLOURS[colour])
    fig.suptitle("Each host × kernel against the fleet median (1; above: costlier);\n"
                 "dots: series, bars: the column's median over its series", fontsize=10)
    fig.tight_layout()
    return figcommon.save(fig, os.path.join(directory, "figures"), "fleet")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the fleet report's directory (fleet.csv, fleet-groups.csv)")
    ap.add_argument("--quiet", action="store_true", help="do not print the files written")
    args = ap.parse_args()
    try:
        paths = draw(args.dir)
    except ptdata.InputError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("error: writing: %s" % e, file=sys.stderr)
        return 1
    except ptdata.DATA_ERRORS as e:
        print("error: %s: bad input: %s: %s" % (args.dir, type(e).__name__, e), file=sys.stderr)
        return 2
    for path in paths if not args.quiet else ():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
