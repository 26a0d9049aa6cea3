#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarize bench.sh output: per case and --threads, each round's median
M accesses/s (wall) and the M accesses per CPU second."""
import re
import sys
from collections import defaultdict

rows = defaultdict(list)
for line in open(sys.argv[1]):
    m = re.search(r"round=(\d+) case=(\S+) threads=(\S+) .* maccesses_per_s=([\d.]+)", line)
    if m:
        # the nested bench prints no CPU time
        c = re.search(r"maccesses_per_cpu_s=([\d.]+)", line)
        rows[(m.group(2), m.group(3))].append((float(m.group(4)),
                                               float(c.group(1)) if c else None))
for (case, th), v in sorted(rows.items()):
    wall = " ".join(f"{w:.2f}" for w, _ in v)
    cpu = " ".join("-" if c is None else f"{c:.2f}" for _, c in v)
    print(f"{case:16} threads={th:4}  wall M/s by round: {wall:24}  per CPU s: {cpu}")
