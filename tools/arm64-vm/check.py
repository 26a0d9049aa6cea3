#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a ptbench run directory made inside the arm64 VM (tools/arm64-vm.sh).

1. meta.json's regime is the expected one (arch aarch64, page size, format,
   VA bits);
2. every case ran and passed its verification (status "ok"; skipped cases
   are listed and fail the check unless --allow-skipped);
3. for every case and repetition, the page-table model's running-format
   bytes (pgtable_bytes_model_running) are within one table page (one base
   page) of the kernel's VmPTE (pgtable_bytes_kernel_total). Cases that
   record no point at all (the multi-process fault cases) are listed.

Prints one line per failure and a summary; exit 0 all passed, 1 a check
failed, 2 bad usage or an unreadable run directory.
"""
import argparse
import csv
import json
import os
import re
import sys


def fail_usage(msg):
    print(f"check.py: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_expect(text):
    m = re.fullmatch(r"(4|16|64)K,D(64|128),(\d+)", text)
    if not m:
        fail_usage(f"--expect: '{text}' is not like 4K,D64,48")
    return int(m.group(1)) * 1024, "D" + m.group(2), int(m.group(3))


def load(run):
    meta_path = os.path.join(run, "meta.json")
    csv_path = os.path.join(run, "results.csv")
    for p in (meta_path, csv_path):
        if not os.path.isfile(p):
            fail_usage(f"'{run}' has no {os.path.basename(p)}")
    try:
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
        with open(csv_path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError) as e:
        fail_usage(f"'{run}': {e}")
    return meta, rows


def check_regime(meta, page, fmt, va, errors):
    rg = meta.get("regime") or {}
    want = {"arch": "aarch64", "page_size": page, "format": fmt, "va_bits": va}
    for key, val in want.items():
        if rg.get(key) != val:
            errors.append(f"regime: {key} is {rg.get(key)!r}, expected {val!r}")
    return rg.get("text", "?")


def check_cases(meta, allow_skipped, errors):
    cases = meta.get("cases") or []
    if not cases:
        errors.append("meta.json lists no cases")
    counts = {}
    for c in cases:
        st = c.get("status")
        counts[st] = counts.get(st, 0) + 1
        if st == "ok" or (st == "skipped" and allow_skipped):
            continue
        notes = "; ".join(c.get("notes") or [])
        errors.append(f"case {c.get('workload')}/{c.get('case')}: {st}"
                      + (f" ({notes})" if notes else ""))
    return cases, counts


def check_model(cases, rows, page, errors, nopoint):
    """Model vs VmPTE per (workload, case, rep); returns the worst ratio.

    A case that records no page-table point at all (the multi-process fault
    cases: each process has its own tables, README "fault") goes to nopoint;
    a point with the kernel's figure but not the model's is a failure.
    """
    model, kernel = {}, {}
    for r in rows:
        key = (r["workload"], r["case"], r["rep"])
        if r["metric"] == "pgtable_bytes_model_running":
            model[key] = float(r["value"])
        elif r["metric"] == "pgtable_bytes_kernel_total":
            kernel[key] = float(r["value"])
    worst = None
    offsets = {}
    for c in cases:
        if c.get("status") != "ok":
            continue
        name = (c.get("workload"), c.get("case"))
        keys = sorted(k for k in kernel if k[:2] == name)
        if not keys:
            if any(k[:2] == name for k in model):
                errors.append(f"case {name[0]}/{name[1]}: a model figure but no VmPTE")
            else:
                nopoint.append(f"{name[0]}/{name[1]}")
            continue
        for k in keys:
            if k not in model:
                errors.append(f"case {name[0]}/{name[1]} rep {k[2]}: no model figure")
                continue
            m, v = model[k], kernel[k]
            ratio = m / v if v else float("inf")
            off = round((m - v) / page, 2)
            offsets[off] = offsets.get(off, 0) + 1
            if worst is None or abs(ratio - 1) > abs(worst[0] - 1):
                worst = (ratio, m, v, k)
            if abs(m - v) > page:
                errors.append(f"case {name[0]}/{name[1]} rep {k[2]}: model {m:.0f} B vs "
                              f"VmPTE {v:.0f} B (ratio {ratio:.4f}): off by "
                              f"{(m - v) / page:+.2f} table pages")
    return worst, offsets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="the run directory (holds meta.json, results.csv)")
    ap.add_argument("--expect", default="4K,D64,48",
                    help="expected regime PAGE,FORMAT,VA_BITS (default 4K,D64,48)")
    ap.add_argument("--allow-skipped", action="store_true",
                    help="a skipped case does not fail the check")
    a = ap.parse_args()
    page, fmt, va = parse_expect(a.expect)
    meta, rows = load(a.run)
    errors = []
    text = check_regime(meta, page, fmt, va, errors)
    cases, counts = check_cases(meta, a.allow_skipped, errors)
    nopoint = []
    worst, offsets = check_model(cases, rows, page, errors, nopoint)
    for e in errors:
        print(f"check: FAIL {e}")
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=str))
    print(f"check: regime {text}; {len(cases)} cases: {summary}")
    if nopoint:
        print(f"check: {len(nopoint)} cases record no page-table point: {', '.join(nopoint)}")
    if offsets:
        print("check: model - VmPTE in table pages, over every case and rep: "
              + ", ".join(f"{k:+g}: {n}" for k, n in sorted(offsets.items())))
    if worst:
        ratio, m, v, k = worst
        print(f"check: worst model/VmPTE ratio {ratio:.6f} ({k[0]}/{k[1]} rep {k[2]}: "
              f"model {m:.0f} B, VmPTE {v:.0f} B)")
    print(f"check: {'passed' if not errors else f'{len(errors)} failures'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
