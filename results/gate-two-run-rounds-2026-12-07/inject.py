#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""inject.py PTBENCH OPTIONS RUN...: for every RUN and every primary timed
series of it (meta.json's primary_metric, unit ns), a copy of RUN with that
series x1.10 in every repetition, compared with
`ptbench compare RUN COPY OPTIONS --format csv` (OPTIONS: one argument,
split at blanks, e.g. "--round-effect on --test yuen"). Caught: exit
1 and that series' verdict "worse". Prints, per series, how many runs
caught it of how many tried, any other series named worse, and the totals."""
import collections
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

pt, options, runs = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
caught = collections.Counter()
tried = collections.Counter()
bystanders = 0
work = tempfile.mkdtemp()
try:
    for run in runs:
        meta = json.load(open(os.path.join(run, "meta.json")))
        prim = {(c["workload"], c["case"]): c["primary_metric"] for c in meta["cases"]}
        with open(os.path.join(run, "results.csv"), newline="") as f:
            rows = list(csv.reader(f))
        series = sorted({(r[0], r[1], r[4]) for r in rows[1:]
                         if prim.get((r[0], r[1])) == r[4] and r[6] == "ns"})
        copy = os.path.join(work, "copy")
        os.makedirs(copy, exist_ok=True)
        shutil.copy(os.path.join(run, "meta.json"), copy)
        for s in series:
            with open(os.path.join(copy, "results.csv"), "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                for r in rows:
                    if (r[0], r[1], r[4]) == s:
                        r = r[:5] + [repr(float(r[5]) * 1.10)] + r[6:]
                    w.writerow(r)
            p = subprocess.run([pt, "compare", run, copy] + options + ["--format", "csv"],
                               capture_output=True, text=True)
            if p.returncode > 1:
                sys.exit("%s: compare exited %d: %s" % (run, p.returncode, p.stderr))
            verdict = {}
            for r in csv.DictReader(io.StringIO(p.stdout)):
                verdict[(r["workload"], r["case"], r["metric"])] = r["verdict"]
            name = "/".join(s[:2])
            tried[name] += 1
            if p.returncode == 1 and verdict.get(s) == "worse":
                caught[name] += 1
            bystanders += sum(1 for k, v in verdict.items() if v == "worse" and k != s)
finally:
    shutil.rmtree(work)
for name in sorted(tried):
    print("%-42s %3d of %3d" % (name, caught[name], tried[name]))
print("options: %s" % " ".join(options))
print("total: caught %d of %d (%.1f%%); other series named worse: %d"
      % (sum(caught.values()), sum(tried.values()),
         100.0 * sum(caught.values()) / sum(tried.values()), bystanders))
