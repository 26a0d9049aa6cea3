# SPDX-License-Identifier: GPL-2.0-only
# Tried and dropped: a pool gate whose null distribution has the pool's own
# tails. The numpy re-implementation of the pool gate (one run effect, no
# round effect, 20% trimmed means; as ../gate-split-effect/prototype.py)
# judged two ways: Student's t with k - 2 degrees of freedom (what
# ptbench does), and a null simulated from residuals sigma_j * t_nu, nu
# shared by every series and fitted by maximum likelihood on the pool's
# residuals only (each series its own scale), so that one run's excursion
# of one series, which the pool shows as heavy tails, needs a larger t.
# A/A on each run after the pool alone; 10% injected into the 3 runs after
# the pool and into the first alone; timings only (45 series).
# Needs Debian's python3-numpy and python3-scipy (/usr/bin/python3).
#   python3 tails.py RUNS LIST [POOL]   (LIST: ptbench list --suite ci)
import math
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import numpy as np
from scipy import stats
from ci_runs import gated_series, read_runs  # noqa: E402

runs_dir, list_path = sys.argv[1], sys.argv[2]
POOL = int(sys.argv[3]) if len(sys.argv) > 3 else 30
TRIM = 0.2
gated = gated_series(list_path)
TIMED = {'ns', 'us', 'ms', 's'}
def keep(row):
    k = (row['workload'], row['case'], row['metric'])
    return k in gated and row['unit'] in TIMED
runs = read_runs(runs_dir, keep)
keys = sorted(set().union(*[set(v) for _, v in runs]))
def tmean(v):
    x = np.sort(np.log(v)); n = len(x); c = int(math.floor(TRIM * n + 1e-9))
    return x[c:n - c].mean()
Y = np.array([[tmean(v[k]) if k in v else np.nan for k in keys] for _, v in runs])
nr, nk = Y.shape
rng = np.random.default_rng(1)

def effects(Yw, pool_idx):
    med = np.nanmedian(Yw[pool_idx], axis=0)
    D = Yw - med
    out = []
    for j in range(nk):
        m = np.ones(nk, bool); m[j] = False
        out.append(np.nanmedian(D[:, m], axis=1))
    return out

def fit_nu(R):
    """R: pool residuals (k x m), each column its own scale. Shared nu by profile ML."""
    best = None
    for nu in [1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 30, 1000]:
        ll = 0
        for j in range(R.shape[1]):
            r = R[:, j]; r = r[~np.isnan(r)]
            # ML scale for t_nu by fixed point (EM)
            s = np.std(r) + 1e-12
            for _ in range(50):
                w = (nu + 1) / (nu + (r / s) ** 2)
                s = math.sqrt(np.mean(w * r * r)) + 1e-12
            ll += stats.t.logpdf(r / s, nu).sum() - len(r) * math.log(s)
        if best is None or ll > best[1]:
            best = (nu, ll)
    return best[0]

NULL = {}
def null_T(nu, k, n, df):
    key = (nu, k, n, df)
    if key not in NULL:
        S = 200000
        p = stats.t.rvs(nu, size=(S, df + 1), random_state=rng) if nu < 1000 else rng.standard_normal((S, df + 1))
        q = stats.t.rvs(nu, size=(S, n), random_state=rng) if nu < 1000 else rng.standard_normal((S, n))
        s = p.std(axis=1, ddof=1)
        T = (q.mean(1) - p.mean(1)) / (s * math.sqrt(1 / n + 1 / k))
        NULL[key] = np.sort(T)
    return NULL[key]

def judge(Y, pool_idx, new_idx, tail, inj=None, alpha=0.01, thr=5.0, nu=None):
    Yw = Y.copy()
    if inj is not None:
        Yw[np.ix_(new_idx, [inj[0]])] += math.log(inj[1])
    E = effects(Yw, pool_idx)
    ps, ch, dets = [], [], []
    for j in range(nk):
        X = np.stack([np.ones(nr), E[j]], 1)
        Xp, yp = X[pool_idx], Yw[pool_idx, j]
        b, *_ = np.linalg.lstsq(Xp, yp, rcond=None)
        res = yp - Xp @ b
        df = len(pool_idx) - 2
        s = math.sqrt(res @ res / df)
        xn = X[new_idx].mean(0)
        h = xn @ np.linalg.solve(Xp.T @ Xp, xn)
        d = Yw[new_idx, j].mean() - xn @ b
        se = s * math.sqrt(1 / len(new_idx) + h)
        t = d / se
        if tail:
            N = null_T(nu, len(pool_idx), len(new_idx), df)
            p = (len(N) - np.searchsorted(N, t) + 1) / (len(N) + 1)
            crit = N[int(len(N) * (1 - alpha / nk))]
        else:
            p = stats.t.sf(t, df); crit = stats.t.isf(alpha / nk, df)
        ps.append(p); ch.append((math.exp(d) - 1) * 100)
        dets.append((math.exp(crit * se) - 1) * 100)
    ps = np.array(ps); o = np.argsort(ps); m = len(ps)
    adj = np.empty(m); run = 0
    for r, i in enumerate(o):
        run = max(run, min(1, (m - r) * ps[i])); adj[i] = run
    fired = [j for j in range(nk) if adj[j] < alpha and ch[j] > thr]
    return fired, np.median(np.maximum(dets, thr)), ch

pool = list(range(POOL))
# nu from the pool's residuals only
E = effects(Y, pool)
R = np.empty((POOL, nk))
for j in range(nk):
    X = np.stack([np.ones(POOL), E[j][pool]], 1)
    b, *_ = np.linalg.lstsq(X, Y[pool, j], rcond=None)
    R[:, j] = Y[pool, j] - X @ b
nu = fit_nu(R)
print('fitted nu', nu)
for tail in [False, True]:
    aa = 0; fl = []
    for r in range(POOL, nr):
        f, _, ch = judge(Y, pool, [r], tail, nu=nu)
        if f:
            aa += 1; fl.append(runs[r][0] + ':' + ','.join('%s%+.0f' % (keys[j][1], ch[j]) for j in f))
    new3 = list(range(POOL, min(POOL + 3, nr)))
    caught = 0; det = None
    for j in range(nk):
        f, det3, _ = judge(Y, pool, new3, tail, inj=(j, 1.10), nu=nu)
        caught += j in f
        if j == 0: det = det3
    c1 = sum(j in judge(Y, pool, [POOL], tail, inj=(j, 1.10), nu=nu)[0] for j in range(nk))
    print('%-5s A/A %2d/%d  caught3 %2d/%d  caught1 %2d  det3 %.1f%%' % ('tail' if tail else 't', aa, nr - POOL, caught, nk, c1, det))
    for x in fl: print('      ', x)
