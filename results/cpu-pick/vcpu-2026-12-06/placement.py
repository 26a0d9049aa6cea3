#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Run in the folder runs.tar.gz unpacks to (x/, A1..C5); NOTES.md says what it prints.
import csv, glob, statistics as st, sys, math
rows = {}
for d in sorted(glob.glob('[ABC][0-9]')):
    for r in csv.reader(open(d + '/results.csv')):
        if len(r) > 6 and r[4] == 'ns_per_fault':
            rows.setdefault((r[1], d[0]), {}).setdefault(d, []).append(float(r[5]))
for (case, cfg), runs in sorted(rows.items()):
    meds = [st.median(v) for v in runs.values()]
    allv = sorted(x for v in runs.values() for x in v)
    fast = allv[len(allv) // 10]
    slow = sum(x > 1.2 * fast for x in allv) / len(allv)
    lm = [math.log(m) for m in meds]
    print("%-26s %s  run medians %s  between-run sd %.1f%%  reps >1.2x p10: %.0f%%" % (
        case, cfg, ' '.join('%.0f' % m for m in meds), 100 * st.stdev(lm) if len(lm) > 1 else 0, 100 * slow))
