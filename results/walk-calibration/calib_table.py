# SPDX-License-Identifier: GPL-2.0-only
"""The per-case table of `ptbench model walk calibrate` (walk_calibration.txt),
for the analyses beside it (backing-ratios.py, half-cliff-2026-12-07/):
'# <case>  <measured> [<min>,<max>]  <fitted_d64>  <error>% ...'.
"""
import re

ROW = re.compile(r"# ((?:chase|dense)-\S+)\s+([\d.]+) \[[^\]]*\](?:\s+([\d.]+))?")


def cases(path):
    """{case: (measured ns, fitted D64 ns or None)}; OSError if unreadable."""
    out = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                fitted = float(m.group(3)) if m.group(3) else None
                out[m.group(1)] = (float(m.group(2)), fitted)
    return out
