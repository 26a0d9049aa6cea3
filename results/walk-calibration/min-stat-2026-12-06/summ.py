#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""summ.py, in the directory of one.sh's outputs (runsh-N.VARIANT.txt): fit,
held-out, heldout_nested and half per run and variant, and the D128/D64
ratios (both stages) of three chases (../NOTES.md)."""
import glob, re, sys, statistics as st
rows = {}
for f in sorted(glob.glob('runsh-*.*.txt')):
    m = re.match(r'runsh-(\d+)\.(\w+)\.txt', f)
    r, v = m.group(1), m.group(2)
    t = open(f).read()
    g = lambda k: (re.search(r'^' + k + r': rms_rel_err=([\d.]+)', t, re.M) or [None, 'nan'])[1]
    half = (re.search(r'^half: rms_rel_err=([\d.]+)', t, re.M) or [None, 'nan'])[1]
    ratios = {}
    for c in ('chase-4k-64M', 'chase-4k-256M', 'chase-4k-1G', 'chase-thp-1G'):
        mm = re.search(r'^# ' + c + r'\s.*?([\d.]+) \[[\d.,]+\]\s+([\d.]+) \[[\d.,]+\]\s+([\d.]+) \[[\d.,]+\]\s*$', t, re.M)
        ratios[c] = float(mm.group(3)) if mm else float('nan')
    rows.setdefault(v, {})[r] = (g('fit'), g('heldout'), g('heldout_nested'), half, ratios)
for v in rows:
    print('==', v)
    for r in sorted(rows[v]):
        f, h, hn, hf, ra = rows[v][r]
        print(r, f, h, hn, hf, ' '.join('%s=%.3f' % (k[6:], x) for k, x in ra.items()))
    for k in ('chase-4k-64M', 'chase-4k-256M', 'chase-4k-1G'):
        xs = [rows[v][r][4][k] for r in rows[v] if rows[v][r][4][k] == rows[v][r][4][k]]
        if len(xs) > 1:
            print('  both %s: n=%d median %.3f sd %.3f range %.3f-%.3f' % (k, len(xs), st.median(xs), st.stdev(xs), min(xs), max(xs)))
