// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/env.h"
#include "harness/pgtable_bench.h"
#include "harness/procmem.h"
#include "harness/timer.h"
#include "model/pgtable.h"
#include "util/errf.h"

int pt_sparse_region_map(struct pt_sparse_region *r, uint64_t size, uint64_t stride, char *err,
			 size_t errlen)
{
	uint64_t page = pt_page_size(), a;

	memset(r, 0, sizeof(*r));
	/* each populated page may need a page-table page of its own */
	if (pt_memory_guard(size / stride * (page + page), 0.5, err, errlen))
		return -1;
	r->p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
	if (r->p == MAP_FAILED) {
		r->p = NULL;
		return pt_errf(err, errlen, "mmap %" PRIu64 " bytes: %s", size, strerror(errno));
	}
	/* base pages only: a THP would populate a whole PMD for one write */
	madvise(r->p, size, MADV_NOHUGEPAGE);
	r->size = size;
	r->stride = stride;
	for (a = 0; a < size; a += stride, r->touched++)
		r->p[a] = 1;
	return 0;
}

void pt_sparse_region_unmap(struct pt_sparse_region *r)
{
	if (r->p)
		munmap(r->p, r->size);
	r->p = NULL;
}

int pt_pgtable_time_self(unsigned flags, double *secs, struct pt_pagemap_stats *st, char *err,
			 size_t errlen)
{
	struct pt_regime rg;
	struct pt_layout l;
	uint64_t t0 = pt_now_ns();
	int f;

	if (pt_regime_detect(&rg))
		rg.page_size = pt_page_size(), rg.va_bits = 48;
	if (pt_pagemap_read(0, flags, &l, st, err, errlen))
		return -1;
	for (f = PT_D64; f <= PT_D128; f++) {
		struct pt_geometry g;
		struct pt_pgtable p;

		if (pt_regime_geometry(&rg, f, &g, err, errlen) ||
		    pt_pgtable_model(&g, &l, true, &p, err, errlen)) {
			pt_layout_free(&l);
			return -1;
		}
	}
	*secs = (double)(pt_now_ns() - t0) / 1e9;
	pt_layout_free(&l);
	return 0;
}
