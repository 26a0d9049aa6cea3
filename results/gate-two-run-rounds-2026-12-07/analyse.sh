#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# analyse.sh PTBENCH [DATA...]: the measures of rule.txt and rule-yuen.txt,
# from the kept runs only, for the DATA named (default: all of them). Data: "dev", the 160 ci runs of ../gate-pvm-2026-12-07{,b,d,e}
# and ../gate-lowtrim-2026-12-07 (runs-primary.tar.xz); "heldout", the 10
# fault runs of fault-runs.tar.xz (20:53-21:00 UTC, rule.txt's held-out
# check); "heldout2", the 10 of fault-runs2.tar.xz (21:12-21:18 UTC,
# rule-yuen.txt's); "heldout3", the 10 of fault-runs3.tar.xz (made after
# the default changed, reported only). Settings: "off" and "on" (--test mw, the round effect
# off or on), "yuen" and "yuen-on" (--test yuen, the same). For each: the
# A/A pairs (aa.sh) and the self-copy injections (inject.py), written here
# as DATA-aa-SETTING.txt and DATA-inject-SETTING.txt.
set -u
[ -n "${1:-}" ] || { echo "usage: ${0##*/} PTBENCH [dev|heldout|heldout2|heldout3...]" >&2; exit 2; }
pt=$1
case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
[ -x "$pt" ] || { echo "${0##*/}: PTBENCH '$pt': not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
# shellcheck source=results/gate-two-run-rounds-2026-12-07/ci-runs.sh
. "$here/ci-runs.sh"
ci_runs "$work" || exit 2
want=("${@:2}")
[ ${#want[@]} -gt 0 ] || want=(dev heldout heldout2 heldout3)
declare -A archive=([heldout]=fault-runs [heldout2]=fault-runs2 [heldout3]=fault-runs3)
declare -A opts=([off]="--test mw --round-effect off" [on]="--test mw --round-effect on"
	[yuen]="--test yuen --round-effect off" [yuen-on]="--test yuen --round-effect on")
mkdir "$work/out" || exit 2
for data in "${want[@]}"; do
	if [ "$data" = dev ]; then
		# the 160 ci runs, two settings at a time (one per CPU)
		for s in off on yuen yuen-on; do
			"$here/aa.sh" "$pt" "${opts[$s]}" "${dev[@]}" >"$work/out/dev-aa-$s.txt" || exit 1
		done
		for pair in "off on" "yuen yuen-on"; do
			for s in $pair; do
				"$here/inject.py" "$pt" "${opts[$s]}" "${dev[0]}"/ci-* "${dev[1]}"/ci-* \
					"${dev[2]}"/ci-* "${dev[3]}"/ci-* "${dev[4]}"/ci-* \
					>"$work/out/dev-inject-$s.txt" &
			done
			wait
		done
		continue
	fi
	[ -n "${archive[$data]:-}" ] || { echo "${0##*/}: unknown DATA '$data'" >&2; exit 2; }
	mkdir "$work/$data" && tar -xJf "$here/${archive[$data]}.tar.xz" -C "$work/$data" || exit 2
	for s in off on yuen yuen-on; do
		"$here/aa.sh" "$pt" "${opts[$s]}" "$work/$data" >"$work/out/$data-aa-$s.txt" || exit 1
		"$here/inject.py" "$pt" "${opts[$s]}" "$work/$data"/f?? \
			>"$work/out/$data-inject-$s.txt" || exit 1
	done
done
for f in "$work"/out/*.txt; do
	[ -s "$f" ] || { echo "${0##*/}: ${f##*/} is empty" >&2; exit 1; }
	sed "s|$work/||g" "$f" >"$here/${f##*/}.tmp" && mv "$here/${f##*/}.tmp" "$here/${f##*/}"
done
