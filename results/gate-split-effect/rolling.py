# SPDX-License-Identifier: GPL-2.0-only
# A/A of the pool gate with a fixed pool (the first P runs, as history aa
# does) against a rolling one (the P runs just before each judged run, as a
# CI job that keeps the last P runs of main would have), in the numpy
# re-implementation of prototype.py (trimmed means, no round effect),
# modes 'all' (one run effect, the default) and 'two' (--run-effect split).
#   /usr/bin/python3 rolling.py RUNS LIST [POOL]   (LIST: ptbench list --suite ci)
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, 'prototype.py')).read().split('pool = list(range(POOL))')[0]
exec(compile(src, os.path.join(here, 'prototype.py'), 'exec'))


def fired(pool, r, mode):
    f, _, ch = judge(Y, pool, [r], mode)
    return [runs[r][0] + ':' + ','.join('%s%+.0f' % (keys[j][1], ch[j]) for j in f)] if f else []


for mode in ['all', 'two']:
    fixed, roll = [], []
    for r in range(POOL, nr):
        fixed += fired(list(range(POOL)), r, mode)
        roll += fired(list(range(r - POOL, r)), r, mode)
    print('%-4s fixed %2d/%d  rolling %2d/%d' % (mode, len(fixed), nr - POOL, len(roll), nr - POOL))
    print('   fixed  :', ' '.join(fixed))
    print('   rolling:', ' '.join(roll))
