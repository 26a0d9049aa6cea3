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
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07/runs-primary.tar.xz" -C "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07b/runs-primary.tar.xz" -C "$work" || exit 2
db=$work/h.sqlite
rm -f "$db"
"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* --db "$db" >"$work/add.log" 2>&1 || exit 1
aa() { "$pt" history aa --db "$db" --tag pvm1 --pool 40 --inject-sets all --trim "$1" >"$here/select-trim-$1.txt"; }
aa 0.2 &
aa 0,0.5
wait
aa 0.1,0.5 &
aa 0,0.7
wait
