#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH [WORKDIR]: rule.txt's judgements. The morning's 40 runs
# (../gate-pvm-2026-12-07/runs-primary.tar.xz) and this block's 20
# (runs-primary.tar.xz) into one history, oldest first; the 40 are the pool,
# the 20 judged, with each series' own spread (aa-p40-series.txt) and the
# moderated one (aa-p40-moderated.txt). It only reads: nothing else
# measuring is needed.
set -u
pt=${1:?usage: analyse.sh PTBENCH [WORKDIR]}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07/runs-primary.tar.xz" -C "$work" || exit 2
tar -xJf "$here/runs-primary.tar.xz" -C "$work" || exit 2
db=$work/h.sqlite
"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* --db "$db" >"$work/add.log" 2>&1 ||
	exit 1
aa() { local f=$1; shift; "$pt" history aa --db "$db" --tag pvm1 --pool 40 --inject-sets all "$@" >"$here/$f"; }
aa aa-p40-series.txt --spread series &
aa aa-p40-moderated.txt --spread moderated
wait
