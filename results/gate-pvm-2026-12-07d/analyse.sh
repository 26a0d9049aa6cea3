#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's report. The 100 PVM runs of 2026-12-07
# before this block (the runs-primary.tar.xz of ../gate-pvm-2026-12-07,
# -07b and ../gate-lowtrim-2026-12-07) and this block's 30 into one
# history, oldest first; the 100 are the pool, the 30 judged with the
# defaults: aa-p100.txt. It only reads the archives.
set -u
pt=${1:?usage: analyse.sh PTBENCH}
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
out=$here/aa-p100.txt
"$pt" history aa --db "$work/h.sqlite" --tag pvm1 --pool 100 --inject-sets all >"$out.tmp" &&
	mv "$out.tmp" "$out"
