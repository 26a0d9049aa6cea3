#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# spread.sh PTBENCH: the between-run spread of each ci primary metric
# before and after the noise work, over the pool of all 100 runs before
# block 4 (judged on block 4): BEFORE each run's plain median with no run
# or round effect and each series' own spread (aa-p100-raw.txt), AFTER the
# defaults (aa-p100.txt, from analyse.sh), set side by side by
# ../gate-split-effect/spread.py (spread-before-after-p100.txt). It only
# reads the archives.
set -u
pt=${1:?usage: spread.sh PTBENCH}
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
raw=$here/aa-p100-raw.txt out=$here/spread-before-after-p100.txt
"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 100 --run-effect off \
	--round-effect off --trim 0.5 --spread series >"$raw.tmp" && mv "$raw.tmp" "$raw" || exit 1
/usr/bin/python3 "$here/../gate-split-effect/spread.py" "$raw" "$here/aa-p100.txt" >"$out.tmp" &&
	mv "$out.tmp" "$out"
