#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's report. The 100 PVM runs of 2026-12-07
# before this block (the runs-primary.tar.xz of ../gate-pvm-2026-12-07,
# -07b and ../gate-lowtrim-2026-12-07) and this block's 30 into one
# history, oldest first (history.sh); the 100 are the pool, the 30 judged
# with the defaults: aa-p100.txt. It only reads the archives.
set -u
# shellcheck source=history.sh
. "$(dirname "$0")/history.sh"
rebuild_history "${0##*/}" "${1:-}"
out=$here/aa-p100.txt
"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 100 --inject-sets all >"$out.tmp" &&
	mv "$out.tmp" "$out"
