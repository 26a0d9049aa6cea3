#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# spreads.py LAST PICK LAST_RAW PICK_RAW: each timed primary metric's
# between-run spread (the "spread" column of ptbench history aa) with
# --cpu last and --cpu pick, after the gate's defaults and raw, and the
# three figures of decision-rule.txt.
import statistics
import sys


def spreads(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 6 and f[3] == 'spread' and f[0] != 'pgtable':
            out.setdefault(f[0] + '/' + f[1], float(f[4].rstrip('%')))
    return out


last, pick, last_raw, pick_raw = (spreads(p) for p in sys.argv[1:5])
names = [n for n in last if n in pick]
print('%-40s %8s %8s %8s %8s' % ('metric (spread %)', 'last', 'pick', 'last raw', 'pick raw'))
for n in names:
    print('%-40s %8.1f %8.1f %8.1f %8.1f' % (n, last[n], pick[n], last_raw.get(n, float('nan')),
                                           pick_raw.get(n, float('nan'))))
med = lambda d: statistics.median(d[n] for n in names)
lower = sum(pick[n] < last[n] for n in names)
print('\nmetrics: %d' % len(names))
print('1. median spread after the defaults: last %.2f%%, pick %.2f%%' % (med(last), med(pick)))
print('2. median spread of the plain medians: last %.2f%%, pick %.2f%%' % (med(last_raw), med(pick_raw)))
print('3. lower with pick after the defaults: %d of %d' % (lower, len(names)))
