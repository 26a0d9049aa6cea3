#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH [WORKDIR]: the PVM block of 2026-12-07 (its 40 ci runs'
# primary rows, ../gate-pvm-2026-12-07/runs-primary.tar.xz) into a history,
# then the default gate and --spread moderated at pools of 10 and 20
# (aa-p{10,20}-{series,moderated}.txt) and within.py's look at the
# spreads (within.txt). Nothing else measuring is needed: it reads only.
set -u
pt=${1:?usage: analyse.sh PTBENCH [WORKDIR]}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07/runs-primary.tar.xz" -C "$work" || exit 2
db=$work/h.sqlite
"$pt" history add "$work"/pvmblock/ci-* --db "$db" >"$work/add.log" 2>&1 || exit 1
aa() { local f=$1; shift; "$pt" history aa --db "$db" --tag pvm1 --inject-sets all "$@" >"$here/$f"; }
echo "$(date -u +%T) pool 10"
aa aa-p10-series.txt --pool 10 --spread series &
aa aa-p10-moderated.txt --pool 10 --spread moderated
wait
echo "$(date -u +%T) pool 20"
aa aa-p20-series.txt --pool 20 --spread series &
aa aa-p20-moderated.txt --pool 20 --spread moderated
wait
/usr/bin/python3 "$here/within.py" "$db" "$here/aa-p10-series.txt" >"$here/within.txt"
/usr/bin/python3 "$here/tquantile.py" >"$here/tquantile.txt"
echo "$(date -u +%T) done"
