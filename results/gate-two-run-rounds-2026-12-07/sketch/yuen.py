# SPDX-License-Identifier: GPL-2.0-only
"""The Python sketch rule-yuen.txt speaks of (first written in /tmp and not
meant to be kept; kept here so its figures can be made again): Yuen's test
with its own incomplete beta function, a run's primary ns series as logs,
and the round effect as analysis/pool_rounds.c computes it."""
import csv, json, math, statistics, sys, glob, os, collections

def betacf(a, b, x):
    MAXIT, EPS, FPMIN = 300, 3e-14, 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > FPMIN else FPMIN); h = d
    for m in range(1, MAXIT + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d; d = FPMIN if abs(d) < FPMIN else d
        c = 1 + aa / c; c = FPMIN if abs(c) < FPMIN else c
        d = 1 / d; h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d; d = FPMIN if abs(d) < FPMIN else d
        c = 1 + aa / c; c = FPMIN if abs(c) < FPMIN else c
        d = 1 / d; de = d * c; h *= de
        if abs(de - 1) < EPS: break
    return h

def ibeta(a, b, x):
    if x <= 0: return 0.0
    if x >= 1: return 1.0
    bt = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2): return bt * betacf(a, b, x) / a
    return 1 - bt * betacf(b, a, 1 - x) / b

def t_sf(t, df):  # P(T > t)
    x = df / (df + t * t)
    p = 0.5 * ibeta(df / 2, 0.5, x)
    return p if t > 0 else 1 - p

def yuen_parts(x, lo, hi):
    x = sorted(x); n = len(x)
    gl, gh = int(math.floor(lo * n)), int(math.floor(hi * n))
    h = n - gl - gh
    tm = sum(x[gl:n - gh]) / h
    w = [x[gl]] * gl + x[gl:n - gh] + [x[n - gh - 1]] * gh
    wm = sum(w) / n
    sw = sum((v - wm) ** 2 for v in w) / (n - 1)
    d = (n - 1) * sw / (h * (h - 1))
    return tm, d, h

def yuen_p(a, b, lo, hi):  # one-sided: b slower than a
    ta, da, ha = yuen_parts(a, lo, hi); tb, db, hb = yuen_parts(b, lo, hi)
    se2 = da + db
    if se2 <= 0: return 0.0 if tb > ta else 1.0
    t = (tb - ta) / math.sqrt(se2)
    df = se2 ** 2 / (da ** 2 / (ha - 1) + db ** 2 / (hb - 1))
    return t_sf(t, df), (tb - ta)

def load(run):
    meta = json.load(open(run + '/meta.json'))
    prim = {(c['workload'], c['case']): c['primary_metric'] for c in meta['cases']}
    v = collections.defaultdict(dict)
    for r in csv.DictReader(open(run + '/results.csv')):
        if prim.get((r['workload'], r['case'])) == r['metric'] and r['unit'] == 'ns':
            v[(r['workload'], r['case'])][int(r['rep'])] = math.log(float(r['value']))
    return v

def adjust(v):
    dev = {c: {k: x - statistics.median(d.values()) for k, x in d.items()} for c, d in v.items()}
    out = {}
    for c, d in v.items():
        mates = [o for o in v if o != c and o[0] == c[0]]
        if len(mates) < 2: mates = [o for o in v if o != c]
        out[c] = {k: x - statistics.median([dev[o][k] for o in mates if k in dev[o]]) for k, x in d.items()}
    return out
