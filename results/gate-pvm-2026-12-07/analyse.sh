#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh DIR PTBENCH: the block of rule.txt judged, the default gate
# (aa-p10-sets.txt) and the split run effect beside it
# (aa-p10-split-sets.txt), from DIR/h.sqlite. Nothing else measuring.
set -u
dir=${1:?usage: analyse.sh DIR PTBENCH} pt=${2:?usage: analyse.sh DIR PTBENCH}
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
out=$(cd "$(dirname "$0")" && pwd)
cd "$dir" || exit 2
# --spread series: the gate as it was when this ran (moderated became the default later that day)
aa() { local f=$1; shift; "$pt" history aa --db h.sqlite --tag pvm1 --pool 10 --inject-sets all --spread series "$@" \
	>"$out/$f" 2>"$out/${f%.txt}.err"; }
echo "$(date -u +%T) default + split"
aa aa-p10-sets.txt &
aa aa-p10-split-sets.txt --run-effect split
wait
echo "$(date -u +%T) done"
