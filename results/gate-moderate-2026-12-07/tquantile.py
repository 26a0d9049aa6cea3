#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The t quantile at Holm's first step (alpha 0.01 over 47 series,
one-sided) at the degrees of freedom NOTES.md and docs/compare.md quote:
a pool of 10 less the run effect's two parameters (8), that plus the
moderated prior's 4.6, and 30. Uses ../gate-pvm-2026-12-07/tquantile.py."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'gate-pvm-2026-12-07'))
import tquantile  # noqa: E402

alpha = 0.01 / 47
for df in (8, 8 + 4.6, 30):
    print(f"df {df:g}: t {tquantile.quantile(alpha, df):.2f}")
