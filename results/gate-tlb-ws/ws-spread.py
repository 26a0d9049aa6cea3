#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Between-run spread of each tlb and control case over kept quick runs.

usage: /usr/bin/python3 ws-spread.py LIST RUN_DIR...
  LIST: the output of 'ptbench list --suite quick' (each case's gated metric)
  RUN_DIR: runs of the quick suite (results.csv in each)

Per run and case: the median of the primary metric's repetitions, on a
log scale. raw: the standard deviation over the runs, shown as
exp(sd) - 1. resid: the same after a run effect, each case's log
deviation from its median over the runs regressed (one slope per case,
least squares) on the run's median deviation over every timed primary
series the runs share (pgtable byte counts left out), as the gate's run
effect does. Only cases present in every run are shown.
"""
import csv
import math
import re
import statistics as st
import sys
from collections import defaultdict


def primary(list_path):
    prim, wl = {}, None
    for line in open(list_path):
        m = re.match(r'^  (\w+)\s', line)
        if m and not line.startswith('    '):
            wl = m.group(1)
        m = re.match(r'^    (\S+)\s.*gate: (\S+)', line)
        if m:
            prim[(wl, m.group(1))] = m.group(2)
    return prim


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    prim = primary(sys.argv[1])
    runs = sys.argv[2:]
    med = defaultdict(dict)
    for r in runs:
        vals = defaultdict(list)
        for row in csv.DictReader(open(r + '/results.csv')):
            k = (row['workload'], row['case'])
            if prim.get(k) == row['metric']:
                vals[k].append(float(row['value']))
        for k, v in vals.items():
            med[k][r] = math.log(st.median(v))
    keys = [k for k in med if len(med[k]) == len(runs) and k[0] != 'pgtable']
    dev = {}
    for k in keys:
        c = st.median(med[k].values())
        dev[k] = [med[k][r] - c for r in runs]
    eff = [st.median(dev[k][i] for k in keys) for i in range(len(runs))]
    mx = st.mean(eff)
    sxx = sum((x - mx) ** 2 for x in eff)
    print(f'{len(runs)} runs; run effect over {len(keys)} timed primary series')
    print(f'{"case":22s} {"median":>9s} {"raw":>7s} {"resid":>7s} {"slope":>6s}')

    def ws_key(k):
        m = re.match(r'(.*)-(\d+)([KMG])$', k[1])
        if not m:
            return (k[0], k[1], 0)
        return (k[0], m.group(1), int(m.group(2)) << {'K': 10, 'M': 20, 'G': 30}[m.group(3)])

    for k in sorted(keys, key=ws_key):
        if k[0] not in ('tlb', 'control'):
            continue
        y = dev[k]
        my = st.mean(y)
        b = sum((x - mx) * (v - my) for x, v in zip(eff, y)) / sxx if sxx else 0
        res = [v - my - b * (x - mx) for x, v in zip(eff, y)]
        print(f'{k[1]:22s} {math.exp(st.median(med[k].values())):9.2f} '
              f'{100 * (math.exp(st.stdev(y)) - 1):6.1f}% '
              f'{100 * (math.exp(st.stdev(res)) - 1):6.1f}% {b:6.2f}')


main()
