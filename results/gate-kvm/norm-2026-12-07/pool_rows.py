# SPDX-License-Identifier: GPL-2.0-only
# pool_rows.py: shared by spread.py and within.py. rows(DB, TAG, POOL): the
# ns_per_* values of the first POOL runs with TAG, oldest first, as
# {(workload, case, metric): {run id: [value, ...]}}; mad(x): 1.4826 MAD.
import sqlite3
import statistics as st


def rows(db, tag, pool):
    c = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
    runs = [r[0] for r in c.execute(
        "select id from runs where tag=? order by started_utc", (tag,))][:pool]
    ids = set(runs)
    vals = {}
    for rid, w, cs, m, v in c.execute(
            "select run_id, workload, cs, metric, value from rows where metric like 'ns_per_%'"):
        if rid in ids and v > 0:
            vals.setdefault((w, cs, m), {}).setdefault(rid, []).append(v)
    return vals


def mad(x):
    m = st.median(x)
    return 1.4826 * st.median([abs(a - m) for a in x])
