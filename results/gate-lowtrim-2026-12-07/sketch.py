#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""sketch.py DIR [WORKLOAD/CASE]: the first look of rule.txt, before any gate figure.

DIR holds the two archives' runs extracted (pvmblock/ci-*, pvmblock2/ci-*).
For each timed primary series of the 70 runs, and each candidate run
statistic of its log repetitions, the between-run standard deviation
after a crude run effect (each run's median deviation over the series);
no round effect, no pool/judged split, unlike the gate. Also each
series' median within-run standard deviation of the log repetitions.
With WORKLOAD/CASE (e.g. ptops/set-d64-256M): that series' run median
and sorted repetitions, run by run, instead.
"""
import csv
import glob
import math
import statistics as st
import sys

if len(sys.argv) not in (2, 3):
    print("usage: sketch.py DIR [WORKLOAD/CASE]", file=sys.stderr)
    sys.exit(2)
runs = sorted(glob.glob(sys.argv[1] + "/pvmblock*/ci-*/results.csv"))
if len(runs) < 3:
    print("sketch.py: %s: fewer than 3 runs (pvmblock*/ci-*/results.csv)" % sys.argv[1],
          file=sys.stderr)
    sys.exit(2)
if len(sys.argv) == 3:
    want = tuple(sys.argv[2].split("/", 1))
    shown = 0
    for r in runs:
        v = sorted(float(row["value"]) for row in csv.DictReader(open(r))
                   if (row["workload"], row["case"]) == want)
        if v:
            shown += 1
            run = "/".join(r.split("/")[-3:-1])
            print("%-16s median %6.3f  [%s]" % (run, st.median(v), " ".join("%.3f" % x for x in v)))
    if not shown:
        print("sketch.py: %s: no such series in %s" % (sys.argv[2], sys.argv[1]), file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
data = []
for r in runs:
    d = {}
    for row in csv.DictReader(open(r)):
        if row["metric"].startswith("pgtable"):
            continue  # byte counts, not timings
        d.setdefault((row["workload"], row["case"]), []).append(math.log(float(row["value"])))
    data.append(d)
keys = sorted(set.intersection(*[set(d) for d in data]))


def trim(v, lo, hi):
    v = sorted(v)
    n = len(v)
    a, b = int(lo * n + 1e-9), int(hi * n + 1e-9)
    return st.mean(v[a:n - b])


stats = {"0.2": (0.2, 0.2), "0.5": None, "0,0.5": (0, 0.5), "0.1,0.5": (0.1, 0.5),
         "0,0.7": (0, 0.7), "0,0.9": (0, 0.9)}
sd = {}
for name, t in stats.items():
    f = st.median if t is None else (lambda v, t=t: trim(v, *t))
    m = [[f(d[k]) for k in keys] for d in data]
    center = [st.median(col) for col in zip(*m)]
    effect = [st.median([x - c for x, c in zip(row, center)]) for row in m]
    sd[name] = [st.stdev([m[i][j] - effect[i] for i in range(len(m))]) for j in range(len(keys))]
print("%d runs; between-run sd (%%) of each run statistic (--trim), and the within-run sd" % len(runs))
print("%-40s" % "series" + "".join("%9s" % n for n in stats) + "   within")
for j, k in enumerate(keys):
    w = st.median([st.stdev(d[k]) for d in data])
    print("%-40s" % "/".join(k) + "".join("%8.1f%%" % (100 * sd[n][j]) for n in stats)
          + "%8.1f%%" % (100 * w))
print("%-40s" % "median" + "".join("%8.1f%%" % (100 * st.median(sd[n])) for n in stats))
print("%-40s" % "series under 3.5%" + "".join("%9d" % sum(s < 0.035 for s in sd[n]) for n in stats))
