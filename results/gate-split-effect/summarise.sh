#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# From the pool-30 history aa outputs here: the median residual spread of
# the gated timings (all, the kernel's families, the others) per set and
# run effect, and the metrics no analysis caught at 10% with 3 NEW runs.
#   summarise.sh [DIR]   (default: this script's folder)
set -u
d=${1:-$(dirname "$0")}
# the 3-NEW injection section: "  workload case metric spread X% detectable Y% caught|missed"
section() { awk '/injected into 3 NEW/ { s = 1 } /injected into 1 NEW/ { s = 0 } s && /spread/' "$1"; }
for f in "$d"/s2?-p30-on.txt "$d"/s2?-p30-split.txt; do
	section "$f" | awk -v f="$(basename "$f")" '
		$1 == "pgtable" { next }  # byte counts: no spread to speak of
		{ for (i = 1; i <= NF; i++) if ($i == "spread") v = $(i + 1) + 0
		  a[++na] = v
		  if ($1 ~ /^(fault|mprotect|fork|munmap|thp)$/) k[++nk] = v; else u[++nu] = v }
		function med(x, n) { asort(x); return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
		END { printf "%-22s median spread %.1f%% (%d timings); kernel %.1f%% (%d); others %.1f%% (%d)\n",
			      f, med(a, na), na, med(k, nk), nk, med(u, nu), nu }'
done
echo "never caught at 10% with 3 NEW runs in any of the pool-30 analyses above:"
for f in "$d"/s2?-p30-on.txt "$d"/s2?-p30-split.txt; do section "$f"; done |
	awk '{ seen[$2] = 1 } $NF == "caught" { hit[$2] = 1 }
	     END { for (c in seen) if (!hit[c]) print "  " c; }' | sort
