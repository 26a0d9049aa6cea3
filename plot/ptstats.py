# SPDX-License-Identifier: GPL-2.0-only
"""Statistics over samples, the same rules as harness/stats.c.

Standard library only, so the report can be written (with --no-plots) on a
machine without numpy or matplotlib.
"""
import math
from collections import namedtuple

Summary = namedtuple(
    "Summary", "n median mean stddev cv min max ci_lo ci_hi ci_valid")


def quantile_sorted(sorted_v, q):
    """Linear-interpolated quantile of sorted data, q in [0, 1]."""
    n = len(sorted_v)
    if not n:
        return math.nan
    if q <= 0:
        return sorted_v[0]
    if q >= 1:
        return sorted_v[-1]
    pos = q * (n - 1)
    lo = int(pos)
    if lo + 1 >= n:
        return sorted_v[-1]
    return sorted_v[lo] + (pos - lo) * (sorted_v[lo + 1] - sorted_v[lo])


def _binom_half_cdf(n, m):
    """P(X <= m) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(min(m, n) + 1)) / 2.0 ** n


def median_ci(sorted_v):
    """Distribution-free 95% interval of the median from order statistics.

    Returns (lo, hi, valid); valid is False when n is too small for the
    interval [min, max] to reach 95% coverage.
    """
    n = len(sorted_v)
    depth = 0
    while depth + 1 <= n // 2 and 2 * _binom_half_cdf(n, depth) <= 0.05:
        depth += 1
    if not depth:
        return sorted_v[0], sorted_v[-1], False
    return sorted_v[depth - 1], sorted_v[n - depth], True


def summarize(values):
    """Summary of a non-empty list of samples."""
    if not values:
        raise ValueError("no samples")
    s = sorted(values)
    n = len(s)
    mean = sum(s) / n
    stddev = math.sqrt(sum((v - mean) ** 2 for v in s) / (n - 1)) if n > 1 else 0.0
    cv = stddev / abs(mean) if mean else 0.0
    lo, hi, valid = median_ci(s)
    return Summary(n, quantile_sorted(s, 0.5), mean, stddev, cv, s[0], s[-1],
                   lo, hi, valid)


def _rank_sum(a, b):
    """Rank sum of a (average ranks for ties) and the tie term sum(t^3 - t)."""
    tagged = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    total = 0.0
    ties = 0.0
    i = 0
    while i < len(tagged):
        j = i + 1
        while j < len(tagged) and tagged[j][0] == tagged[i][0]:
            j += 1
        avg_rank = (i + j + 1) / 2.0
        total += avg_rank * sum(1 for k in range(i, j) if tagged[k][1] == 0)
        ties += (j - i) ** 3 - (j - i)
        i = j
    return total, ties


def _u_distribution(na, nb):
    """Number of arrangements giving each U of side a, for na, nb samples."""
    # rows[a]: counts over U with a values of side a and b of side b. The
    # largest value is from side b (U unchanged) or side a (U grows by b).
    rows = [[1] for _ in range(na + 1)]
    for b in range(1, nb + 1):
        cur = [[1]]
        for a in range(1, na + 1):
            counts = [0] * (a * b + 1)
            for u, w in enumerate(rows[a]):
                counts[u] += w
            for u, w in enumerate(cur[a - 1]):
                counts[u + b] += w
            cur.append(counts)
        rows = cur
    return rows[na]


EXACT_MAX_N = 60


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p-value, as pt_mann_whitney_p.

    Exact for small samples without ties, otherwise the normal
    approximation with tie and continuity correction. None when a side is
    empty.
    """
    na, nb = len(a), len(b)
    if not na or not nb:
        return None
    n = na + nb
    r1, ties = _rank_sum(a, b)
    u = r1 - na * (na + 1) / 2.0
    if ties == 0 and n <= EXACT_MAX_N:
        counts = _u_distribution(na, nb)
        total = float(sum(counts))
        le = sum(w for x, w in enumerate(counts) if x <= u + 1e-9)
        ge = sum(w for x, w in enumerate(counts) if x >= u - 1e-9)
        return min(1.0, 2 * min(le, ge) / total)
    mu = na * nb / 2.0
    sigma2 = na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    if sigma2 <= 0:
        return 1.0
    z = max(0.0, (abs(u - mu) - 0.5) / math.sqrt(sigma2))
    return math.erfc(z / math.sqrt(2.0))


def mann_whitney_min_p(na, nb):
    """The smallest p-value the test can give: 2 / C(na + nb, na)."""
    if not na or not nb:
        return 1.0
    return min(1.0, 2.0 / math.comb(na + nb, na))


def holm(pvalues):
    """Holm step-down adjusted p-values, in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
