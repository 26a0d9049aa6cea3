# SPDX-License-Identifier: GPL-2.0-only
"""The headline numbers of a report, computed from a run's data files.

Each function returns a dict of the numbers and where they came from, or
None when the run lacks the data; report.py turns them into sentences.
Standard library only.
"""
import math

import ptdata


GIB = 1 << 30
MIB = 1 << 20
# The working set the translation headline is quoted at.
HEADLINE_WS = GIB
POPULATED_METRICS = ("populated_bytes", "bytes_populated", "resident_bytes")
# The kernel's count for the whole process (what the model covers), else its
# growth over the case.
KERNEL_METRICS = ("pgtable_bytes_kernel_total", "pgtable_bytes_kernel")


def _median(run, series, metric):
    s = run.find(series.workload, series.case, series.params, metric)
    return s.summary().median if s else None


def _populated_bytes(run, series):
    """Bytes populated in a case: a populated_bytes row, else the size of a
    dense layout or of a tlb 4K chase (both touch every page of the size)."""
    for metric in POPULATED_METRICS:
        value = _median(run, series, metric)
        if value:
            return value, "case's `%s` row" % metric
    params = series.param_map
    layout = params.get("layout", "")
    if layout == "dense" or series.case.startswith("dense"):
        return series.size, "size of a dense layout"
    if series.workload == "tlb" and params.get("backing") == "4k":
        return series.size, "working set of a chase that touches every page"
    return None, None


def kernel_bytes(run, series):
    """(bytes, metric): the kernel's page-table count for a case, or (None, None)."""
    for metric in KERNEL_METRICS:
        value = _median(run, series, metric)
        if value is not None:
            return value, metric
    return None, None


def _dense_4k_families(run):
    """Cases with a modelled D128 row that populate every page of their 4K
    region, grouped by (workload, params without the size): lists of
    (populated bytes, how, series) sorted by populated bytes."""
    families = {}
    for s in run.select(metric="pgtable_bytes_model_d128"):
        backing = s.param_map.get("backing", "4k")
        populated, how = _populated_bytes(run, s)
        if backing != "4k" or not populated:
            continue
        params = s.param_map
        for key in ptdata.SIZE_KEYS:
            params.pop(key, None)
        families.setdefault((s.workload, tuple(params.items())), []).append((populated, how, s))
    for members in families.values():
        members.sort(key=lambda m: m[0])
    return families


def _pick_family(families):
    """The family to quote: two sizes or more first, then the pgtable
    workload, then the largest populated size."""
    return max(families.values(), key=lambda m: (len(m) > 1, m[0][2].workload == "pgtable",
                                                  m[-1][0]))


def _slope(run, small, large, metric):
    a = _median(run, small, metric)
    b = _median(run, large, metric)
    return None if a is None or b is None else b - a


def pgtable_headline(run):
    """D128 vs D64 page-table bytes per populated GiB of a dense 4K layout.

    With two sizes of one case family the cost is marginal, (bytes at the
    larger - bytes at the smaller) / (populated difference), which cancels
    the tables of the rest of the process the model also counts; with one
    size it is bytes / populated bytes.
    """
    families = _dense_4k_families(run)
    if not families:
        return None
    members = _pick_family(families)
    large = members[-1]
    small = members[0] if len(members) > 1 else None
    if small is not None:
        span = large[0] - small[0]
        d64 = _slope(run, small[2], large[2], "pgtable_bytes_model_d64")
        d128 = _slope(run, small[2], large[2], "pgtable_bytes_model_d128")
        kernel_metric = kernel_bytes(run, large[2])[1]
        kernel = _slope(run, small[2], large[2], kernel_metric) if kernel_metric else None
    else:
        span = large[0]
        d64 = _median(run, large[2], "pgtable_bytes_model_d64")
        d128 = _median(run, large[2], "pgtable_bytes_model_d128")
        kernel, kernel_metric = kernel_bytes(run, large[2])
    if not d64 or d64 <= 0 or d128 is None:
        return None
    return {"series": large[2], "small": small[2] if small else None, "span": span,
            "populated_how": large[1], "d64": d64, "d128": d128, "ratio": d128 / d64,
            "kernel": kernel, "kernel_metric": kernel_metric,
            "d64_mib_per_gib": d64 / span * GIB / MIB,
            "d128_mib_per_gib": d128 / span * GIB / MIB,
            "kernel_mib_per_gib": kernel / span * GIB / MIB if kernel is not None else None}


def ratio_range(run):
    """(min, max, n) of pgtable_d128_d64_ratio over every case, or None."""
    values = [s.summary().median for s in run.select(metric="pgtable_d128_d64_ratio")]
    if not values:
        return None
    return min(values), max(values), len(values)


def walk_points(run, source, backing):
    return {r["ws"]: r["ns_per_access"] for r in run.walk or []
            if r["source"] == source and r["backing"] == backing}


def _nearest(sizes, target):
    return min(sizes, key=lambda ws: (abs(math.log2(ws / target)), -ws))


def measured_ns(run, backing, ws):
    for s in run.select("tlb", "ns_per_access"):
        if s.param_map.get("backing") == backing and s.size == ws:
            return s.summary()
    return None


def translation_headline(run, backing):
    """Predicted D128 vs fitted D64 ns per access nearest a 1 GiB working set."""
    d64 = walk_points(run, "fitted-d64", backing)
    d128 = walk_points(run, "predicted-d128", backing)
    common = sorted(set(d64) & set(d128))
    if not common:
        return None
    ws = _nearest(common, HEADLINE_WS)
    if d64[ws] <= 0:
        return None
    return {"backing": backing, "ws": ws, "d64": d64[ws], "d128": d128[ws],
            "change_pct": (d128[ws] / d64[ws] - 1) * 100,
            "measured": measured_ns(run, backing, ws)}


def walk_fit_error(run, backing):
    """Relative error of the fitted D64 curve against the measured values
    the calibration fitted (walk_model.csv's measured rows: the statistic
    its --stat chose), or where a file lacks them the medians of
    results.csv: (mean %, max %, worst ws, points) or None."""
    fitted = walk_points(run, "fitted-d64", backing)
    fitted_to = walk_points(run, "measured", backing)
    errors = []
    for ws, ns in fitted.items():
        y = fitted_to.get(ws)
        if y is None:
            m = measured_ns(run, backing, ws)
            y = m.median if m is not None else None
        if y is not None and y > 0:
            errors.append((abs(ns / y - 1) * 100, ws))
    if not errors:
        return None
    worst = max(errors)
    return (sum(e for e, _ in errors) / len(errors), worst[0], worst[1], len(errors))


def walk_fit_floor(run):
    """The fit's floor from walk_model.csv, as `calibrate`'s fit_floor:
    fitted cases (not the half-density check) of equal fitted D64 cost are
    simulated alike, so no latencies cost them apart, and each such
    group's best single value for relative error, sum(1/y) / sum(1/y^2),
    leaves what no fit removes. (floor %, fit %, groups, cases in them,
    fitted cases), RMS relative errors over the fitted cases, or None."""
    measured = {(r["backing"], r["ws"]): r["ns_per_access"] for r in run.walk or []
                if r["source"] == "measured"}
    groups = {}
    for r in run.walk or []:
        if r["source"] != "fitted-d64" or r["backing"] == "half":
            continue
        y = measured.get((r["backing"], r["ws"]))
        if y is not None and y > 0:
            groups.setdefault(r["ns_per_access"], []).append(y)
    n = sum(len(ys) for ys in groups.values())
    if not n:
        return None
    floor_sq = fit_sq = 0.0
    alike = grouped = 0
    for fitted, ys in groups.items():
        fit_sq += sum(((fitted - y) / y) ** 2 for y in ys)
        if len(ys) < 2:
            continue
        best = sum(1 / y for y in ys) / sum(1 / (y * y) for y in ys)
        floor_sq += sum(((best - y) / y) ** 2 for y in ys)
        alike += 1
        grouped += len(ys)
    return (math.sqrt(floor_sq / n) * 100, math.sqrt(fit_sq / n) * 100, alike, grouped, n)


def model_vs_kernel(run):
    """Per case with both: (series, kernel bytes, model bytes) for the model
    of the running regime against the kernel's own count."""
    out = []
    for s in run.select(metric="pgtable_bytes_model_running"):
        kernel, _metric = kernel_bytes(run, s)
        if kernel is not None:
            out.append((s, kernel, s.summary().median))
    return out
