#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""rule.txt's statistic from primaries.csv (the six runs' primary rows):
per primary timed series, b = ln(rep0) - ln(median(rep1..3)), the first
timed repetition against the later ones, averaged over each arm's three
runs; per arm the median over series and the share with mean b > 0.05."""
import collections, csv, math, os, statistics, sys

TIMED = {'ns', 'us', 'ms', 's'}
here = os.path.dirname(os.path.abspath(__file__))
vals = collections.defaultdict(dict)  # (run, workload, case) -> rep -> value
arm_of = {}
for r in csv.DictReader(open(os.path.join(here, 'primaries.csv'))):
    if r['unit'] not in TIMED or float(r['value']) <= 0:
        continue
    vals[(r['run'], r['workload'], r['case'])][int(r['rep'])] = float(r['value'])
    arm_of[r['run']] = r['warmup']
b = collections.defaultdict(lambda: collections.defaultdict(list))  # arm -> series -> [b]
for (run, wl, cs), reps in vals.items():
    later = [v for k, v in reps.items() if k > 0]
    if 0 in reps and len(later) >= 2:
        b[arm_of[run]][(wl, cs)].append(math.log(reps[0]) - math.log(statistics.median(later)))
runs = {arm: len({r for r, a in arm_of.items() if a == arm}) for arm in b}
mean = {arm: {k: statistics.mean(v) for k, v in s.items() if len(v) == runs[arm]}
        for arm, s in b.items()}
stat = {}
for arm in ('0', '1'):
    med = statistics.median(mean[arm].values())
    share = sum(v > 0.05 for v in mean[arm].values()) / len(mean[arm])
    stat[arm] = (med, share)
    print(f'--warmup {arm}: {runs[arm]} runs, {len(mean[arm])} series: median b {med:+.4f}, '
          f'share with b > 0.05 {share:.3f}')
dm, ds = stat['0'][0] - stat['1'][0], stat['0'][1] - stat['1'][1]
print(f'A - B: median b {dm:+.4f} (rule: > 0.02 keeps the warm-up), share {ds:+.3f} '
      f'(rule: > 0.10 keeps it)')
print('verdict:', 'the warm-up round is needed' if dm > 0.02 or ds > 0.10
      else 'the warm-up round is not shown to matter')
print('\nlargest first-repetition excess without the warm-up (b with --warmup 0, 1):')
for k in sorted(mean['0'], key=lambda k: -mean['0'][k])[:12]:
    print(f'  {k[0]}/{k[1]}: {mean["0"][k]:+.3f} {mean["1"].get(k, float("nan")):+.3f}')
