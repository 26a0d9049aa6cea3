#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# within.py DB PRIMARY: per timed ci primary metric, the median over runs of the
# spread inside one run (sd of ln of its repetitions), --cpu last against
# --cpu pick, from the history the A/B runs were added to.
import math
import sqlite3
import statistics
import sys

con = sqlite3.connect(sys.argv[1])
# primary.txt: "workload case metric" per line (../gate-serial/primary.txt)
keys = [l.split() for l in open(sys.argv[2]) if l.split() and l.split()[0] != 'pgtable']
print('%-40s %8s %8s' % ('within-run spread %', 'last', 'pick'))
meds = {'last': [], 'pick': []}
for wl, cs, m in keys:
    row = []
    for tag in ('last', 'pick'):
        per = []
        for (rid,) in con.execute("select id from runs where tag=?", (tag,)):
            v = [x for (x,) in con.execute("select value from rows where run_id=? and workload=? and cs=? "
                                           "and metric=?", (rid, wl, cs, m)) if x > 0]
            if len(v) > 2:
                per.append(statistics.stdev(math.log(x) for x in v))
        s = 100 * statistics.median(per)
        meds[tag].append(s)
        row.append(s)
    print('%-40s %8.1f %8.1f' % (wl + '/' + cs, row[0], row[1]))
print('median over %d metrics: last %.2f%%, pick %.2f%%; lower with pick for %d' % (
    len(meds['last']), statistics.median(meds['last']), statistics.median(meds['pick']),
    sum(p < l for l, p in zip(meds['last'], meds['pick']))))
