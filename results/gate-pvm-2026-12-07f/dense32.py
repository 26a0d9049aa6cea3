#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""dense32.py: what the two A/A firings of this block (tlb/dense-32M) rode on.

  dense32.py extract OUT.csv RUNDIR...
      the rows of control/mem-chase ns_per_access, tlb/dense-32M
      ns_per_access and ns_per_access_norm and tlb/chase-4k-32M
      ns_per_access of each run, as run,case,metric,
      rep,value (ns_per_access_norm is not a primary metric, so
      runs-primary.tar.xz does not hold it; dense32.csv is this block's)
  dense32.py table CSV
      per run, the median of each: dense32.txt
"""
import csv
import os
import statistics as st
import sys

SERIES = [("mem-chase", "ns_per_access"), ("dense-32M", "ns_per_access"),
          ("dense-32M", "ns_per_access_norm"), ("chase-4k-32M", "ns_per_access")]


def extract(out, dirs):
    rows = []
    for d in dirs:
        with open(os.path.join(d, "results.csv"), newline="") as f:
            for r in csv.DictReader(f):
                if (r["case"], r["metric"]) in SERIES:
                    rows.append([os.path.basename(os.path.normpath(d)), r["case"], r["metric"],
                                 r["rep"], r["value"]])
    with open(out + ".tmp", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "case", "metric", "rep", "value"])
        w.writerows(rows)
    os.rename(out + ".tmp", out)
    return 0


def table(path):
    v = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            v.setdefault(r["run"], {}).setdefault((r["case"], r["metric"]), []).append(float(r["value"]))
    print("run medians, ns (the runs in the order they were made)")
    print("%-8s %14s %14s %20s %14s" % ("run", "mem-chase", "dense-32M", "dense-32M _norm",
                                         "chase-4k-32M"))
    for run in sorted(v):
        print("%-8s" % run + "".join("%15.2f" % st.median(v[run][s]) if s in v[run] else "%15s" % "-"
                                     for s in SERIES))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "extract":
        return extract(argv[1], argv[2:])
    if len(argv) == 2 and argv[0] == "table":
        return table(argv[1])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
