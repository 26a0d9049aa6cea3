#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH [N [WORKDIR]]: rule.txt's and rule2.txt's judgements.
# The morning's 40 runs (../gate-pvm-2026-12-07/runs-primary.tar.xz) and
# the first N (default all 30) of this block's (runs-primary.tar.xz) into
# one history, oldest first; the 40 are the pool, the N after them judged,
# with each series' own spread and the moderated one:
# aa-p40[-firstN]-{series,moderated}.txt. It only reads: nothing else
# measuring is needed.
set -u
pt=${1:?usage: analyse.sh PTBENCH [N [WORKDIR]]}
n=${2:-}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
case $n in '' | [1-9] | [1-9][0-9]) ;; *) echo "analyse.sh: N '$n': expected 1-99" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work" || exit 2
tar -xJf "$here/../gate-pvm-2026-12-07/runs-primary.tar.xz" -C "$work" || exit 2
tar -xJf "$here/runs-primary.tar.xz" -C "$work" || exit 2
runs=("$work"/pvmblock2/ci-*)
[ -n "$n" ] && runs=("${runs[@]:0:$n}")
db=$work/h.sqlite
"$pt" history add "$work"/pvmblock/ci-* "${runs[@]}" --db "$db" >"$work/add.log" 2>&1 || exit 1
tag=aa-p40${n:+-first$n}
aa() { local f=$1; shift; "$pt" history aa --db "$db" --tag pvm1 --pool 40 --inject-sets all "$@" >"$here/$f"; }
aa "$tag-series.txt" --spread series &
aa "$tag-moderated.txt" --spread moderated
wait
