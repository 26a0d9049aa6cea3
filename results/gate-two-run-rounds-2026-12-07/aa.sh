#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# aa.sh PTBENCH OPTIONS DIR...: the two-run A/A rate. Each DIR's runs (its
# subdirectories with a results.csv), in name order, paired 1-2, 3-4, ...; each pair compared with
# `ptbench compare A B OPTIONS` (one argument, split at blanks: e.g.
# "--round-effect on --test yuen"); prints each pair that fired
# (exit 1) with the series it named, and the count.
set -u
[ $# -ge 3 ] || { echo "usage: ${0##*/} PTBENCH OPTIONS DIR..." >&2; exit 2; }
pt=$1
read -r -a options <<<"$2"
shift 2
fired=0 pairs=0
for dir in "$@"; do
	runs=()
	for csv in "$dir"/*/results.csv; do
		runs+=("${csv%/results.csv}")
	done
	for ((i = 0; i + 1 < ${#runs[@]}; i += 2)); do
		rc=0
		err=$("$pt" compare "${runs[i]}" "${runs[i + 1]}" "${options[@]}" 2>&1 >/dev/null) || rc=$?
		pairs=$((pairs + 1))
		case $rc in
		0) ;;
		1)
			fired=$((fired + 1))
			echo "fired: ${runs[i]#"$dir"/} ${runs[i + 1]#"$dir"/} in ${dir##*/}"
			grep '^  [a-z]' <<<"$err" | sed 's/ \[[^]]*\]//'
			;;
		*) echo "${runs[i]}: compare exited $rc: $err" >&2; exit 2 ;;
		esac
	done
done
echo "A/A, ${options[*]}: fired on $fired of $pairs pairs"
