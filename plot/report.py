#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write DIR/REPORT.md, its figures (DIR/figures/) and the gnuplot extracts
(DIR/plot-data/) for a ptbench run; with DIR2, add a comparison of DIR
(BASE) with DIR2 (NEW), as `ptbench compare DIR DIR2` would.

Every number in the report is computed from DIR/results.csv, meta.json and
walk_model.csv (and DIR2's); the report says which are measured and which
are modelled. Exit status: 0 written, 1 a figure could not be made (e.g.
matplotlib missing: use --no-plots), 2 bad input (a missing directory, a
malformed results.csv, meta.json or walk_model.csv).
"""
import argparse
import os
import subprocess
import sys

import compare
import extract
import ptdata
import reporttext as rt

FIGURES = (("pgtable", "fig_pgtable"), ("translation", "fig_translation"),
           ("mmcost", "fig_mmcost"), ("faults", "fig_faults"))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="the run directory to report on (results.csv, meta.json)")
    ap.add_argument("dir2", nargs="?", help="a second run to compare with (DIR is BASE)")
    ap.add_argument("--no-plots", action="store_true",
                    help="no matplotlib figures (the report says they were not made)")
    ap.add_argument("--ptbench", default=os.environ.get("PTBENCH"),
                    help="the ptbench binary, for 'ptbench compare --format markdown' "
                         "in the comparison section (default: $PTBENCH)")
    ap.add_argument("--gate-config", metavar="FILE",
                    help="passed to 'ptbench compare --config' for the gate's verdicts")
    ap.add_argument("--alpha", type=float, default=compare.ALPHA,
                    help="significance level of the comparison (default %(default)s)")
    ap.add_argument("--threshold", type=float, default=compare.THRESHOLD_PCT,
                    help="smallest change in percent that counts (default %(default)s)")
    return ap.parse_args(argv)


def make_figures(run, result, figdir):
    """name -> FigureResult; raises ImportError without matplotlib."""
    import importlib

    figures = {}
    for name, module in FIGURES:
        figures[name] = importlib.import_module(module).plot(run, figdir)
    if result is not None:
        import fig_compare

        figures["compare"] = fig_compare.plot(result, figdir)
    for name in [n for n, _m in FIGURES] + ["compare"]:
        if name not in figures or not figures[name].paths:
            remove_stale(figdir, name)
    return figures


def remove_stale(figdir, stem):
    """A figure this run cannot make must not survive from an earlier report."""
    for fmt in ("png", "svg"):
        path = os.path.join(figdir, "%s.%s" % (stem, fmt))
        if os.path.exists(path):
            os.remove(path)


def run_compare_command(ptbench, base_dir, new_dir, fmt, config=None):
    """(text, note): the output of `ptbench compare --format fmt`, or why
    there is none. Exit 1 (a regression) is a result, not a failure."""
    if not ptbench:
        return None, "no ptbench binary given (--ptbench)"
    cmd = [ptbench, "compare", base_dir, new_dir, "--format", fmt]
    if config:
        cmd += ["--config", config]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "`%s` could not run: %s" % (" ".join(cmd), e)
    if proc.returncode in (0, 1) and proc.stdout.strip():
        return proc.stdout, None
    first = (proc.stderr.strip().splitlines() or ["no message"])[0]
    return None, "`ptbench compare` exited %d (%s)" % (proc.returncode, first)


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def build(run, run2, args):
    """The report text, or raises ImportError when figures cannot be made."""
    result = gate_md = gate_note = None
    if run2 is not None:
        result = compare.compare(run.series, run2.series, args.alpha, args.threshold)
        gate_csv, _note = run_compare_command(args.ptbench, run.dir, run2.dir, "csv",
                                              args.gate_config)
        if gate_csv:
            result = compare.apply_gate(result, gate_csv)
        gate_md, gate_note = run_compare_command(args.ptbench, run.dir, run2.dir, "markdown",
                                                 args.gate_config)
    figdir = os.path.join(run.dir, "figures")
    figures = {} if args.no_plots else make_figures(run, result, figdir)
    extracts, extract_notes = extract.extract(run, os.path.join(run.dir, "plot-data"))
    doc = rt.Doc(run.dir, figures, args.no_plots)
    rt.title(doc, run, run2)
    rt.environment(doc, run)
    rt.headlines(doc, run)
    rt.measured_vs_modelled(doc, run)
    rt.workloads(doc, run)
    if run2 is not None:
        rt.comparison(doc, run, run2, result, gate_md, gate_note, args.gate_config)
    rt.caveats(doc, run)
    rt.files(doc, run, extracts, extract_notes)
    rt.all_series(doc, run)
    return doc.text()


def main(argv=None):
    args = parse_args(argv)
    try:
        run = ptdata.Run(args.dir)
        run2 = ptdata.Run(args.dir2) if args.dir2 else None
    except ptdata.InputError as e:
        print("report: error: %s" % e, file=sys.stderr)
        return 2
    try:
        text = build(run, run2, args)
    except ImportError as e:
        print("report: error: cannot make figures with %s: %s; install Debian's "
              "python3-matplotlib, or pass --no-plots" % (sys.executable, e), file=sys.stderr)
        return 1
    path = os.path.join(run.dir, "REPORT.md")
    write_atomic(path, text)
    print(path)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
