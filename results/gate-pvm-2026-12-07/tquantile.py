#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Student's t quantile at Holm's first step (alpha 0.01 over 47 series,
one-sided) for the degrees of freedom of a pool of 10, 20 and 30 runs less
the run effect's two parameters, as NOTES.md quotes them. No SciPy on
Debian's python3 here without more packages: the upper tail is Simpson's
rule over the t density, the quantile found by bisection."""
import math


def upper_tail(t, df, n=200000, span=400.0):
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    h = span / n
    s = 0.0
    for i in range(n + 1):
        x = t + i * h
        f = c * (1 + x * x / df) ** (-(df + 1) / 2)
        s += f * (1 if i in (0, n) else (4 if i % 2 else 2))
    return s * h / 3


def quantile(p, df):
    lo, hi = 1.0, 20.0
    for _ in range(40):
        m = (lo + hi) / 2
        if upper_tail(m, df) > p:
            lo = m
        else:
            hi = m
    return (lo + hi) / 2


if __name__ == "__main__":
    alpha = 0.01 / 47
    for pool in (10, 20, 30):
        print(f"pool {pool}: df {pool - 2}: t {quantile(alpha, pool - 2):.2f}")
