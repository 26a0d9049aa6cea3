#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Run in the folder runs.tar.gz unpacks to (x/, A1..C5); NOTES.md says what it prints.
import csv, glob, statistics as st
for case in ['anon-write-4k-64M', 'anon-read-4k-64M', 'cow-child-4k-64M']:
    print(case)
    line = {0: [], 1: []}
    for i in range(1, 31):
        for c in (0, 1):
            f = 'x/c%d-%02d/results.csv' % (c, i)
            try:
                v = [float(r[5]) for r in csv.reader(open(f)) if len(r) > 6 and r[1] == case and r[4] == 'ns_per_fault']
            except FileNotFoundError:
                continue
            line[c].append(st.median(v))
    for c in (0, 1):
        m = line[c]
        print('  cpu%d: %s' % (c, ' '.join('%5.1f' % (x / 1000) for x in m)))
    for c in (0, 1):
        m = line[c]
        import math
        if len(m) > 2:
            lm = [math.log(x) for x in m]
            print('  cpu%d: median %.0f sd %.1f%% n %d' % (c, st.median(m), 100 * st.stdev(lm), len(m)))

# the better vCPU of each iteration (the two runs were seconds apart), as a round-by-round pick would have it
print('per iteration, the faster of the two CPUs (what a perfect pick gets):')
for case in ['anon-write-4k-64M', 'anon-read-4k-64M', 'cow-child-4k-64M']:
    per = {0: [], 1: []}
    for i in range(1, 31):
        for c in (0, 1):
            f = 'x/c%d-%02d/results.csv' % (c, i)
            v = [float(r[5]) for r in csv.reader(open(f)) if len(r) > 6 and r[1] == case and r[4] == 'ns_per_fault']
            per[c].append(st.median(v))
    best = [min(a, b) for a, b in zip(per[0], per[1])]
    apart = sum(abs(math.log(a / b)) > math.log(1.15) for a, b in zip(per[0], per[1]))
    sd = lambda m: 100 * st.stdev([math.log(x) for x in m])
    print('  %-20s sd cpu0 %.1f%%  cpu1 %.1f%%  faster %.1f%%  (without iterations 23-24: %.1f%% %.1f%% %.1f%%); iterations with the CPUs >15%% apart: %d of 30' % (
        case, sd(per[0]), sd(per[1]), sd(best), sd(per[0][:22] + per[0][24:]), sd(per[1][:22] + per[1][24:]), sd(best[:22] + best[24:]), apart))
