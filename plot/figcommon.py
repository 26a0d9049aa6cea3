# SPDX-License-Identifier: GPL-2.0-only
"""What every figure script shares: headless matplotlib, atomic PNG and SVG
output, a uniform command line, colours."""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

import ptdata  # noqa: E402

# One colour per role, the same in every figure.
COLOURS = {
    "measured": "#1f77b4", "kernel": "#1f77b4", "fitted-d64": "#2ca02c",
    "model-d64": "#2ca02c", "predicted-d128": "#d62728", "model-d128": "#d62728",
    "4k": "#1f77b4", "thp": "#ff7f0e", "hugetlb": "#9467bd", "dense": "#7f7f7f",
    "regression": "#d62728", "improvement": "#2ca02c", "none": "#7f7f7f",
}
FORMATS = ("png", "svg")


class FigureResult:
    """What a figure function produced: its files, or why there are none."""

    def __init__(self, name, title, paths=(), note=None):
        self.name = name
        self.title = title
        self.paths = list(paths)
        self.note = note


def save(fig, outdir, stem):
    """Write stem.png and stem.svg into outdir atomically; their paths."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for fmt in FORMATS:
        path = os.path.join(outdir, "%s.%s" % (stem, fmt))
        # mkstemp beside it, then rename: no fixed .tmp name to plant a symlink at
        ptdata.write_atomic(path, write=lambda f, fmt=fmt: fig.savefig(
            f, format=fmt, dpi=110, bbox_inches="tight"))
        paths.append(path)
    plt.close(fig)
    return paths


def new_figure(width, height):
    fig, ax = plt.subplots(figsize=(width, height))
    ax.grid(True, which="major", alpha=0.3)
    return fig, ax


def mib_formatter(value, _pos):
    return ptdata.human_bytes(value * (1 << 20)) if value > 0 else "0"


def plain_formatter(value, _pos):
    return "%g" % value


def bytes_formatter(value, _pos):
    return ptdata.human_bytes(value) if value > 0 else "0"


def main(description, plot_fn):
    """Command line shared by the figure scripts: DIR [--out FIGDIR]."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("dir", help="a ptbench run directory (results.csv, meta.json)")
    ap.add_argument("--out", help="where the PNG and SVG go (default: DIR/figures)")
    args = ap.parse_args()
    try:
        run = ptdata.Run(args.dir)
        result = plot_fn(run, args.out or os.path.join(args.dir, "figures"))
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
        print("error: %s: bad input: %s: %s" % (args.dir, type(e).__name__, e),
              file=sys.stderr)
        return 2
    for path in result.paths:
        print(path)
    if result.note:
        print("note: %s" % result.note, file=sys.stderr)
    return 0
