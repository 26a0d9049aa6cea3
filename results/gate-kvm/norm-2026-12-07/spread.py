# SPDX-License-Identifier: GPL-2.0-only
# spread.py DB TAG POOL: per primary timing with a _norm twin, the
# between-run spread (1.4826 MAD of log run medians, %) over the first POOL runs
import sqlite3, sys, math, statistics as st
db, tag, pool = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
runs = [r[0] for r in c.execute("select id from runs where tag=? order by started_utc", (tag,))][:pool]
ids = set(runs)
vals = {}
for rid, w, cs, m, v in c.execute("select run_id, workload, cs, metric, value from rows where metric like 'ns_per_%'"):
    if rid in ids:
        vals.setdefault((w, cs, m), {}).setdefault(rid, []).append(v)
def spread(d):
    lm = [math.log(st.median(v)) for v in d.values() if v and min(v) > 0]
    med = st.median(lm)
    return 100 * 1.4826 * st.median([abs(x - med) for x in lm])
rat = []
for (w, cs, m) in sorted(vals):
    if m.endswith('_norm') or (w, cs, m + '_norm') not in vals:
        continue
    a, b = spread(vals[(w, cs, m)]), spread(vals[(w, cs, m + '_norm')])
    rat.append(b / a if a else float('nan'))
    print("%-9s %-28s %-20s raw %5.2f%%  norm %5.2f%%  ratio %.2f" % (w, cs, m, a, b, b / a if a else float('nan')))
print("series %d, median ratio norm/raw %.3f, lower for %d" % (len(rat), st.median(rat), sum(r < 1 for r in rat)))
