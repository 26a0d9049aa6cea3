#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# split.sh PTBENCH: the split run effect (--run-effect split) on the PVM
# guest's pools of 70 and 100 runs of 2026-12-07, each judged on the runs
# after it, everything else at the defaults; reported after block 4's
# figures, so it decides nothing. Rebuilds the history of all 130 runs from
# the four blocks' runs-primary.tar.xz, oldest first, as analyse.sh does,
# and writes aa-p70-split.txt (the 60 runs after the pool: blocks 3 and 4)
# and aa-p100-split.txt (block 4). It only reads the archives.
set -u
pt=${1:?usage: split.sh PTBENCH}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
for a in ../gate-pvm-2026-12-07 ../gate-pvm-2026-12-07b ../gate-lowtrim-2026-12-07 .; do
	tar -xJf "$here/$a/runs-primary.tar.xz" -C "$work" || exit 2
done
"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* "$work"/pvmblock3/ci-* \
	"$work"/pvmblock4/ci-* --db "$work/h.sqlite" >"$work/add.log" 2>&1 || exit 1
for pool in 70 100; do
	out=$here/aa-p$pool-split.txt
	"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool $pool --inject-sets all \
		--run-effect split >"$out.tmp" && mv "$out.tmp" "$out" || exit 1
done
