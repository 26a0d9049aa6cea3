# SPDX-License-Identifier: GPL-2.0-only
"""The rows of REPORT.md's first table: what D128 would change against D64
on the machine and run at hand. Each row says whether it is measured or
modelled, gives modelled numbers as a range, and says what the model leaves
out. Medians come from `ptbench summary` (through ptdata), block and
contiguous-run sizes from `ptbench model geometry` for the run's page size
and VA bits, translation costs from the run's walk_model.csv. Nothing here
is a constant about a result. Standard library only.
"""
import csv
import io
from collections import namedtuple

import headline
import opcost
import ptdata

Row = namedtuple("Row", "what d64 d128 change kind basis")
# Above this the walk model's fit is said to miss the measurement.
FIT_WARN_PCT = 25.0
# Repetitions further apart than this are named (PT_WALKCALIB_UNSTEADY).
UNSTEADY = 1.5
WALK_LEAVES_OUT = ("nested (two-stage) translation, prefetchers, memory-level parallelism, "
                   "the contiguous bit and the instruction TLB")
NESTED_LEAVES_OUT = ("the host's own walk-cache policy, the guest allocator's real layout, "
                     "prefetchers, memory-level parallelism, the contiguous bit and the "
                     "instruction TLB")
NESTED_SOURCES = (("guest", "predicted-d128"), ("host", "predicted-d128-host"),
                  ("both", "predicted-d128-both"))


def hb(n):
    return ptdata.human_bytes(n) if n else "-"


def geometry(run):
    """({format: {level name: row}}, None), or (None, why) when the run
    does not say its page size and VA bits or ptbench cannot answer."""
    page = run.meta_get("regime", "page_size") or run.meta_get("env", "page_size")
    va = run.meta_get("regime", "va_bits")
    if not page or not va:
        return None, "meta.json gives no regime.page_size and regime.va_bits"
    try:
        text = ptdata.run_ptbench(run.ptbench, ["model", "geometry", "--csv", "--granule",
                                                str(page), "--va", str(va)])
    except (ptdata.InputError, ptdata.ToolError) as e:
        return None, "`ptbench model geometry` for %s pages, VA %s: %s" % (page, va, e)
    out = {}
    for r in csv.DictReader(io.StringIO(text)):
        if r["ttbr_skl"] == "0" and r["table_skl"] == "0":
            out.setdefault(r["format"], {})[r["name"]] = r
    if "D64" not in out or "D128" not in out:
        return None, "`ptbench model geometry` gave no D64 and D128 tables for %s pages" % page
    return out, None


def _level(geo, fmt, name, field):
    row = geo[fmt].get(name)
    return int(row[field]) if row and row[field] else 0


def _pgtable_row(run):
    h = headline.pgtable_headline(run)
    if h is None:
        return Row("page-table memory per populated GiB", "-", "-", "-", "not available",
                   "no 4K case that populates every page has model rows in this run")
    d64 = "%.2f MiB (model)" % h["d64_mib_per_gib"]
    if h["kernel_mib_per_gib"] is not None:
        d64 += "; kernel %.2f MiB (measured)" % h["kernel_mib_per_gib"]
    change = "%.2fx" % h["ratio"]
    rr = headline.ratio_range(run)
    if rr:
        change += "; whole process over %d cases: %.2fx to %.2fx" % (rr[2], rr[0], rr[1])
    how = "%s/%s" % (h["series"].workload, h["series"].case)
    if h["small"] is not None:
        how = "marginal from %s/%s to %s" % (h["small"].workload, h["small"].case, how)
    return Row("page-table memory per populated GiB (4K pages)", d64,
               "%.2f MiB" % h["d128_mib_per_gib"], change,
               "modelled (D64 checked against the kernel's VmPTE)",
               "model/ on each case's populated pages (%s); counts the PTE, PMD and PUD "
               "tables VmPTE counts, not the PGD/P4D; a huge page maps as the largest D128 "
               "blocks that fit in it" % how)


def translation_points(run, backing):
    """Per working set with a fitted-d64 and a predicted-d128 point:
    (ws, low %, high %, measured Summary or None). High: the whole measured
    cost grows as the modelled walk does (predicted / fitted - 1). Low: only
    the modelled part grows ((predicted - fitted) / measured): what the fit
    misses is left unchanged."""
    d64 = headline.walk_points(run, "fitted-d64", backing)
    d128 = headline.walk_points(run, "predicted-d128", backing)
    out = []
    for ws in sorted(set(d64) & set(d128)):
        f, p = d64[ws], d128[ws]
        if f <= 0:
            continue
        hi = (p / f - 1) * 100
        m = headline.measured_ns(run, backing, ws)
        lo = (p - f) / m.median * 100 if m is not None and m.median > 0 else hi
        out.append((ws, min(lo, hi), max(lo, hi), m))
    return out


def _translation_row(run, backing):
    what = "translation cost per access, %s pages" % backing.upper()
    if run.walk is None:
        return Row(what, "-", "-", "-", "not modelled in this run",
                   "no walk_model.csv (run `ptbench model walk --calibrate`)")
    pts = translation_points(run, backing)
    if not pts:
        return Row(what, "-", "-", "-", "not modelled in this run",
                   "walk_model.csv has no fitted-d64/predicted-d128 pair for %s" % backing)
    measured = [m.median for _ws, _lo, _hi, m in pts if m is not None]
    d64 = ("measured %s ns (medians)" % _span(measured, _num)
           if measured else "no measured medians at these working sets")
    last = pts[-1]
    change = "%+.1f%% to %+.1f%% (at %s: %+.1f%% to %+.1f%%)" % (
        min(p[1] for p in pts), max(p[2] for p in pts), hb(last[0]), last[1], last[2])
    basis = ("walk simulator fitted to this run's tlb sweep, %d working sets %s to %s; low "
             "end: only the modelled walk grows, high end: the whole measured cost grows "
             "with it" % (len(pts), hb(pts[0][0]), hb(last[0])))
    fit = headline.walk_fit_error(run, backing)
    if fit is not None:
        missed = fit[1] > FIT_WARN_PCT
        basis += ("; %sthe fit misses the measured values by %.0f%% on average, %.0f%% at "
                  "%s%s" % ("**" if missed else "", fit[0], fit[1], hb(fit[2]),
                            "**" if missed else ""))
        basis += _worst_reps(run, backing, fit[2])
    nested = any("nested" in (r.get("hypothesis") or "") for r in run.walk)
    basis += "; leaves out " + (NESTED_LEAVES_OUT if nested else WALK_LEAVES_OUT)
    return Row(what + ", working sets measured", d64, "-", change, "modelled", basis)


def _worst_reps(run, backing, ws):
    """Where the fit misses most, how far its repetitions lay apart: on a
    shared host a large miss can be the host's (its cache share changes
    within seconds), and the reader should see which."""
    m = headline.measured_ns(run, backing, ws)
    if m is None or m.n is None or m.n < 2 or not m.min or m.max is None:
        return ""
    return " (its %d repetitions %s to %s ns%s)" % (
        m.n, _num(m.min), _num(m.max),
        ", %.1fx apart" % (m.max / m.min) if m.max / m.min > UNSTEADY else "")


def _nested_row(run, backing):
    """D128/D64 with D128 at the guest, the host and both (calibrate's nested
    model), at the largest working set that has all three; None without them."""
    rows = {}
    for r in run.walk or []:
        if r["backing"] == backing and r.get("d128_over_d64") is not None:
            rows.setdefault(r["ws"], {})[r["source"]] = r
    full = [ws for ws, by in rows.items() if all(s in by for _, s in NESTED_SOURCES)]
    if not full:
        return None
    ws = max(full)
    parts, hyp = [], None
    for label, source in NESTED_SOURCES:
        r = rows[ws][source]
        hyp = hyp or r.get("hypothesis")
        rng = ""
        if r.get("d128_over_d64_lo") is not None and r.get("d128_over_d64_hi") is not None:
            rng = " [%.2f, %.2f]" % (r["d128_over_d64_lo"], r["d128_over_d64_hi"])
        parts.append("%s %.2fx%s" % (label, r["d128_over_d64"], rng))
    return Row("translation cost per access with D128 at the guest, the host or both, "
               "%s pages, %s" % (backing.upper(), hb(ws)), "-", "-", "; ".join(parts),
               "modelled",
               "two-stage walk simulator fitted to this run's tlb sweep, structure %s chosen by "
               "held-out error (`ptbench model walk calibrate`) among those the recorded "
               "environment allows; ranges: bootstrap over repetitions and the structures and "
               "sizes that pass cross-validation (at most 8), this run's only: a later run on a "
               "host that drifts may fall outside them (`ptbench model walk combine` sets "
               "runs side by side); leaves out %s"
               % (hyp or "-", NESTED_LEAVES_OUT))


def _num(v):
    """As reporttext.num: thousands separated, else 4 significant digits."""
    return "{:,.0f}".format(v) if abs(v) >= 1e4 else "%.4g" % v


def _span(values, fmt):
    lo, hi = min(values), max(values)
    return fmt(lo) if lo == hi else "%s to %s" % (fmt(lo), fmt(hi))


def _block_rows(run, geo, why):
    if geo is None:
        return [Row("huge-page (block) sizes", "-", "-", "-", "not available", why)]
    page = int(geo["D64"]["pte"]["table_bytes"]) if "pte" in geo["D64"] else 0
    pmd_meta = run.meta_get("regime", "pmd_size")
    pmd64 = int(pmd_meta) if pmd_meta else _level(geo, "D64", "pmd", "block_bytes")
    src = "meta.json regime.pmd_size" if pmd_meta else "geometry"
    pmd128 = _level(geo, "D128", "pmd", "block_bytes")
    pud64, pud128 = (_level(geo, f, "pud", "block_bytes") for f in ("D64", "D128"))
    pools = run.meta_get("env", "hugetlb_pools", default={}) or {}
    rows = [Row("PMD block: THP and the smaller hugetlb size", hb(pmd64), hb(pmd128),
                _ratio_text(pmd64, pmd128), "architecture (geometry)",
                "D64 from %s, D128 from `ptbench model geometry` for %s pages" % (
                    src, hb(page) if page else "these")),
            Row("PUD block: the larger hugetlb size", hb(pud64), hb(pud128),
                _ratio_text(pud64, pud128), "architecture (geometry)",
                "hugetlb pools on this machine: %s" % (", ".join(sorted(pools)) or "none"))]
    for name in ("pte", "pmd"):
        c64, c128 = (_level(geo, f, name, "cont_bytes") for f in ("D64", "D128"))
        if c64 or c128:
            rows.append(Row("contiguous run at %s level (arm64 contiguous bit)" % name.upper(),
                            hb(c64), hb(c128), _ratio_text(c64, c128),
                            "architecture (geometry)",
                            "%s x D64 / %s x D128 entries; x86-64 has no contiguous bit" % (
                                _level(geo, "D64", name, "cont_entries"),
                                _level(geo, "D128", name, "cont_entries"))))
    return rows


def _ratio_text(a, b):
    if not a or not b:
        return "-"
    if a == b:
        return "same"
    return "%gx" % (b / a) if b > a else "1/%g" % (a / b)


def _thp_row(run, pmd64, pmd128):
    """What the THP cases measured on this kernel, and the tables they
    would need under D128 (modelled)."""
    frac = [s for s in run.select(metric="thp_fraction")
            if s.param_map.get("backing") == "thp"]
    ns = run.select("thp", "ns_per_huge_fault")
    if not frac and not ns:
        return Row("THP cases measured", "-", "-", "-", "not available",
                   "the run has no thp_fraction or ns_per_huge_fault rows")
    parts = []
    if frac:
        meds = [s.summary().median for s in frac]
        parts.append("THP fraction %s over %d cases" % (_span(meds, lambda v: "%.2f" % v),
                                                         len(meds)))
    if ns:
        meds = [s.summary().median for s in ns]
        parts.append("%s ns per huge fault" % _span(meds, _num))
    ratios = [s.summary().median for s in run.select(metric="pgtable_d128_d64_ratio")
              if s.param_map.get("backing") == "thp"]
    d128 = change = "-"
    if ratios:
        d128 = "page tables %s of D64 (modelled)" % _span(ratios, lambda v: "%.2fx" % v)
        if pmd64 and pmd128 and pmd64 > pmd128:
            change = "a %s THP is %d blocks of %s: %dx the huge faults per GiB" % (
                hb(pmd64), pmd64 // pmd128, hb(pmd128), pmd64 // pmd128)
    return Row("THP cases measured (backing=thp)", "; ".join(parts) + " (measured)", d128,
               change, "measured D64; modelled D128 tables",
               "the fault cost of a D128 THP is not modelled")


def _operations_rows(run):
    return opcost.decision_rows(run, Row)


def rows(run):
    geo, why = geometry(run)
    out = [_pgtable_row(run)]
    out += [_translation_row(run, b) for b in ("4k", "thp")]
    out += [r for r in (_nested_row(run, b) for b in ("4k", "thp")) if r is not None]
    out += _block_rows(run, geo, why)
    pmd = run.meta_get("regime", "pmd_size")
    pmd64 = int(pmd) if pmd else (_level(geo, "D64", "pmd", "block_bytes") if geo else 0)
    out.append(_thp_row(run, pmd64, _level(geo, "D128", "pmd", "block_bytes") if geo else 0))
    out += _operations_rows(run)
    return out
