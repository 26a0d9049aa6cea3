/* SPDX-License-Identifier: GPL-2.0-only */
/* Pieces of the fault workload that the tests check directly. */
#ifndef PTBENCH_WORKLOADS_FAULT_H
#define PTBENCH_WORKLOADS_FAULT_H

#include <stdint.h>

#include "workloads/workload.h"

enum fault_kind {
	FAULT_ANON_WRITE = 0,
	FAULT_ANON_READ,
	FAULT_FILE_PRIV_READ,
	FAULT_FILE_PRIV_WRITE,
	FAULT_FILE_SHARED_WRITE,
	FAULT_COW_CHILD,
	FAULT_NKINDS,
};

const char *fault_kind_name(enum fault_kind k);

/* A fault case's data: the kind of fault, and how many tasks take it. */
struct fault_case {
	enum fault_kind kind;
	int tasks; /* 1: this process alone; more: processes or threads */
	bool threads; /* the tasks are threads of this process */
};
PT_CASE_DATA(struct fault_case, fault_case)

/*
 * The faults a case may take over pages base pages: lo..hi. One fault per
 * mapped unit: a base page, a PMD (THP, huge zero page, PMD-mapped page
 * cache), or an mTHP folio; copy-on-write always maps base pages, and a
 * private file read may be served by fault-around (fewer faults).
 */
void fault_bounds(enum fault_kind k, enum pt_backing b, uint64_t pages, uint64_t page, uint64_t pmd,
		  uint64_t mthp, double *lo, double *hi);

#endif
