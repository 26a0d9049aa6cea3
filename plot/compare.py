# SPDX-License-Identifier: GPL-2.0-only
"""Compare two runs series by series, for the report's comparison section
and figure 5, by the rules of `ptbench compare` (harness/compare.c):

- per series (workload, case, params, metric) present in both runs: the
  median of each side with its 95% order-statistics interval;
- change = (median NEW / median BASE - 1) * 100, labelled worse or better by
  the metric's direction; its interval here is the conservative one from the
  two median intervals: [lo NEW / hi BASE - 1, hi NEW / lo BASE - 1];
- a series whose samples are all one value on both sides is "no significant
  change" and left out of the family (the rank test cannot reach any alpha);
- "too few samples" when even the most extreme ranking could not reach
  alpha (2 / C(na + nb, na) >= alpha): said, never passed silently, and left
  out of the family;
- otherwise a two-sided Mann-Whitney U p-value on the raw samples,
  Holm-adjusted over the family of tested series;
- significant when adjusted p < alpha (0.01) and |change| >= threshold (5%):
  a regression or an improvement, or "changed (descriptive)" for a metric
  whose better is "neither".

Standard library only.
"""
import csv
import io
from collections import namedtuple

import ptstats

ALPHA = 0.01
THRESHOLD_PCT = 5.0

Comparison = namedtuple(
    "Comparison", "series_base series_new base new change_pct ci_lo_pct ci_hi_pct "
                  "p p_adj tested verdict")
Result = namedtuple("Result", "rows only_base only_new alpha threshold_pct tested source")
# `ptbench compare --format csv` verdicts in this module's words.
GATE_VERDICTS = {"worse": "regression", "better": "improvement", "~": "no significant change",
                 "changed": "changed (descriptive)", "too few samples": "too few samples",
                 "not gated": "not gated"}
GATE_COLUMNS = ("workload", "case", "params", "metric", "p", "p_adj", "verdict")


def _ratio_pct(num, den):
    if den == 0:
        return float("inf") if num > 0 else (float("-inf") if num < 0 else 0.0)
    return (num / den - 1) * 100


def _change(base, new):
    change = _ratio_pct(new.median, base.median)
    lo = _ratio_pct(new.ci_lo, base.ci_hi)
    hi = _ratio_pct(new.ci_hi, base.ci_lo)
    return change, min(lo, hi), max(lo, hi)


def _all_equal(a, b):
    return len(set(a.values) | set(b.values)) == 1


def _judge(w, alpha, threshold):
    """The verdict of a row of the family once its adjusted p is known."""
    better = w["b"].better
    if not (w["p_adj"] < alpha) or abs(w["change"]) < threshold or w["change"] == 0:
        return "no significant change"
    if better == "neither":
        return "changed (descriptive)"
    worse = (w["change"] > 0) == (better == "lower")
    return "regression" if worse else "improvement"


def _prepare(b, n, alpha):
    sb, sn = b.summary(), n.summary()
    change, lo, hi = _change(sb, sn)
    w = {"b": b, "n": n, "sb": sb, "sn": sn, "change": change, "lo": lo, "hi": hi,
         "p": None, "p_adj": None, "tested": False, "verdict": None}
    if _all_equal(b, n):
        w.update(p=1.0, p_adj=1.0, verdict="no significant change")
    elif ptstats.mann_whitney_min_p(len(b.values), len(n.values)) >= alpha:
        w["verdict"] = "too few samples"
    else:
        w.update(p=ptstats.mann_whitney_p(b.values, n.values), tested=True)
    return w


def compare(base_series, new_series, alpha=ALPHA, threshold_pct=THRESHOLD_PCT):
    """Compare two lists of ptdata.Series; returns a Result."""
    new_by_key = {s.key: s for s in new_series}
    base_keys = {s.key for s in base_series}
    work = [_prepare(b, new_by_key[b.key], alpha) for b in base_series if b.key in new_by_key]
    family = [w for w in work if w["tested"]]
    for w, adj in zip(family, ptstats.holm([w["p"] for w in family])):
        w["p_adj"] = adj
        w["verdict"] = _judge(w, alpha, threshold_pct)
    rows = [Comparison(w["b"], w["n"], w["sb"], w["sn"], w["change"], w["lo"], w["hi"],
                       w["p"], w["p_adj"], w["tested"], w["verdict"]) for w in work]
    only_base = [s for s in base_series if s.key not in new_by_key]
    only_new = [s for s in new_series if s.key not in base_keys]
    return Result(rows, only_base, only_new, alpha, threshold_pct, len(family),
                  "plot/compare.py")


def _gate_number(text):
    try:
        return float(text) if text != "" else None
    except ValueError:
        return None


def parse_gate_csv(text):
    """key -> (verdict, p, p_adj) from `ptbench compare --format csv`, or
    None when the text does not have the expected columns."""
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or any(c not in reader.fieldnames for c in GATE_COLUMNS):
        return None
    out = {}
    for row in reader:
        verdict = GATE_VERDICTS.get(row["verdict"])
        if verdict is None:
            continue  # base only / new only: listed from our own data
        key = (row["workload"], row["case"], row["params"], row["metric"])
        out[key] = (verdict, _gate_number(row["p"]), _gate_number(row["p_adj"]))
    return out


def apply_gate(result, gate_csv_text):
    """The result with the gate's verdicts and p-values where the gate has
    the series, so the figure and table agree with the exit status."""
    gate = parse_gate_csv(gate_csv_text)
    if not gate:
        return result
    rows = []
    for r in result.rows:
        g = gate.get(r.series_base.key)
        rows.append(r._replace(verdict=g[0], p=g[1], p_adj=g[2]) if g else r)
    return result._replace(rows=rows, source="ptbench compare")


def gate_floor(result):
    """The smallest Holm-adjusted p the most extreme series of the family
    could get (None when the family is empty): when it is >= alpha no
    series can pass Holm's first step, so the gate cannot fire."""
    family = [r for r in result.rows if r.tested]
    if not family:
        return None
    best = min(ptstats.mann_whitney_min_p(r.base.n, r.new.n) for r in family)
    return min(1.0, best * len(family))
