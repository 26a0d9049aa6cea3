#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# split.sh PTBENCH: the split run effect (--run-effect split) on the PVM
# guest's pools of 70 and 100 runs of 2026-12-07, each judged on the runs
# after it, everything else at the defaults; reported after block 4's
# figures, so it decides nothing. Rebuilds the history of all 130 runs as
# analyse.sh does (history.sh) and writes aa-p70-split.txt (the 60 runs
# after the pool: blocks 3 and 4) and aa-p100-split.txt (block 4).
set -u
# shellcheck source=history.sh
. "$(dirname "$0")/history.sh"
rebuild_history "${0##*/}" "${1:-}"
for pool in 70 100; do
	out=$here/aa-p$pool-split.txt
	"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool $pool --inject-sets all \
		--run-effect split >"$out.tmp" && mv "$out.tmp" "$out" || exit 1
done
