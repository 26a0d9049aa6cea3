#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sketch.sh: the figures rule-yuen.txt quotes, from the kept runs: run.py
# for four trims with the round effect off and on over the 160 ci runs and
# over the 10 fault runs of 20:53 (../fault-runs.tar.xz), and calib.py for
# two trims. Writes sketch.txt here. Minutes of CPU, no ptbench.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
# shellcheck source=results/gate-two-run-rounds-2026-12-07/ci-runs.sh
. "$here/../ci-runs.sh"
ci_runs "$work" || exit 2
mkdir "$work/ho" && tar -xJf "$here/../fault-runs.tar.xz" -C "$work/ho" || exit 2
{
	for data in ci fault; do
		echo "== $data runs"
		for r in off on; do
			for t in "0.2 0.2" "0 0.3" "0.1 0.3" "0 0.4"; do
				# shellcheck disable=SC2086 # the trim is two arguments
				if [ $data = ci ]; then
					/usr/bin/python3 "$here/run.py" $t $r "${dev[@]}"
				else
					/usr/bin/python3 "$here/run.py" $t $r "$work/ho"
				fi
			done
		done
	done
	echo "== residual draws, ci runs' fault series"
	/usr/bin/python3 "$here/calib.py" 0 0.4 "${dev[@]}"
	/usr/bin/python3 "$here/calib.py" 0.2 0.2 "${dev[@]}"
} >"$work/sketch.txt" || exit 1
mv "$work/sketch.txt" "$here/sketch.txt"
