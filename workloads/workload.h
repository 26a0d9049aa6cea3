/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A workload family is one file in workloads/ and one line in registry.c.
 * It fills in the case contract (harness/case.h) and knows nothing of CSV
 * or the command line.
 */
#ifndef PTBENCH_WORKLOAD_H
#define PTBENCH_WORKLOAD_H

#include <stdbool.h>

#include "harness/case.h"

/* The families in suite order, NULL-terminated. */
extern const struct pt_workload *const pt_workloads[];
const struct pt_workload *pt_workload_find(const char *name);
/* The family's timing is the kernel's (a fault or a system call), not user space's. */
bool pt_workload_times_kernel(const char *name);

#endif
