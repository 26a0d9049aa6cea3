#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""rounds.py RUN SLOWCOPY: writes SLOWCOPY/results.csv as RUN's with the
4K anonymous write fault's ns_per_fault times 1.10, and prints each
primary timed series' deviation per round (repetition) from its own median
over the run, in percent of a log scale (100 ln(value / median))."""
import collections
import csv
import json
import math
import os
import statistics
import sys

run, slow = sys.argv[1], sys.argv[2]
meta = json.load(open(os.path.join(run, "meta.json")))
prim = {(c["workload"], c["case"]): c["primary_metric"] for c in meta["cases"]}
with open(os.path.join(run, "results.csv"), newline="") as f:
    rows = list(csv.reader(f))
dev = collections.defaultdict(dict)
for r in rows[1:]:
    if prim.get((r[0], r[1])) == r[4] and r[6] == "ns":
        dev[r[1]][int(r[3])] = float(r[5])
    if r[0] == "fault" and r[1] == "anon-write-4k-64M" and r[4] == "ns_per_fault":
        r[5] = repr(float(r[5]) * 1.10)
tmp = os.path.join(slow, "results.csv.tmp")
with open(tmp, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
os.replace(tmp, os.path.join(slow, "results.csv"))
print("%-30s %s" % ("case (primary, ns)", " ".join("%5s" % ("r%d" % i) for i in range(10))))
for case, v in dev.items():
    med = statistics.median(v.values())
    print("%-30s %s" % (case, " ".join("%+5.0f" % (100 * math.log(v[i] / med)) for i in sorted(v))))
