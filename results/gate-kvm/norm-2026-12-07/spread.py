# SPDX-License-Identifier: GPL-2.0-only
# spread.py DB TAG POOL: per primary timing with a _norm twin, the
# between-run spread (1.4826 MAD of log run medians, %) over the first POOL runs
import sys, math, statistics as st
from pool_rows import rows, mad
vals = rows(sys.argv[1], sys.argv[2], int(sys.argv[3]))
def spread(d):
    return 100 * mad([math.log(st.median(v)) for v in d.values()])
rat = []
for (w, cs, m) in sorted(vals):
    if m.endswith('_norm') or (w, cs, m + '_norm') not in vals:
        continue
    a, b = spread(vals[(w, cs, m)]), spread(vals[(w, cs, m + '_norm')])
    rat.append(b / a if a else float('nan'))
    print("%-9s %-28s %-20s raw %5.2f%%  norm %5.2f%%  ratio %.2f" % (w, cs, m, a, b, b / a if a else float('nan')))
print("series %d, median ratio norm/raw %.3f, lower for %d" % (len(rat), st.median(rat), sum(r < 1 for r in rat)))
