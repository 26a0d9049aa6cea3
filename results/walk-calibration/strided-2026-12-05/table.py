#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Median ns per access of the tlb chases by working set and stride, and
the pages each chase visits, from results.csv beside this script (or the
file named): the table in ../NOTES.md, 2026-12-05 (strided chases)."""
import csv
import os
import statistics
import sys

UNIT = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
KINDS = [("4k", "chase-4k-", 1), ("half", "chase-half-", 2),
         ("quarter", "chase-quarter-", 4)]


def size(s):
    return int(s[:-1]) * UNIT[s[-1]]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results.csv")
    vals = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["workload"] == "tlb" and r["metric"] == "ns_per_access":
                vals.setdefault(r["case"], []).append(float(r["value"]))
    sizes = sorted({c.rsplit("-", 1)[1] for c in vals}, key=size)
    print("| ws | " + " | ".join("%s ns (pages)" % k for k, _, _ in KINDS) + " |")
    print("|---" * (len(KINDS) + 1) + "|")
    for s in sizes:
        cells = []
        for _, prefix, stride in KINDS:
            v = vals.get(prefix + s)
            cells.append("%.2f (%d)" % (statistics.median(v), size(s) // 4096 // stride)
                         if v else "")
        print("| %s | %s |" % (s, " | ".join(cells)))


if __name__ == "__main__":
    main()
