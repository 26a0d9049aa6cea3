#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# How heavy are the tails of the gate's residuals on this host? A sketch of
# the run-effect test (docs/compare.md) in plain Python, on the ci primary
# metrics of each run's results.csv: plain run medians (no round effect),
# one run effect, a regression per series over the pool. It asks one
# question the gate's own output does not: which critical value would have
# let at most one of the judged runs fire, and what change 3 NEW runs could
# then detect.
#   python3 tails.py RUNS_DIR GATED_LIST [POOL [TRIM]]
# RUNS_DIR holds ci-NN/results.csv; GATED_LIST is `ptbench list --suite ci`.
# TRIM (default 0.5, the median) is the run statistic of compare --trim: the
# mean of a run's ln values after cutting that fraction from each end.
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ci_runs  # noqa: E402


def t_sf(x, df):
    """P(T > x) for Student's t, by Simpson's rule on the density."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)
    hi, n = x + 60.0, 20000
    h = (hi - x) / n
    s = f(x) + f(hi) + sum((4 if i % 2 else 2) * f(x + i * h) for i in range(1, n))
    return s * h / 3


def t_crit(p, df):
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_sf(mid, df) > p else (lo, mid)
    return (lo + hi) / 2


def run_stat(vals, trim):
    logs = sorted(math.log(v) for v in vals)
    cut = int(trim * len(logs) + 1e-9)
    if trim >= 0.5 or 2 * cut >= len(logs):
        return math.log(statistics.median(vals))
    return statistics.fmean(logs[cut:len(logs) - cut])


if len(sys.argv) not in (3, 4, 5) or not os.path.isdir(sys.argv[1]):
    print("usage: tails.py RUNS_DIR GATED_LIST [POOL [TRIM]]", file=sys.stderr)
    sys.exit(2)
pool_n = int(sys.argv[3]) if len(sys.argv) >= 4 else 30
trim = float(sys.argv[4]) if len(sys.argv) == 5 else 0.5
gated = ci_runs.gated_series(sys.argv[2])
timed = lambda row: ((row["workload"], row["case"], row["metric"]) in gated
                     and row["unit"] in ("ns", "us", "ms", "s"))
runs = [{k: run_stat(v, trim) for k, v in vals.items()}
        for _, vals in ci_runs.read_runs(sys.argv[1], timed)]
series = sorted(k for k in gated if all(k in r for r in runs))
pool, judged = runs[:pool_n], runs[pool_n:]
k = len(pool)
centre = {s: statistics.median(r[s] for r in pool) for s in series}


def effect(run, leave):
    return statistics.median(run[s] - centre[s] for s in series if s != leave)


stats = {}
for s in series:
    e = [effect(r, s) for r in pool]
    d = [r[s] - centre[s] for r in pool]
    em, dm = statistics.fmean(e), statistics.fmean(d)
    sxx = sum((x - em) ** 2 for x in e)
    b = sum((x - em) * (y - dm) for x, y in zip(e, d)) / sxx
    a = dm - b * em
    res = [y - a - b * x for x, y in zip(e, d)]
    sres = math.sqrt(sum(r * r for r in res) / (k - 2))
    stats[s] = (a, b, sres, em, sxx)
df = k - 2
crit = t_crit(0.01 / len(series), df)  # Holm's first step, one-sided, alpha 0.01
zmax = []
pooled = []
for run in judged:
    top = (-1e9, None)
    for s in series:
        a, b, sres, em, sxx = stats[s]
        x = effect(run, s)
        z = (run[s] - centre[s] - a - b * x) / (sres * math.sqrt(1 + 1 / k + (x - em) ** 2 / sxx))
        pooled.append(z)
        top = max(top, (z, s[1]))
    zmax.append(top)
print(f"runs {len(runs)}, pool {k}, judged {len(judged)}, timed gated series {len(series)}, "
      f"trim {trim}")
print(f"critical t (alpha 0.01/{len(series)}, one-sided, {df} df): {crit:.2f}")
beyond = sum(z > crit for z in pooled)
print(f"standardised residuals of the judged runs beyond it: {beyond} of {len(pooled)} "
      f"(Student's t expects {len(pooled) * 0.01 / len(series):.2f})")
for c in (2.0, 3.0, 4.0, 5.0):
    print(f"  beyond {c:.0f}: {sum(z > c for z in pooled)} observed, "
          f"{len(pooled) * t_sf(c, df):.1f} expected")
fired = sorted(zmax, reverse=True)
print("judged runs whose largest residual passes the critical value: "
      f"{sum(z > crit for z, _ in zmax)} of {len(judged)}")
print("largest residual per judged run, top 5: " +
      ", ".join(f"{z:.2f} ({c})" for z, c in fired[:5]))
# the critical value that lets at most one judged run fire: the second largest
cstar = fired[1][0]
f = math.sqrt(1 / 3 + 1 / k)
det = sorted(math.expm1(crit * stats[s][2] * f) * 100 for s in series)
det2 = sorted(math.expm1(cstar * stats[s][2] * f) * 100 for s in series)
caught = sum(math.log(1.10) > crit * stats[s][2] * f for s in series)
caught2 = sum(math.log(1.10) > cstar * stats[s][2] * f for s in series)
print(f"3 NEW runs at t = {crit:.2f}: median detectable {statistics.median(det):.1f}%, "
      f"10% detectable for {caught} of {len(series)}")
print(f"3 NEW runs at {cstar:.2f} (at most 1 of {len(judged)} fires, in sample): median "
      f"detectable {statistics.median(det2):.1f}%, 10% detectable for {caught2} of {len(series)}")
