#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Per case of a probe.c output: repetitions, the case's median and range,
the probe's median, and the correlation over the repetitions of the
case's ns per load with the probe's before, after and the larger of the
two. Usage: probecorr.py probe-cold.txt probe-warm.txt"""
import collections
import sys

import numpy as np

for path in sys.argv[1:]:
    rows = collections.defaultdict(list)
    with open(path) as f:
        next(f)
        for line in f:
            _t, case, before, ns, after = line.split()
            rows[case].append((float(before), float(ns), float(after)))
    print(path)
    for case, v in rows.items():
        a = np.array(v)
        corr = [np.corrcoef(x, a[:, 1])[0, 1] if np.std(x) > 0 and np.std(a[:, 1]) > 0
                else float("nan") for x in (a[:, 0], a[:, 2], np.maximum(a[:, 0], a[:, 2]))]
        print("  %-16s n=%2d case median %4.0f [%4.0f, %4.0f] probe median %4.0f  "
              "corr before %+.2f after %+.2f max %+.2f" %
              (case, len(a), np.median(a[:, 1]), a[:, 1].min(), a[:, 1].max(),
               np.median(np.maximum(a[:, 0], a[:, 2])), *corr))
