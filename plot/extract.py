#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Extract the small CSVs the gnuplot scripts (plot/*.gp) read, from a run
directory, into DIR/plot-data/ (or --out). Standard library only, so it runs
where matplotlib does not. Every value is a median over the repetitions of
results.csv as `ptbench summary` computes it (or a row of walk_model.csv);
"NaN" marks an absent value.

  pgtable.csv       case,kernel_bytes,model_d64_bytes,model_d128_bytes
  translation.csv   ws_bytes, then per curve: measured_<backing> (median ns
                    per access), fitted_d64_<backing>, predicted_d128_<backing>
  mmcost-<w>.csv    for fork, mprotect, munmap: one block per case family
  mmcost-panels.gp  have_fork, have_mprotect, have_munmap = 1 or 0, for mmcost.gp
                    (blocks separated by two blank lines, gnuplot "index"),
                    a header line "family,median_ns,ci_lo_ns,ci_hi_ns", then
                    size_mib,median,ci_lo,ci_hi rows by size
"""
import argparse
import csv
import io
import os
import sys
from collections import OrderedDict

import ptdata

PGTABLE_METRICS = ("pgtable_bytes_kernel", "pgtable_bytes_model_d64",
                   "pgtable_bytes_model_d128")
MEASURED_BACKINGS = ("4k", "thp", "hugetlb", "dense")
MODEL_SOURCES = ("fitted-d64", "predicted-d128")
MODEL_BACKINGS = ("4k", "thp")
MMCOST = (("fork", "ns_per_fork"), ("mprotect", "ns_per_page"), ("munmap", "ns_per_page"))


def write_atomic(path, text):
    """mkstemp beside path, then rename (ptdata.write_atomic)."""
    ptdata.write_atomic(path, text)


def _fmt(value):
    return "NaN" if value is None else "%.9g" % value


def fig_pgtable_series(run, metric):
    if metric == "pgtable_bytes_kernel":  # as figure 1
        return run.pgtable_kernel_series()
    return run.select(metric=metric)


def pgtable_csv(run):
    cases = OrderedDict()
    for i, metric in enumerate(PGTABLE_METRICS):
        for s in fig_pgtable_series(run, metric):
            label = "%s/%s" % (s.workload, s.case)
            cases.setdefault(label, [None] * len(PGTABLE_METRICS))[i] = s.summary().median
    if not cases:
        return None
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["case", "kernel_bytes", "model_d64_bytes", "model_d128_bytes"])
    for label, values in cases.items():
        w.writerow([label] + [_fmt(v) for v in values])
    return out.getvalue()


def _translation_columns(run):
    """column name -> {ws: value}."""
    cols = OrderedDict()
    for backing in MEASURED_BACKINGS:
        cols["measured_" + backing] = {}
    for source in MODEL_SOURCES:
        for backing in MODEL_BACKINGS:
            cols["%s_%s" % (source.replace("-", "_"), backing)] = {}
    for s in run.select("tlb", "ns_per_access"):
        col = "measured_%s" % s.param_map.get("backing", "")
        if col in cols and s.size is not None:
            cols[col][s.size] = s.summary().median
    for row in run.walk or []:
        col = "%s_%s" % (row["source"].replace("-", "_"), row["backing"])
        if col in cols:
            cols[col][row["ws"]] = row["ns_per_access"]
    return cols


def translation_csv(run):
    cols = _translation_columns(run)
    sizes = sorted({ws for values in cols.values() for ws in values})
    if not sizes:
        return None
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["ws_bytes"] + list(cols))
    for ws in sizes:
        w.writerow([ws] + [_fmt(values.get(ws)) for values in cols.values()])
    return out.getvalue()


def mmcost_csv(run, workload, metric):
    families = OrderedDict()
    for s in run.select(workload, metric):
        if s.size is None:
            continue
        params = s.param_map
        for key in ptdata.SIZE_KEYS:
            params.pop(key, None)
        label = ";".join("%s=%s" % kv for kv in params.items()) or s.case
        families.setdefault(label, []).append((s.size, s.summary()))
    if not families:
        return None
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for i, (label, points) in enumerate(families.items()):
        if i:
            out.write("\n\n")
        w.writerow([label, "median_ns", "ci_lo_ns", "ci_hi_ns"])
        for size, summary in sorted(points, key=lambda p: p[0]):
            w.writerow([_fmt(size / (1 << 20)), _fmt(summary.median), _fmt(summary.ci_lo),
                        _fmt(summary.ci_hi)])
    return out.getvalue()


def extract(run, outdir):
    """Write every extract that has data; returns (written paths, notes)."""
    os.makedirs(outdir, exist_ok=True)
    jobs = [("pgtable.csv", pgtable_csv(run)), ("translation.csv", translation_csv(run))]
    jobs += [("mmcost-%s.csv" % w, mmcost_csv(run, w, m)) for w, m in MMCOST]
    # which mmcost panels have data, for plot/mmcost.gp: gnuplot cannot test
    # for a file without a shell, and must not call one (the path is not ours)
    jobs.append(("mmcost-panels.gp", "".join(
        "have_%s = %d\n" % (w, 1 if text is not None else 0)
        for (w, _m), (_n, text) in zip(MMCOST, jobs[2:]))))
    written, notes = [], []
    for name, text in jobs:
        path = os.path.join(outdir, name)
        if text is None:
            notes.append("%s: no data in this run, not written" % name)
            if os.path.exists(path):
                os.remove(path)  # never leave a stale extract from another run
            continue
        write_atomic(path, text)
        written.append(path)
    return written, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="a ptbench run directory (results.csv, meta.json)")
    ap.add_argument("--out", help="where the CSVs go (default: DIR/plot-data)")
    args = ap.parse_args()
    try:
        run = ptdata.Run(args.dir)
        written, notes = extract(run, args.out or os.path.join(args.dir, "plot-data"))
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
    for path in written:
        print(path)
    for note in notes:
        print("note: %s" % note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
