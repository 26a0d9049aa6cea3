#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# raw-spread.py DB TAG: each ci primary metric's between-run spread (sd of ln) of seven plain run statistics: trimmed mean 0.2, median, mean of the lowest 3, 2, the minimum, the 25th percentile, the mean of the lowest 5
# (reads ../../gate-serial/primary.txt by an absolute path of the development VM)
import sqlite3, sys, numpy as np
db, tag = sys.argv[1], sys.argv[2]
prim = [l.split() for l in open('/work/main/results/gate-serial/primary.txt')]
con = sqlite3.connect(db)
runs = [r[0] for r in con.execute("select id from runs where tag=? order by started_utc", (tag,))]
def stats(v):
    v = np.sort(np.log(v)); n = len(v)
    k = int(0.2*n)
    return dict(tm20=v[k:n-k].mean(), med=np.median(v), low3=v[:3].mean(), low2=v[:2].mean(),
                mn=v[0], q25=np.quantile(v,0.25), low5=v[:5].mean())
names = None; res = {}
for wl, cs, m in prim:
    per = []
    for r in runs:
        v = [x[0] for x in con.execute("select value from rows where run_id=? and workload=? and cs=? and metric=? order by rep", (r, wl, cs, m))]
        if len(v) < 5 or min(v) <= 0: per = None; break
        per.append(stats(np.array(v)))
    if per is None: continue
    names = list(per[0].keys())
    res[cs] = {s: (np.exp(np.std([p[s] for p in per], ddof=1)) - 1)*100 for s in names}
print("%-32s" % "case" + "".join("%8s" % s for s in names))
for cs, d in res.items():
    print("%-32s" % cs + "".join("%8.1f" % d[s] for s in names))
print("%-32s" % "MEDIAN" + "".join("%8.2f" % np.median([d[s] for d in res.values()]) for s in names))
print("%-32s" % "n<=3.4%" + "".join("%8d" % sum(d[s] <= 3.4 for d in res.values()) for s in names))
