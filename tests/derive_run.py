#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make a run directory from a fixture run, for the end-to-end tests of
compare --format junit and report --db: a new run id, host, CPU, kernel and
tag in meta.json; optionally every case's primary metric declared, more
repetitions, drift between runs and noise within one, some series scaled
(a regression), extra rows (D128 predictions), and hostile case names."""
import argparse
import csv
import json
import math
import os
import random
import shutil

# The primary metric of each fixture workload, as `ptbench list -v` declares them.
PRIMARY = {"tlb": "ns_per_access", "fault": "ns_per_fault", "mprotect": "ns_per_page",
           "fork": "ns_per_fork", "munmap": "ns_per_page", "thp": "ns_per_huge_fault",
           "pgtable": "pgtable_bytes_kernel"}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--id", required=True)
    ap.add_argument("--host")
    ap.add_argument("--cpu")
    ap.add_argument("--kernel")
    ap.add_argument("--tag")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, help="repetitions per series (the samples cycled)")
    ap.add_argument("--drift", type=float, default=0.0,
                    help="log-normal sigma of a run's speed, per series (ns_ metrics)")
    ap.add_argument("--noise", type=float, default=0.0,
                    help="relative sigma of each sample (ns_ metrics)")
    ap.add_argument("--scale", action="append", default=[],
                    help="WORKLOAD/CASE/METRIC=FACTOR: multiply that series (the name before --rename)")
    ap.add_argument("--primary", action="store_true",
                    help="declare each case's primary metric in meta.json")
    ap.add_argument("--rename", action="append", default=[],
                    help="WORKLOAD/CASE=NEW: rename a case (hostile names)")
    ap.add_argument("--add-row", action="append", default=[],
                    help="a results.csv row to append, as CSV")
    return ap.parse_args()


def rewrite_rows(a, rng):
    scale = {}
    for s in a.scale:
        key, factor = s.rsplit("=", 1)
        scale[key] = float(factor)
    rename = dict(r.split("=", 1) for r in a.rename)
    with open(os.path.join(a.src, "results.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    series = {}
    for r in body:
        series.setdefault(tuple(r[i] for i in (0, 1, 2, 4)), []).append(r)
    out = []
    for key, rs in series.items():
        workload, case, params, metric = key
        timing = metric.startswith("ns_")
        drift = math.exp(rng.gauss(0, a.drift)) if timing else 1.0
        factor = scale.get("%s/%s/%s" % (workload, case, metric), 1.0)
        values = [float(r[5]) for r in rs]
        reps = a.reps or len(values)
        for rep in range(reps):
            v = values[rep % len(values)]  # the same samples, cycled: same median
            if timing:
                v *= drift * (1 + rng.gauss(0, a.noise))
            name = rename.get("%s/%s" % (workload, case), case)
            out.append([workload, name, params, rep, metric, "%.9g" % (v * factor), rs[0][6],
                        rs[0][7]])
    for line in a.add_row:
        out.extend(csv.reader([line]))
    # surrogateescape: a name given as bytes that are not UTF-8 stays those bytes
    with open(os.path.join(a.dst, "results.csv"), "w", newline="",
              errors="surrogateescape") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(out)
    return rename


def rewrite_meta(a, rename):
    path = os.path.join(a.dst, "meta.json")
    with open(path) as f:
        m = json.load(f)
    m["run"]["id"] = a.id
    for section, key, value in (("run", "tag", a.tag), ("env", "hostname", a.host),
                                ("env", "cpu_model", a.cpu),
                                ("env", "kernel_release", a.kernel)):
        if value is not None:
            m[section][key] = value
    if a.reps:
        m["run"]["reps"] = a.reps
    for c in m.get("cases", []):
        c["case"] = rename.get("%s/%s" % (c["workload"], c["case"]), c["case"])
        if a.primary:
            c["primary_metric"] = PRIMARY[c["workload"]]
    with open(path, "w", errors="surrogateescape") as f:
        json.dump(m, f, indent=2, ensure_ascii=False)


def main():
    a = parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.dst)
    shutil.copy(os.path.join(a.src, "meta.json"), os.path.join(a.dst, "meta.json"))
    rename = rewrite_rows(a, rng)
    rewrite_meta(a, rename)


if __name__ == "__main__":
    main()
