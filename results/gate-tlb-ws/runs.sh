#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Identical ci runs (tlb at 4M and 32M), each added to one history, until
# N runs, the stop file, or the deadline (UTC HH:MM) passes; further
# arguments go to every `ptbench run` (e.g. --reps 20).
#   runs.sh DIR TAG N DEADLINE [RUN-ARG...]   (DIR holds ptbench, a copy of the binary)
set -u
dir=$1 tag=$2 n=$3 deadline=$4
shift 4
# the deadline's next occurrence from now, so that one past midnight
# (23:30 started, 00:40 deadline) is not taken as already gone
now=$(date -u +%s)
end=$(date -u -d "$deadline" +%s 2>/dev/null) || { echo "runs.sh: deadline '$deadline': expected HH:MM" >&2; exit 2; }
[ "$end" -lt "$now" ] && end=$((end + 86400))
PT=$dir/ptbench out=$dir/runs db=$dir/h.sqlite
mkdir -p "$out"
for i in $(seq -w 1 "$n"); do
	[ -e "$dir/stop" ] && break
	[ "$(date -u +%s)" -gt "$end" ] && break
	d="$out/ci-$i"
	[ -e "$d/meta.json" ] && continue
	echo "$(date -u +%T) run $i"
	"$PT" run --suite ci "$@" --tag "$tag" --out "$d" >"$d.log" 2>&1 || echo "run $d failed"
	"$PT" history add "$d" --db "$db" >>"$out/add.log" 2>&1 || echo "add $d failed"
done
echo "$(date -u +%T) done"
