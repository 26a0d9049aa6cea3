// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model pgtable --bench: how many pages per second the model reads
 * and models (harness/pgtable_bench.h), with PAGEMAP_SCAN and without.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/model.h"
#include "harness/pgtable_bench.h"
#include "harness/procmem.h"

int model_pgtable_bench(uint64_t size, uint64_t stride)
{
	uint64_t page = pt_page_size();
	struct pt_sparse_region r;
	struct pt_pagemap_stats st;
	double scan_s = 0, read_s = 0;
	char err[256];
	int rc = PT_EXIT_FAIL;

	if (stride < page || size < stride)
		return pt_usage_error("model pgtable", "--stride must be at least a page and no "
						       "more than --size");
	if (pt_sparse_region_map(&r, size, stride, err, sizeof(err))) {
		fprintf(stderr, "ptbench model pgtable --bench: %s\n", err);
		return PT_EXIT_FAIL;
	}
	if (pt_pgtable_time_self(0, &scan_s, &st, err, sizeof(err)))
		goto out;
	printf("bench: %" PRIu64 " MiB mapped, %" PRIu64 " pages populated (one per %" PRIu64
	       " KiB)\n",
	       size >> 20, r.touched, stride >> 10);
	printf("  %s: %.4f s to read and model (D64 + D128), %.3g mapped pages/s, %.3g "
	       "populated pages/s\n",
	       st.used_scan_ioctl ? "PAGEMAP_SCAN" : "pagemap read", scan_s,
	       (double)st.vma_bytes / (double)page / scan_s,
	       (double)st.populated_bytes / (double)page / scan_s);
	/* the plain read too, to show what PAGEMAP_SCAN saves */
	if (st.used_scan_ioctl) {
		if (pt_pgtable_time_self(PT_PAGEMAP_NO_SCAN, &read_s, &st, err, sizeof(err)))
			goto out;
		printf("  pagemap read: %.4f s to read and model (D64 + D128), %.3g mapped "
		       "pages/s (%" PRIu64 " MiB of pagemap read)\n",
		       read_s, (double)st.vma_bytes / (double)page / read_s,
		       st.pagemap_bytes_read >> 20);
	}
	rc = PT_EXIT_OK;
out:
	if (rc)
		fprintf(stderr, "ptbench model pgtable --bench: %s\n", err);
	pt_sparse_region_unmap(&r);
	return rc;
}
