#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fault_run_noisy.py DIR FACTOR ORDER NOISE: a synthetic fault run for the
two-run tests (e2e_two_run_rounds.sh, e2e_two_run_yuen.sh): six fault
series, 10 repetitions, 2% noise, the same noise in every copy, and
anon-write-4k-64M's ns_per_fault times FACTOR. NOISE is the host's, as
this project's PVM guest showed it (results/gate-two-run-rounds-2026-12-07):
"stretch", rounds 4-6 25% slower for every series; "lone", repetitions 1, 4
and 7 of anon-write-4k-64M alone 25% slower. ORDER: run.order in meta.json."""
import csv
import json
import os
import random
import sys

out, factor, order, noise = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
if noise not in ("stretch", "lone"):
    sys.exit("NOISE '%s': expected stretch or lone" % noise)
os.makedirs(out)
rng = random.Random(11)
cases = ["anon-write-4k-64M", "anon-read-4k-64M", "cow-child-4k-64M",
         "file-shared-write-4k-64M", "anon-write-thp-64M", "anon-write-4k-16M"]
with open(os.path.join(out, "results.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["workload", "case", "params", "rep", "metric", "value", "unit", "better"])
    for rep in range(10):
        for c in cases:
            v = 10000.0 * (1 + rng.gauss(0, 0.02))
            if noise == "stretch" and 4 <= rep <= 6:
                v *= 1.25
            if c == "anon-write-4k-64M":
                v *= factor * (1.25 if noise == "lone" and rep in (1, 4, 7) else 1)
            w.writerow(["fault", c, "size=1", rep, "ns_per_fault", "%.9g" % v, "ns", "lower"])
meta = {"schema_version": 1, "run": {"suite": "quick", "reps": 10, "order": order},
        "cases": [{"workload": "fault", "case": c, "params": "size=1", "status": "ok",
                   "primary_metric": "ns_per_fault"} for c in cases]}
with open(os.path.join(out, "meta.json"), "w") as f:
    json.dump(meta, f)
