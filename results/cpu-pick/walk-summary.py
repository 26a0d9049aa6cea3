#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# walk-summary.py RUNDIR...: one line per ./run.sh run: its pinning, the
# chosen configuration, fit, held-out errors, the half-density check (its
# RMS and the cases beyond 15%), and D128/D64 at both stages for chase-4k-1G.
import csv
import json
import re
import sys

for d in sys.argv[1:]:
    txt = open(d + '/walk_calibration.txt').read()
    mode = json.load(open(d + '/meta.json'))['pinning'].get('mode', 'fixed')
    g = lambda pat: (re.search(pat, txt, re.M) or [None, '?'])[1]
    chosen = g(r'^# chosen: (.*?) \(')
    fit = g(r'^fit: rms_rel_err=(\S+)')
    ho = g(r'^heldout: (.*)$')
    hn = g(r'^heldout_nested: rms_rel_err=(\S+)')
    half = g(r'^half: rms_rel_err=(\S+)')
    miss = ['%s %+.1f%%' % (m[0].replace('chase-half-', 'half-'), 100 * float(m[1]))
            for m in re.findall(r'^half: case=(\S+) .*?rel_err=(\S+)', txt, re.M) if abs(float(m[1])) > 0.15]
    both = '?'
    for r in csv.DictReader(open(d + '/walk_model.csv')):
        if r['source'] == 'predicted-d128-both' and r['case'] == 'chase-4k-1G':
            both = '%.3f [%.3f, %.3f]' % (float(r['d128_over_d64']), float(r['d128_over_d64_lo']),
                                          float(r['d128_over_d64_hi']))
    print('%s | %s | %s | fit %s | heldout %s | nested %s | half %s (%s) | both-stage chase-4k-1G %s' % (
        d.rstrip('/').split('/')[-1], mode, chosen, fit, ho, hn, half, ', '.join(miss) or 'all within 15%', both))
