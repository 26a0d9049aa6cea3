# SPDX-License-Identifier: GPL-2.0-only
"""run.py LO HI on|off DIR...: the sketch's self-copy (x1.10, Holm over the
run's series at alpha 0.01) and A/A pairs (1-2, 3-4, ...; Holm, 5%
threshold) with Yuen's test trimmed (LO, HI), the round effect on or off,
over the runs under each DIR (DIR/*/results.csv)."""
import glob, math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yuen import *
lo, hi, rnd = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == 'on'
dirs = sys.argv[4:]
alpha = 0.01
# self-copy
caught = tot = 0; c4 = t4 = 0
for d in dirs:
    for run in sorted(glob.glob(d + '/*/results.csv')):
        run = run[:-12]
        v = load(run)
        if rnd: v = adjust(v)
        m = sum(1 for c in v if len(set(v[c].values())) > 1)
        for c in v:
            a = list(v[c].values()); b = [x + math.log(1.1) for x in a]
            p, _ = yuen_p(a, b, lo, hi)
            ok = p * m < alpha
            caught += ok; tot += 1
            if c[1] == 'anon-write-4k-64M': c4 += ok; t4 += 1
# A/A pairs
fired = pairs = 0
for d in dirs:
    runs = [r[:-12] for r in sorted(glob.glob(d + '/*/results.csv'))]
    for i in range(0, len(runs) - 1, 2):
        va, vb = load(runs[i]), load(runs[i + 1])
        if rnd: va, vb = adjust(va), adjust(vb)
        ps = []
        for c in va:
            if c not in vb: continue
            p, diff = yuen_p(list(va[c].values()), list(vb[c].values()), lo, hi)
            ps.append((p, diff))
        m = len(ps)
        ps.sort()
        # holm step-down, threshold 5% change
        f = False
        for j, (p, diff) in enumerate(ps):
            if p * (m - j) >= alpha: break
            if math.exp(diff) - 1 >= 0.05: f = True
        fired += f; pairs += 1
print('trim %g,%g rounds %s: self-copy %d/%d (%.1f%%), anon4k %d/%d; A/A %d/%d' % (lo, hi, 'on' if rnd else 'off', caught, tot, 100*caught/tot, c4, t4, fired, pairs))
