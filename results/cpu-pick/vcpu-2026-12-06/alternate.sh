#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# P: main at 756c0a1 with task-cpu.patch (../NOTES.md); with main since, --cpu N moves the tasks too
# alternate the whole measurement (main and the cow child) between CPU 0 and CPU 1
P=/work/exp/lowq/build/ptbench
for i in $(seq -w 1 30); do
  for c in 0 1; do
    PT_TASK_CPU_BASE=$c $P run --workload fault --case '[ac][no][ow]*-4k-64M' --cpu $c --reps 5 --no-profile --out x/c$c-$i >/dev/null 2>&1
  done
done
