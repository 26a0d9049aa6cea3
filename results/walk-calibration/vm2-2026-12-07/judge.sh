#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# judge.sh OLD RUN...: each fresh ./run.sh directory's walk_calibration.txt
# (the new structure set) beside OLD's recalibration of the same results
# (the set before it), written to RUN/old.txt; one line per run with fit,
# heldout, heldout_nested, half and the chosen structure of both. Run with
# nothing else running: calibrate takes 1-2 minutes a run.
set -u
old=$1
shift
get() { # FILE: fit heldout nested half chosen
	awk '/^fit:/ { split($2, a, "="); f = a[2] }
	     /^heldout:/ { split($2, a, "="); h = a[2] }
	     /^heldout_nested:/ { split($2, a, "="); n = a[2] }
	     /^half: rms_rel_err=/ { split($2, a, "="); q = a[2] }
	     /^# chosen:/ { c = $3; sub(/,$/, "", c) }
	     END { printf "%s %s %s %s %s", f, h, n, q, c }' "$1"
}
printf '%-28s %-55s %s\n' run "new: fit heldout nested half chosen" "old: fit heldout nested half chosen"
for d in "$@"; do
	[ -s "$d/old.txt" ] || "$old" model walk calibrate --results "$d" -o "$d/old.csv" >"$d/old.txt" 2>/dev/null ||
		{ echo "$d: old calibrate failed" >&2; continue; }
	printf '%-28s %-55s %s\n' "$(basename "$d")" "$(get "$d/walk_calibration.txt")" "$(get "$d/old.txt")"
done
