#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH: rule.txt's measures, from the kept runs only.
# Development data: the 160 ci runs of ../gate-pvm-2026-12-07{,b,d,e} and
# ../gate-lowtrim-2026-12-07 (runs-primary.tar.xz). Held out: the 10 fault
# runs of fault-runs.tar.xz (fault-runs.sh, 20:53-21:00 UTC). For each,
# with the two-run round effect off and on: the A/A pairs (aa.sh) and the
# self-copy injections (inject.py). Writes dev-{aa,inject}-{off,on}.txt and
# heldout-{aa,inject}-{off,on}.txt here.
set -u
[ -n "${1:-}" ] || { echo "usage: ${0##*/} PTBENCH" >&2; exit 2; }
pt=$1
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
dev=()
for d in gate-pvm-2026-12-07 gate-pvm-2026-12-07b gate-lowtrim-2026-12-07 \
	gate-pvm-2026-12-07d gate-pvm-2026-12-07e; do
	mkdir "$work/$d" && tar -xJf "$here/../$d/runs-primary.tar.xz" -C "$work/$d" || exit 2
	dev+=("$work/$d"/*)
done
mkdir "$work/ho" && tar -xJf "$here/fault-runs.tar.xz" -C "$work/ho" || exit 2
for m in off on; do
	"$here/aa.sh" "$pt" $m "${dev[@]}" >"$work/dev-aa-$m.txt" || exit 1
	"$here/aa.sh" "$pt" $m "$work/ho" >"$work/heldout-aa-$m.txt" || exit 1
	"$here/inject.py" "$pt" $m "$work/ho"/f?? >"$work/heldout-inject-$m.txt" || exit 1
	# the 160 ci runs: two at once, one per CPU
	"$here/inject.py" "$pt" $m "${dev[0]}"/ci-* "${dev[1]}"/ci-* "${dev[2]}"/ci-* \
		"${dev[3]}"/ci-* "${dev[4]}"/ci-* >"$work/dev-inject-$m.txt" &
done
wait
for f in "$work"/*.txt; do
	[ -s "$f" ] || { echo "${0##*/}: ${f##*/} is empty" >&2; exit 1; }
	sed "s|$work/||g" "$f" >"$here/${f##*/}.tmp" && mv "$here/${f##*/}.tmp" "$here/${f##*/}"
done
