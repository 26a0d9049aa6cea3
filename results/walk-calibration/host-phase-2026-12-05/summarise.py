#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Per allocation of a phase.c output: its time, passes, median and 5th-95th
percentile ns per load, the share of passes under 150 ns (the fast state)
and the fastest 1-second stretch. Usage: summarise.py run-HHMM.txt..."""
import sys

import numpy as np

for path in sys.argv[1:]:
    d = np.loadtxt(path, skiprows=1, ndmin=2)
    print(path)
    for a in np.unique(d[:, 1]).astype(int):
        v = d[d[:, 1] == a]
        t, ns = v[:, 0], v[:, 2]
        secs = np.floor(t - t[0])
        per_s = [np.median(ns[secs == s]) for s in np.unique(secs)]
        print("  alloc %d: %5.0f-%5.0f s, %4d passes, median %3.0f ns [p5 %3.0f, p95 %3.0f], "
              "under 150 ns %3.0f%%, fastest second %3.0f ns" %
              (a, t[0], t[-1], len(v), np.median(ns), np.percentile(ns, 5),
               np.percentile(ns, 95), 100 * np.mean(ns < 150), min(per_s)))
