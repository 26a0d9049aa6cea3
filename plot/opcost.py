# SPDX-License-Identifier: GPL-2.0-only
"""The page-table operation cost model's outputs as the report shows them:
ops_model.csv (one modelled D128 prediction per case) and ops_validation.csv
(the model's checks), both written by `ptbench model ops` (docs/opcost.md).
Every number is read from those files; nothing is computed here but the
choice of which rows to show. Standard library only."""
import csv
import os

import ptdata

# The decision table's operations: (label, workload, metric, op, thp, params that must match)
HEADLINE = (
    ("fork, 4K", "fork", "ns_per_fork", False, {"layout": "dense"}),
    ("fork, THP", "fork", "ns_per_fork", True, {"layout": "dense"}),
    ("mprotect, 4K", "mprotect", "ns_per_call", False, {"variant": "toggle"}),
    ("mprotect, THP", "mprotect", "ns_per_call", True, {"variant": "toggle"}),
    ("munmap, 4K", "munmap", "ns_per_page", False, {"variant": "munmap"}),
    ("munmap, THP", "munmap", "ns_per_page", True, {"variant": "munmap"}),
    ("anonymous 4K fault", "fault", "ns_per_fault", False, {"backing": "4k"}),
    ("THP fault", "thp", "ns_per_huge_fault", True, {}),
)
LEAVES_OUT = ("D128 hardware's own microarchitecture (the replicas run D128's accesses on "
              "this CPU), lock contention, and the translation cost of the operation's own "
              "memory accesses")


def _read(path):
    if not os.path.exists(path):
        return None
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        raise ptdata.InputError("%s: %s" % (path, e)) from None


def fmt(value):
    """Thousands separated, 4 significant digits below 10,000; "-" for none."""
    if value is None:
        return "-"
    if abs(value) >= 1e4:
        return "{:,.0f}".format(value)
    return "%.4g" % value


def _num(row, key):
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def load(run):
    """(model rows, validation rows); None for a file the run lacks."""
    return (_read(os.path.join(run.dir, "ops_model.csv")),
            _read(os.path.join(run.dir, "ops_validation.csv")))


def headline_rows(model):
    """[(label, row)]: per HEADLINE operation the row of the largest region."""
    out = []
    for label, workload, metric, thp, need in HEADLINE:
        best = None
        for r in model or ():
            params = ptdata.parse_params(r["params"])
            if r["workload"] != workload or r["metric"] != metric or \
                    (r["thp"] == "1") != thp or \
                    any(params.get(k) != v for k, v in need.items()):
                continue
            if best is None or int(r["region_bytes"]) > int(best["region_bytes"]):
                best = r
        if best is not None:
            out.append((label, best))
    return out


def ratio_text(r):
    return "%.3fx [%.3f, %.3f]" % (_num(r, "ratio"), _num(r, "ratio_lo"), _num(r, "ratio_hi"))


def decision_rows(run, row_type):
    """Rows of the decision table: one per operation, its 4K and THP cases together."""
    model, _valid = load(run)
    if model is None:
        return [row_type("kernel operation costs (fork, mprotect, munmap, faults)",
                         "see the workload tables", "not modelled in this run", "-",
                         "not available",
                         "no ops_model.csv (run `ptbench model ops --results DIR`)")]
    ops = []
    for label, r in headline_rows(model):
        op = label.split(",")[0]
        if not ops or ops[-1][0] != op:
            ops.append((op, []))
        ops[-1][1].append((label, r))
    out = []
    for op, rows in ops:
        part = lambda f: "; ".join("%s %s" % (r["case"], f(r)) for _l, r in rows)
        out.append(row_type(
            "%s (%s)" % (op, rows[0][1]["metric"].replace("ns_per_", "ns per ")),
            part(lambda r: "%s ns" % fmt(_num(r, "d64_ns"))) + " (measured)",
            part(lambda r: "%s ns" % fmt(_num(r, "d128_ns"))) + " (modelled)",
            part(ratio_text), "modelled",
            "; ".join("%s: %s" % (r["case"], short_basis(r)) for _l, r in rows) +
            "; see the operations section"))
    return out


def short_basis(r):
    if r["basis"] != "profile":
        text = "no profile, an upper bound"
    else:
        text = "profile of %d samples" % (_num(r, "profile_samples") or 0)
        cov = _num(r, "profile_coverage")
        if cov is not None:
            text += ", %.0f%% of the time" % (100 * cov)
    if r.get("replicas", "none") == "none":
        text += ", no replicas"
    return text
