#!/bin/bash
for i in $(seq -w 1 20); do
	case $((10#$i % 4)) in 1 | 0) o="4k thp" ;; *) o="thp 4k" ;; esac
	for a in $o; do /work/exp/ptbench-$a run --workload ptops --reps 20 --out $a-$i > $a-$i.log 2>&1 || echo "fail $a-$i"; done
done
echo done
