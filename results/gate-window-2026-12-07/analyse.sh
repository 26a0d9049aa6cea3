#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's two windows. Block B (the 30 runs of
# ../gate-pvm-2026-12-07b) judged against the latest 30 runs of the
# morning (ci-11..40 of ../gate-pvm-2026-12-07), block C (the 30 of
# ../gate-lowtrim-2026-12-07) against B alone, the default gate, written
# to aa-B-last30.txt and aa-C-last30.txt. It only reads the archives.
set -u
pt=${1:?usage: analyse.sh PTBENCH}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
for a in gate-pvm-2026-12-07 gate-pvm-2026-12-07b gate-lowtrim-2026-12-07; do
	tar -xJf "$here/../$a/runs-primary.tar.xz" -C "$work" || exit 2
done
cd "$work" || exit 2
"$pt" history add pvmblock/ci-{11..40} pvmblock2/ci-* --db hB.sqlite >add.log 2>&1 || exit 1
"$pt" history add pvmblock2/ci-* pvmblock3/ci-* --db hC.sqlite >>add.log 2>&1 || exit 1
for b in B C; do
	out=$here/aa-$b-last30.txt
	"$pt" history aa --db "h$b.sqlite" --tag pvm1 --pool 30 --inject-sets all >"$out.tmp" &&
		mv "$out.tmp" "$out" || exit 1
done
