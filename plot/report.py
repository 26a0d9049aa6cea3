#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write DIR/REPORT.md, its appendix DIR/REPORT-series.md, its figures
(DIR/figures/) and the gnuplot extracts (DIR/plot-data/) for a ptbench run;
with DIR2, open with a comparison of DIR (BASE) with DIR2 (NEW), as
`ptbench compare DIR DIR2` makes it.

REPORT.md opens with what D128 would change against D64 for this run (or,
with DIR2, with the comparison), then the headline figures, then the
workload tables. The statistics are the C code's: per-series medians and
intervals from `ptbench summary`, comparisons from `ptbench compare --format
json`; this script lays them out. Exit status: 0 written, 1 a figure could
not be made (e.g. matplotlib missing: use --no-plots) or ptbench failed,
2 bad input (a missing directory, a malformed results.csv, meta.json or
walk_model.csv).
"""
import argparse
import os
import sys

import cmpjson
import extract
import ptdata
import reportops
import reporttext as rt

FIGURES = (("pgtable", "fig_pgtable"), ("translation", "fig_translation"),
           ("mmcost", "fig_mmcost"), ("faults", "fig_faults"), ("opcost", "fig_opcost"))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="the run directory to report on (results.csv, meta.json)")
    ap.add_argument("dir2", nargs="?", help="a second run to compare with (DIR is BASE)")
    ap.add_argument("--no-plots", action="store_true",
                    help="no matplotlib figures (the report says they were not made)")
    ap.add_argument("--ptbench",
                    help="the ptbench binary that computes the statistics (default: $PTBENCH, "
                         "else the one these scripts were built or installed with)")
    ap.add_argument("--gate-config", metavar="FILE",
                    help="passed to 'ptbench compare --config' for the gate's verdicts")
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


def write_atomic(path, text):
    """mkstemp beside path, fsync, rename: never a fixed REPORT.md.tmp that
    another user could have made a symlink."""
    ptdata.write_atomic(path, text)


def build(run, run2, args):
    """(report text, appendix text); raises ImportError when figures cannot
    be made, InputError or ToolError from ptbench."""
    result = gate_md = None
    if run2 is not None:
        result = cmpjson.compare(run.ptbench, run.dir, run2.dir, args.gate_config)
        gate_md = cmpjson.compare(run.ptbench, run.dir, run2.dir, args.gate_config,
                                  fmt="markdown")
    figdir = os.path.join(run.dir, "figures")
    figures = {} if args.no_plots else make_figures(run, result, figdir)
    extracts, extract_notes = extract.extract(run, os.path.join(run.dir, "plot-data"))
    doc = rt.Doc(run.dir, figures, args.no_plots)
    rt.title(doc, run, run2)
    if result is not None:
        rt.comparison(doc, run, run2, result, args.gate_config)
    rt.decision_table(doc, run)
    rt.headlines(doc, run)
    reportops.section(doc, run)
    rt.workloads(doc, run)
    rt.measured_vs_modelled(doc, run)
    rt.caveats(doc, run)
    rt.files(doc, run, extracts, extract_notes)
    app = rt.Doc(run.dir, figures, args.no_plots)
    rt.appendix_title(app, run)
    if gate_md:
        rt.compare_appendix(app, gate_md)
    rt.environment(app, run)
    reportops.appendix(app, run)
    rt.all_series(app, run)
    return doc.text(), app.text()


def main(argv=None):
    args = parse_args(argv)
    try:
        run = ptdata.Run(args.dir, args.ptbench)
        run2 = ptdata.Run(args.dir2, args.ptbench) if args.dir2 else None
        text, appendix = build(run, run2, args)
    except ptdata.InputError as e:
        print("report: error: %s" % e, file=sys.stderr)
        return 2
    except ptdata.ToolError as e:
        print("report: error: %s" % e, file=sys.stderr)
        return 1
    except ImportError as e:
        print("report: error: cannot make figures with %s: %s; install Debian's "
              "python3-matplotlib, or pass --no-plots" % (sys.executable, e), file=sys.stderr)
        return 1
    except ptdata.DATA_ERRORS as e:
        # a value of meta.json or results.csv no check foresaw: still bad input
        print("report: error: %s: bad input: %s: %s" % (args.dir, type(e).__name__, e),
              file=sys.stderr)
        return 2
    try:
        # the appendix first, so REPORT.md never links to a file not yet there
        write_atomic(os.path.join(run.dir, rt.APPENDIX), appendix)
        path = os.path.join(run.dir, "REPORT.md")
        write_atomic(path, text)
    except OSError as e:
        print("report: error: writing in %s: %s" % (run.dir, e.strerror or e), file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
