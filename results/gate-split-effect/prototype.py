# SPDX-License-Identifier: GPL-2.0-only
# The prototype the split run effect was designed with (before ptbench had
# it): the pool gate re-done in numpy on each run's 20% trimmed mean of log
# repetitions, without the round effect, with the run effect as one median
# ('all', what ptbench does), the kernel families' median only ('own'), two
# medians ('two', what --run-effect split became) or one median plus the
# kernel one ('allk'); 'none' is the raw test. Pool of the first P runs;
# A/A on each later run alone; 10% injected into the 3 runs after the pool
# and the first alone. Timings only (45 series), so counts are of 45.
# Needs Debian's python3-numpy and python3-scipy (/usr/bin/python3).
#   python3 prototype.py RUNS LIST [POOL]   (LIST: ptbench list --suite ci)
import math
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import numpy as np
from scipy import stats
from ci_runs import gated_series, read_runs

runs_dir, list_path = sys.argv[1], sys.argv[2]
POOL = int(sys.argv[3]) if len(sys.argv) > 3 else 30
TRIM = 0.2
gated = gated_series(list_path)
TIMED = {'ns', 'us', 'ms', 's'}
units = {}
def keep(row):
    k = (row['workload'], row['case'], row['metric'])
    if k in gated and row['unit'] in TIMED:
        units[k] = row['unit']; return True
    return False
runs = read_runs(runs_dir, keep)
keys = sorted(set().union(*[set(v) for _, v in runs]))
def tmean(v):
    x = np.sort(np.log(v)); n = len(x); c = int(math.floor(TRIM * n + 1e-9))
    return x[c:n - c].mean()
Y = np.array([[tmean(v[k]) if k in v else np.nan for k in keys] for _, v in runs])
KERNEL = {'fault', 'mprotect', 'fork', 'munmap', 'thp'}
grp = np.array([0 if k[0] in KERNEL else 1 for k in keys])
nr, nk = Y.shape

def covs(Y, pool_idx, mode):
    med = np.nanmedian(Y[pool_idx], axis=0)
    D = Y - med
    out = []
    for j in range(nk):
        m = np.ones(nk, bool); m[j] = False
        if mode == 'none':
            X = np.zeros((nr, 0))
        elif mode == 'all':
            X = np.nanmedian(D[:, m], axis=1)[:, None]
        elif mode == 'own':
            X = np.nanmedian(D[:, m & (grp == grp[j])], axis=1)[:, None]
        elif mode == 'two':
            X = np.stack([np.nanmedian(D[:, m & (grp == 0)], axis=1),
                          np.nanmedian(D[:, m & (grp == 1)], axis=1)], 1)
        elif mode == 'allk':
            X = np.stack([np.nanmedian(D[:, m], axis=1),
                          np.nanmedian(D[:, m & (grp == 0)], axis=1)], 1)
        out.append(X)
    return out

def judge(Y, pool_idx, new_idx, mode, inj=None, alpha=0.01, thr=5.0):
    """inj: (j, factor) added to new runs' series j. Returns list of fired keys, detectables."""
    Yw = Y.copy()
    if inj is not None:
        Yw[np.ix_(new_idx, [inj[0]])] += math.log(inj[1])
    C = covs(Yw, pool_idx, mode)
    ps, ch, dets = [], [], []
    for j in range(nk):
        X = np.hstack([np.ones((nr, 1)), C[j]])
        Xp, yp = X[pool_idx], Yw[pool_idx, j]
        b, *_ = np.linalg.lstsq(Xp, yp, rcond=None)
        res = yp - Xp @ b
        df = len(pool_idx) - X.shape[1]
        s = math.sqrt(res @ res / df)
        xn = X[new_idx].mean(0)
        h = xn @ np.linalg.solve(Xp.T @ Xp, xn)
        d = Yw[new_idx, j].mean() - xn @ b
        se = s * math.sqrt(1 / len(new_idx) + h)
        t = d / se
        ps.append(stats.t.sf(t, df)); ch.append((math.exp(d) - 1) * 100)
        dets.append((math.exp(stats.t.isf(alpha / nk, df) * se) - 1) * 100)
    ps = np.array(ps); o = np.argsort(ps); m = len(ps)
    adj = np.empty(m); run = 0
    for r, i in enumerate(o):
        run = max(run, min(1, (m - r) * ps[i])); adj[i] = run
    fired = [j for j in range(nk) if adj[j] < alpha and ch[j] > thr]
    return fired, np.median(np.maximum(dets, thr)), ch

pool = list(range(POOL))
for mode in ['none', 'all', 'own', 'two', 'allk']:
    aa = 0; fl = []
    for r in range(POOL, nr):
        f, _, ch = judge(Y, pool, [r], mode)
        if f:
            aa += 1; fl.append(runs[r][0] + ':' + ','.join('%s%+.0f' % (keys[j][1], ch[j]) for j in f))
    new3 = list(range(POOL, min(POOL + 3, nr)))
    caught = 0; det = None
    for j in range(nk):
        f, det3, _ = judge(Y, pool, new3, mode, inj=(j, 1.10))
        caught += j in f
        if j == 0: det = det3
    c1 = sum(j in judge(Y, pool, [POOL], mode, inj=(j, 1.10))[0] for j in range(nk))
    print('%-5s A/A %2d/%d  caught3 %2d/%d  caught1 %2d  det3 %.1f%%' % (mode, aa, nr - POOL, caught, nk, c1, det))
    for x in fl: print('      ', x)
