#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# spread.sh PTBENCH: the between-run spread of each ci primary metric
# before and after the noise work, over the pool of all 100 runs before
# block 4 (judged on block 4): BEFORE each run's plain median with no run
# or round effect and each series' own spread (aa-p100-raw.txt), AFTER the
# defaults (aa-p100.txt, from analyse.sh), set side by side by
# ../gate-split-effect/spread.py (spread-before-after-p100.txt). The
# history is rebuilt as analyse.sh does (history.sh).
set -u
# shellcheck source=history.sh
. "$(dirname "$0")/history.sh"
rebuild_history "${0##*/}" "${1:-}"
raw=$here/aa-p100-raw.txt out=$here/spread-before-after-p100.txt
"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 100 --run-effect off \
	--round-effect off --trim 0.5 --spread series >"$raw.tmp" && mv "$raw.tmp" "$raw" || exit 1
/usr/bin/python3 "$here/../gate-split-effect/spread.py" "$raw" "$here/aa-p100.txt" >"$out.tmp" &&
	mv "$out.tmp" "$out"
