#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The walk simulator's --bench, one thread and two run alternately, ROUNDS
# rounds: ./bench.sh PTBENCH ROUNDS > out.txt (one "bench:" line per run,
# prefixed with its round, case and --threads).
set -eu
pt=${1:?usage: bench.sh PTBENCH ROUNDS}
rounds=${2:?usage: bench.sh PTBENCH ROUNDS}
cases=(
	"random-d64|--pattern random --ws 4G --formats d64 --accesses 10000000"
	"chase-d64|--pattern chase --ws 4G --formats d64 --accesses 10000000"
	"seq-d64|--pattern seq --ws 4G --formats d64 --accesses 10000000"
	"random-d64-d128|--pattern random --ws 4G --accesses 10000000"
	"random-nested|--pattern random --ws 4G --formats d64 --stage2 d64 --accesses 4000000"
)
for r in $(seq 1 "$rounds"); do
	for c in "${cases[@]}"; do
		name=${c%%|*}
		for t in 1 2; do
			# --stage2 takes one thread whatever is asked: auto there
			th=$t
			[[ $name == *nested* && $t == 2 ]] && th=auto
			echo "round=$r case=$name threads=$th $(date -u +%H:%M:%S) $("$pt" model walk ${c#*|} --bench --threads $th 2>/dev/null)"
		done
	done
done
