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

/* Indexed by enum pt_suite, NULL-terminated. */
extern const struct pt_suite_desc pt_suites[];

/* "quick", "full", "ci" into *s. 0, or -1 when no suite has that name. */
int pt_suite_parse(const char *name, enum pt_suite *s);
const char *pt_suite_name(enum pt_suite s);
/* Fill o from the running system for a suite; max_mem 0: its default. */
void pt_suite_opts_init(struct pt_suite_opts *o, enum pt_suite suite, uint64_t max_mem);

#endif
