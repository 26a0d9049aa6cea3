# SPDX-License-Identifier: GPL-2.0-only
# Between-run spread of each ci primary metric split into run-to-run noise
# inside a half-hour block and drift between the five blocks (09:44-14:17).
# Run statistic: the 20% trimmed mean of ln(value) over the repetitions
# (the gate's, without its round effect); "after run effect": less the
# run's median deviation over all series (the gate's one run effect, slope 1).
import sqlite3, sys, re, numpy as np
db = sqlite3.connect(sys.argv[1])
series = []
for line in open(sys.argv[2]):
    m = re.match(r"\s+(\S+)\s+(\S+)\s+(\S+)\s+spread", line)
    if m and (m.group(1), m.group(2), m.group(3)) not in series:
        series.append((m.group(1), m.group(2), m.group(3)))
tag = sys.argv[3] if len(sys.argv) > 3 else "r20"
cuts = sys.argv[4:] if len(sys.argv) > 4 else ["11:00", "11:50", "12:45", "13:40"]
nb = len(cuts) + 1
runs = db.execute("select id, started_utc from runs where tag=? order by started_utc", (tag,)).fetchall()
def block(t):
    # a cut with a date (2026-12-06T23:00) compares whole timestamps, so
    # a block may run past midnight; HH:MM compares the time of day
    return sum((t if "T" in c else t[11:16]) > c for c in cuts)
B = np.array([block(t) for _, t in runs])
def tmean(v, f=0.2):
    v = np.sort(v); k = int(f * len(v)); return v[k:len(v) - k].mean()
X = np.full((len(runs), len(series)), np.nan)
for i, (rid, _) in enumerate(runs):
    for j, (w, c, m) in enumerate(series):
        v = [r[0] for r in db.execute("select value from rows where run_id=? and workload=? and cs=? and metric=?", (rid, w, c, m))]
        if len(v) >= 3 and min(v) > 0:
            X[i, j] = tmean(np.log(v))
def decompose(X):
    out = []
    for j in range(X.shape[1]):
        x = X[:, j]; ok = ~np.isnan(x)
        wv, n, means = 0.0, 0, []
        for b in range(nb):
            xb = x[ok & (B == b)]
            if len(xb) < 3: continue
            wv += ((xb - xb.mean()) ** 2).sum(); n += len(xb) - 1; means.append(xb.mean())
        within = np.sqrt(wv / n)
        between = np.std(means, ddof=1)
        total = np.std(x[ok], ddof=1)
        out.append((within, between, total))
    return np.array(out)
raw = decompose(X)
dev = X - np.nanmedian(X, axis=0)
eff = np.nanmedian(dev, axis=1)
adj = decompose(X - eff[:, None])
print(f"{len(runs)} runs, blocks {np.bincount(B).tolist()}, {len(series)} series")
print(f"{'series':44s} {'raw: within':>12s} {'between':>8s} {'total':>6s} | {'run eff: within':>15s} {'between':>8s} {'total':>6s}")
for (w, c, m), r, a in zip(series, raw, adj):
    print(f"{w+'/'+c:44s} {r[0]*100:11.1f}% {r[1]*100:7.1f}% {r[2]*100:5.1f}% | {a[0]*100:14.1f}% {a[1]*100:7.1f}% {a[2]*100:5.1f}%")
print(f"{'median':44s} {np.median(raw[:,0])*100:11.1f}% {np.median(raw[:,1])*100:7.1f}% {np.median(raw[:,2])*100:5.1f}% | {np.median(adj[:,0])*100:14.1f}% {np.median(adj[:,1])*100:7.1f}% {np.median(adj[:,2])*100:5.1f}%")
print("block run effect (median ln deviation, %):", [round(float(np.mean(eff[B == b])) * 100, 1) for b in range(nb)])
# each block's mean after the run effect, against the mean of the blocks before it
print(f"\n{'after run effect, last block - earlier blocks':44s} {'shift':>7s}")
A = X - eff[:, None]
last, before = B == nb - 1, B < nb - 1
sh = [np.nanmean(A[last, j]) - np.nanmean(A[before, j]) for j in range(len(series))]
for (w, c, m), d in sorted(zip(series, sh), key=lambda x: -x[1]):
    print(f"{w+'/'+c:44s} {d*100:6.1f}%")
