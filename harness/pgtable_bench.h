/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How fast the page-table model reads a process: a sparse region mapped in
 * this process with one page populated per stride, then this process's
 * pagemap read and modelled under both formats, timed.
 */
#ifndef PTBENCH_PGTABLE_BENCH_H
#define PTBENCH_PGTABLE_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "harness/pagemap.h"

struct pt_sparse_region {
	char *p;
	uint64_t size, stride;
	uint64_t touched; /* pages populated */
};

/*
 * Map size bytes (no THP, no reservation) and write one byte per stride,
 * after the memory guard has agreed to the pages and their tables.
 * 0, or -1 with the reason in err.
 */
int pt_sparse_region_map(struct pt_sparse_region *r, uint64_t size, uint64_t stride, char *err,
			 size_t errlen);
void pt_sparse_region_unmap(struct pt_sparse_region *r);

/*
 * Read this process's pagemap (flags as pt_pagemap_read) and model it for
 * D64 and D128; *secs the time both took. 0, or -1 with err.
 */
int pt_pgtable_time_self(unsigned flags, double *secs, struct pt_pagemap_stats *st, char *err,
			 size_t errlen);

#endif
