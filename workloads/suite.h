/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites and the options that shape their cases, shared by list and run. */
#ifndef PTBENCH_SUITE_H
#define PTBENCH_SUITE_H

#include <stdbool.h>

#include "workloads/workload.h"

struct pt_suite_desc {
	const char *name;
	const char *summary;
};

extern const struct pt_suite_desc pt_suites[];

bool pt_suite_known(const char *name);
/* Fill o from the running system for a suite; max_mem 0: its default. */
void pt_suite_opts_init(struct pt_suite_opts *o, const char *suite, uint64_t max_mem);

#endif
