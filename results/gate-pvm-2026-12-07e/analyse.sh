#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's report. The 130 PVM runs of 2026-12-07
# before this block (../gate-pvm-2026-12-07d/history.sh) and this block's
# 30 (runs-primary.tar.xz) into one history, oldest first; the 130 are the
# pool, the 30 judged with the defaults (aa-p130.txt) and with
# --run-effect split (aa-p130-split.txt). It only reads the archives.
set -u
# shellcheck source=../gate-pvm-2026-12-07d/history.sh
. "$(dirname "$0")/../gate-pvm-2026-12-07d/history.sh"
rebuild_history "${0##*/}" "${1:-}"
me=$(cd "$(dirname "$0")" && pwd)
tar -xJf "$me/runs-primary.tar.xz" -C "$work" || exit 2
"$pt" history add "$work"/pvmblock5/ci-* --db "$work/h.sqlite" >>"$work/add.log" 2>&1 || exit 1
for v in "" split; do
	out=$me/aa-p130${v:+-$v}.txt
	"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 130 --inject-sets all \
		${v:+--run-effect "$v"} >"$out.tmp" && mv "$out.tmp" "$out" || exit 1
done
