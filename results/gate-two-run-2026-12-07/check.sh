#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# check.sh PTBENCH: issue 14's two-run check on a real fault run. The run
# kept in run.tar.xz (f1: ptbench run --workload fault --reps 10, PVM guest,
# 2026-12-07 19:39:58-19:40:38 UTC) and a copy with the 4K anonymous write
# fault's primary metric (ns_per_fault) 10% slower in every repetition,
# compared with `ptbench compare --test mw` (the rank test, the two-run
# default when this was measured): its exit status and that series' line
# (compare.txt), and each primary series' deviation per round from its own
# median, in percent (rounds.txt). It only reads the archive.
set -u
[ -n "${1:-}" ] || { echo "usage: ${0##*/} PTBENCH" >&2; exit 2; }
pt=$1
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
tar -xJf "$here/run.tar.xz" -C "$work" || exit 2
cp -r "$work/f1" "$work/f1slow" || exit 2
/usr/bin/python3 "$here/rounds.py" "$work/f1" "$work/f1slow" >"$work/rounds.txt" || exit 1
rc=0
"$pt" compare --test mw "$work/f1" "$work/f1slow" >"$work/cmp.out" 2>"$work/cmp.err" || rc=$?
{
	echo "ptbench compare f1 f1-with-anon-write-4k-64M-ns_per_fault-x1.10: exit $rc"
	# the primary metric's section: its header lines and the slowed series
	awk '/^ns_per_fault /{on=1; n=0} on&&!NF{on=0} on&&(n++<2||/ fault\/anon-write-4k-64M \[/)' \
		"$work/cmp.out"
	cat "$work/cmp.err"
} >"$work/compare.txt"
mv "$work/compare.txt" "$here/compare.txt" && mv "$work/rounds.txt" "$here/rounds.txt"
