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


def basis_text(r):
    text = _basis(r)
    if r.get("replicas", "none") == "none":
        text += "; no ptops replicas in the run: the per-entry cost of 16-byte accesses is " \
            "not in the range"
    return text


def _basis(r):
    if r["basis"] == "profile":
        cov = _num(r, "profile_coverage")
        return "cpu-clock profile (%d samples%s) x replica ratios x structural counts" % (
            _num(r, "profile_samples") or 0,
            ", covering %.0f%% of the timed cost" % (100 * cov) if cov is not None else "")
    return ("no profile: the whole operation scaled as its main page-table component "
            "(an upper bound)")


def decision_rows(run, row_type):
    """Rows of the decision table, one per HEADLINE operation the run has."""
    model, _valid = load(run)
    if model is None:
        return [row_type("kernel operation costs (fork, mprotect, munmap, faults)",
                         "see the workload tables", "not modelled in this run", "-",
                         "not available",
                         "no ops_model.csv (run `ptbench model ops --results DIR`)")]
    out = []
    for label, r in headline_rows(model):
        unit = r["metric"].replace("ns_per_", "ns per ")
        out.append(row_type(
            "%s, %s (%s)" % (label, r["case"], unit),
            "%s ns (measured)" % fmt(_num(r, "d64_ns")),
            "%s ns [%s, %s] (modelled)" % tuple(fmt(_num(r, k)) for k in
                                                ("d128_ns", "d128_ns_lo", "d128_ns_hi")),
            ratio_text(r), "modelled",
            basis_text(r) + "; what it leaves out: see the operations section"))
    return out
