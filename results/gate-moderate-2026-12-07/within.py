#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""within.py DB AA.txt: per gated timed series of the aa output's 3-NEW
block, its between-run spread (the residual spread aa prints) against its
within-run spread (the sd of ln repetition inside the first 10 runs of tag
pvm1, pooled): does one predict the other? The covariate tried for the
moderated spread's prior (NOTES.md)."""
import math, re, sqlite3, statistics, sys
c = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
runs = [r[0] for r in c.execute("select id from runs where tag='pvm1' order by started_utc")][:10]
spread = {}
sec = open(sys.argv[2]).read().split('injected into 3 NEW')[1].split('\n\n')[0]
for m in re.finditer(r'^\s+(\S+)\s+(\S+)\s+(\S+)\s+spread\s+([\d.]+)%', sec, re.M):
    spread[(m[1], m[2], m[3])] = math.log1p(float(m[4]) / 100)
xs, ys = [], []
for (w, cs, met), s in spread.items():
    if s <= 0:
        continue
    ss, df = 0, 0
    for rid in runs:
        v = [math.log(r[0]) for r in c.execute(
            "select value from rows where run_id=? and workload=? and cs=? and metric=?",
            (rid, w, cs, met)) if r[0] > 0]
        if len(v) > 1:
            mu = statistics.mean(v)
            ss += sum((x - mu) ** 2 for x in v)
            df += len(v) - 1
    if df:
        xs.append(math.log(ss / df)); ys.append(2 * math.log(s))
        print(f'{w:9} {cs:30} between {s*100:5.2f}% within {math.sqrt(ss/df)*100:6.2f}%')
n = len(xs); mx, my = statistics.mean(xs), statistics.mean(ys)
b = sum((x-mx)*(y-my) for x, y in zip(xs, ys)) / sum((x-mx)**2 for x in xs)
res = [y - my - b*(x-mx) for x, y in zip(xs, ys)]
print(f'n {n}: ln var between on ln var within: slope {b:.3f}, r {statistics.correlation(xs, ys):.3f}; '
      f'sd of ln var between {statistics.stdev(ys):.3f}, of its residual {statistics.stdev(res):.3f}')
