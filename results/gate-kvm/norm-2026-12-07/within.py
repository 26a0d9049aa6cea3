# SPDX-License-Identifier: GPL-2.0-only
# within.py DB TAG POOL: per primary timing, the standard error of a run's
# median from its own repetitions (1.2533 * 1.4826 MAD / sqrt(n), log scale,
# median over runs) against the between-run spread (1.4826 MAD of run medians)
import sys, math, statistics as st
from pool_rows import rows, mad
vals = {k: {r: [math.log(x) for x in v] for r, v in d.items()}
        for k, d in rows(sys.argv[1], sys.argv[2], int(sys.argv[3])).items()
        if not k[2].endswith('_norm')}
ratios = []
for k in sorted(vals):
    d = vals[k]
    if len(d) < 10:
        continue
    se = st.median([1.2533 * mad(v) / math.sqrt(len(v)) for v in d.values() if len(v) > 3])
    meds = [st.median(v) for v in d.values()]
    b = mad(meds)
    print("%-9s %-28s %-20s within-run se %5.2f%%  between-run %5.2f%%  ratio %.2f  reps %d" % (k[0], k[1], k[2], 100 * se, 100 * b, b / se if se else float('nan'), st.median([len(v) for v in d.values()])))
    ratios.append(b / se if se else float('nan'))
print("series %d, median between-run spread over a run median's own standard error %.2f" % (len(ratios), st.median(ratios)))
