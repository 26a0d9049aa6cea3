#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# block3.sh PTBENCH [WORKDIR]: rule2.txt's report. The 70 PVM runs of
# 2026-12-07 (../gate-pvm-2026-12-07*/runs-primary.tar.xz) and the 30
# made after them (runs-primary.tar.xz) into one history, oldest first;
# the 70 are the pool, the 30 judged: aa-p70-trim-T.txt for the default
# run statistic (0.2) and the two cut from the high end. It only reads:
# nothing else measuring is needed.
set -u
pt=${1:?usage: block3.sh PTBENCH [WORKDIR]}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${2:-}" ]; then
	work=$2
	mkdir -p "$work" || exit 2
else
	work=$(mktemp -d) || exit 2
	trap 'rm -rf "$work"' EXIT
fi
for a in ../gate-pvm-2026-12-07 ../gate-pvm-2026-12-07b .; do
	tar -xJf "$here/$a/runs-primary.tar.xz" -C "$work" || exit 2
done
# history add is idempotent: a WORKDIR used before is added to, not lost
db=$work/h.sqlite
"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* "$work"/pvmblock3/ci-* \
	--db "$db" >"$work/add.log" 2>&1 || exit 1
aa() {
	local out=$here/aa-p70-trim-$1.txt
	"$pt" history aa --db "$db" --tag pvm1 --pool 70 --inject-sets all --trim "$1" >"$out.tmp" && mv "$out.tmp" "$out"
}
aa 0.2 &
aa 0,0.5
wait
aa 0,0.7
