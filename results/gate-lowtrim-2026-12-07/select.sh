#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# select.sh PTBENCH [WORKDIR]: rule.txt's selection. The 70 PVM runs of
# 2026-12-07 (../gate-pvm-2026-12-07*/runs-primary.tar.xz) into one
# history, oldest first; the morning's 40 are the pool, the 30 after them
# judged, with each candidate run statistic: select-trim-T.txt. It only
# reads: nothing else measuring is needed.
set -u
pt=${1:?usage: select.sh PTBENCH [WORKDIR]}
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
tar -xJf "$here/../gate-pvm-2026-12-07/runs-primary.tar.xz" -C "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07b/runs-primary.tar.xz" -C "$work" || exit 2
# history add is idempotent: a WORKDIR used before is added to, not lost
db=$work/h.sqlite
"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* --db "$db" >"$work/add.log" 2>&1 || exit 1
aa() {
	local out=$here/select-trim-$1.txt
	"$pt" history aa --db "$db" --tag pvm1 --pool 40 --inject-sets all --trim "$1" >"$out.tmp" && mv "$out.tmp" "$out"
}
aa 0.2 &
aa 0,0.5
wait
aa 0.1,0.5 &
aa 0,0.7
wait
