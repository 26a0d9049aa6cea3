#!/bin/bash
# Histories whose pool is every K-th morning r20 run (time order), then this block's 30.
set -eu
PT=/work/exp/r20-later/ptbench
cd /work/exp/reps20/runs
mapfile -t morning < <(for d in ci-*-r20; do python3 -c "import json;print(json.load(open('$d/meta.json'))['run']['started_utc'], '$d')"; done | sort | awk '{print $2}')
for k in 5 2; do
	db=/work/exp/r20-later/h-every$k.sqlite
	rm -f $db $db-wal $db-shm
	for ((i = 0; i < ${#morning[@]}; i += k)); do
		$PT history add /work/exp/reps20/runs/${morning[$i]} --db $db >/dev/null
	done
	for d in /work/exp/r20-later/runs/ci-??; do
		$PT history add $d --db $db >/dev/null
	done
	echo "every $k: $($PT history list --db $db --tag r20 | tail -n +2 | wc -l) runs"
done
