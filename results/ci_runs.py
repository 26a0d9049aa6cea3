# SPDX-License-Identifier: GPL-2.0-only
# Reading a directory of identical ci runs (ci-NN/results.csv), for the
# analysis scripts of the gate-* results. Imported, not run.
import csv
import glob
import os


def gated_series(list_path):
    """The (workload, case, metric) each case gates on, from `ptbench list --suite ci`."""
    gated = set()
    workload = None
    with open(list_path) as f:
        for line in f:
            if line.startswith("  ") and not line.startswith("    "):
                workload = line.split()[0]
            elif "gate:" in line:
                gated.add((workload, line.split()[0], line.split("gate:")[1].strip()))
    return gated


def read_runs(runs_dir, keep):
    """Per run, oldest first: (ci-NN, {(workload, case, metric): [values]}) of the rows keep() takes."""
    runs = []
    for path in sorted(glob.glob(os.path.join(runs_dir, "ci-*", "results.csv"))):
        vals = {}
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if keep(row):
                    key = (row["workload"], row["case"], row["metric"])
                    vals.setdefault(key, []).append(float(row["value"]))
        runs.append((os.path.basename(os.path.dirname(path)), vals))
    return runs
