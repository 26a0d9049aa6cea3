#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's report. The 160 PVM runs of 2026-12-07
# before this block (../gate-pvm-2026-12-07d/history.sh's 130, then
# ../gate-pvm-2026-12-07e's 30) and this block's 30 (runs-primary.tar.xz)
# into one history, oldest first; the 160 are the pool, the 30 judged with
# the defaults (aa-p160.txt) and with --run-effect split
# (aa-p160-split.txt); this block's THP chase rounds (modes.txt). It only
# reads the archives.
set -u
# shellcheck source=../gate-pvm-2026-12-07d/history.sh
. "$(dirname "$0")/../gate-pvm-2026-12-07d/history.sh"
rebuild_history "${0##*/}" "${1:-}"
me=$(cd "$(dirname "$0")" && pwd)
for a in "$me/../gate-pvm-2026-12-07e" "$me"; do
	tar -xJf "$a/runs-primary.tar.xz" -C "$work" || exit 2
done
"$pt" history add "$work"/pvmblock5/ci-* "$work"/pvmblock6/ci-* --db "$work/h.sqlite" \
	>>"$work/add.log" 2>&1 || exit 1
for v in "" split; do
	out=$me/aa-p160${v:+-$v}.txt
	"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 160 --inject-sets all \
		${v:+--run-effect "$v"} >"$out.tmp" && mv "$out.tmp" "$out" || exit 1
done
/usr/bin/python3 "$me/../tlb-thp-modes-2026-12-07/modes.py" "$work"/pvmblock6 >"$me/modes.txt.tmp" &&
	mv "$me/modes.txt.tmp" "$me/modes.txt"
