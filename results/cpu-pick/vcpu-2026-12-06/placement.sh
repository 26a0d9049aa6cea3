#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# P: main at 756c0a1 with task-cpu.patch (../NOTES.md); with main since, --cpu N moves the tasks too
# A: child on CPU 0 (as shipped), B: child on CPU 1 (the main thread's), C: everything on CPU 0
P=/work/exp/lowq/build/ptbench
for i in 1 2 3 4 5; do
  $P run --workload fault --case '*-4k-64M' --reps 15 --no-profile --out A$i >/dev/null 2>&1
  PT_TASK_CPU_BASE=1 $P run --workload fault --case '*-4k-64M' --reps 15 --no-profile --out B$i >/dev/null 2>&1
  $P run --workload fault --case '*-4k-64M' --cpu 0 --reps 15 --no-profile --out C$i >/dev/null 2>&1
done
