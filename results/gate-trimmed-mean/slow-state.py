#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The s24 runs' two states: a run is slow when its median of
# toggle-4k-4M is above LIMIT us (default 280). For a few ci primary
# metrics, the slow runs' medians and the others', and the slow ones
# against the median of the others.
#   python3 slow-state.py RUNS_DIR [LIMIT_US]
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ci_runs  # noqa: E402

KEYS = [("mprotect", "toggle-4k-4M", "ns_per_call"), ("munmap", "munmap-4k-64M", "ns_per_page"),
        ("fork", "fork-4k-256M", "ns_per_fork"), ("fault", "anon-write-4k-64M", "ns_per_fault"),
        ("control", "cpu-loop", "ns_per_iter")]
if len(sys.argv) not in (2, 3) or not os.path.isdir(sys.argv[1]):
    print("usage: slow-state.py RUNS_DIR [LIMIT_US]", file=sys.stderr)
    sys.exit(2)
limit = float(sys.argv[2]) * 1000 if len(sys.argv) == 3 else 280e3
runs = []
for name, vals in ci_runs.read_runs(
        sys.argv[1], lambda row: (row["workload"], row["case"], row["metric"]) in KEYS):
    if any(k not in vals for k in KEYS):
        print(f"slow-state.py: {name} lacks one of the series", file=sys.stderr)
        sys.exit(2)
    runs.append((name, {k: statistics.median(v) for k, v in vals.items()}))
slow = [r for r in runs if r[1][KEYS[0]] > limit]
rest = [r for r in runs if r[1][KEYS[0]] <= limit]
if not slow or not rest:
    print("slow-state.py: no runs on one side of the limit", file=sys.stderr)
    sys.exit(2)
print(f"slow runs ({len(slow)} of {len(runs)}): " + " ".join(n for n, _ in slow))
for k in KEYS:
    s = [m[k] for _, m in slow]
    o = [m[k] for _, m in rest]
    om = statistics.median(o)
    print(f"{k[1]:20s} slow {min(s):.4g}-{max(s):.4g}  others {min(o):.4g}-{max(o):.4g}  "
          f"slow against the others' median {100 * (min(s) / om - 1):+.0f}% to "
          f"{100 * (max(s) / om - 1):+.0f}%")
