# SPDX-License-Identifier: GPL-2.0-only
"""calib.py LO HI DIR...: 20000 draws of 10 against 10 from the pooled
within-run ln residuals (from each series' median) of the fault series of
the runs under each DIR; how often Yuen's test trimmed (LO, HI) gives p
below each level."""
import glob, math, os, random, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yuen import *
lo, hi = float(sys.argv[1]), float(sys.argv[2])
dirs = sys.argv[3:]
# pooled within-run residuals (log, from each series' median), fault series only
res = []
for d in dirs:
    for run in sorted(glob.glob(d + '/*/results.csv')):
        v = load(run[:-12])
        for c, s in v.items():
            if c[0] != 'fault': continue
            m = statistics.median(s.values())
            res += [x - m for x in s.values()]
rng = random.Random(1)
N = 20000
cnt = {0.05: 0, 0.01: 0, 1e-3: 0, 5.6e-4: 0, 1e-4: 0}
for _ in range(N):
    a = [rng.choice(res) for _ in range(10)]; b = [rng.choice(res) for _ in range(10)]
    p, _ = yuen_p(a, b, lo, hi)
    for k in cnt: cnt[k] += p < k
print('trim', lo, hi, 'residuals', len(res), ' '.join('P(p<%g)=%.5f' % (k, c / N) for k, c in cnt.items()))
