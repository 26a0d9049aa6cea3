#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Serial correlation of the ci primary metrics between consecutive runs.

ac.py DB TAG, in the directory of primary.txt (workload case metric, one
per line): each run's statistic of each series is the 20% trimmed mean of
its log repetitions (no round effect), less the series' median over the
runs; a run effect (the median over the timed series) is regressed out of
each series; then the autocorrelation of the residuals at lags 1, 2, 3, 5 and 10 over
the runs in start order, and the same for shuffled runs (NOTES.md).
"""
import sqlite3, math, statistics as st, sys
db = sys.argv[1]; tag = sys.argv[2]
prim = [tuple(l.split()) for l in open('primary.txt')]
con = sqlite3.connect(db)
runs = [r[0] for r in con.execute("select id from runs where tag=? order by started_utc", (tag,))]
def tmean(v, f=0.2):
    v = sorted(math.log(x) for x in v if x > 0)
    k = int(len(v) * f)
    v = v[k:len(v) - k] if len(v) - 2 * k > 0 else v
    return sum(v) / len(v)
Y = {}
for w, c, m in prim:
    ys = []
    for r in runs:
        v = [x for (x,) in con.execute("select value from rows where run_id=? and workload=? and cs=? and metric=?", (r, w, c, m))]
        ys.append(tmean(v) if v else float('nan'))
    Y[(w, c, m)] = ys
timed = [k for k in Y if not k[2].startswith('pgtable')]
dev = {k: [y - st.median(Y[k]) for y in Y[k]] for k in timed}
n = len(runs)
eff = [st.median(dev[k][i] for k in timed) for i in range(n)]
def ac(x, lag):
    m = sum(x) / len(x); d = [a - m for a in x]
    return sum(d[i] * d[i + lag] for i in range(len(x) - lag)) / sum(a * a for a in d)
res = {}
for k in timed:
    y = dev[k]; mx = sum(eff) / n; my = sum(y) / n
    b = sum((e - mx) * (v - my) for e, v in zip(eff, y)) / sum((e - mx) ** 2 for e in eff)
    res[k] = [v - my - b * (e - mx) for e, v in zip(eff, y)]
for lag in (1, 2, 3, 5, 10):
    a = [ac(res[k], lag) for k in timed]
    print('lag %d: residual autocorrelation median %.3f mean %.3f (of %d series); run effect %.3f' % (lag, st.median(a), sum(a) / len(a), len(a), ac(eff, lag)))
print('per series lag1:')
for k in timed:
    print('  %-10s %-28s %.2f %.2f' % (k[0], k[1], ac(res[k], 1), ac(res[k], 2)))
# null: shuffle
import random
random.seed(1)
a0 = []
for t in range(200):
    perm = list(range(n)); random.shuffle(perm)
    a0.append(st.median(ac([res[k][p] for p in perm], 1) for k in timed))
a0.sort(); print('shuffled median lag1: 5-95%% %.3f %.3f' % (a0[10], a0[189]))
