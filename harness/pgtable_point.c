// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload's page-table measurement point: the kernel's own figure
 * (VmPTE) next to the model's, for the whole process. The model reads this
 * process's pagemap, so both sides see the same memory; the ratio of the
 * two is the model's validation on every case (docs/model.md).
 */
#include <stdio.h>

#include "harness/env.h"
#include "harness/pagemap.h"
#include "harness/procmem.h"
#include "harness/rep.h"
#include "model/pgtable.h"

struct point_model {
	uint64_t running_kernel; /* kernel-counted levels, running format */
	uint64_t d64_all, d128_all; /* every level */
};

static int model_format(const struct pt_regime *rg, enum pt_format f, const struct pt_layout *l,
			struct pt_pgtable *p, char *err, size_t errlen)
{
	struct pt_geometry g;

	if (pt_regime_geometry(rg, f, &g, err, errlen))
		return -1;
	return pt_pgtable_model(&g, l, true, p, err, errlen);
}

static int model_self(struct point_model *m, char *err, size_t errlen)
{
	struct pt_pagemap_stats st;
	struct pt_regime rg;
	struct pt_layout l;
	struct pt_pgtable p64, p128;
	int rc = -1;

	if (pt_regime_detect(&rg)) {
		snprintf(err, errlen, "the translation regime is unknown");
		return -1;
	}
	if (pt_pagemap_read(0, 0, &l, &st, err, errlen))
		return -1;
	if (model_format(&rg, PT_D64, &l, &p64, err, errlen) ||
	    model_format(&rg, PT_D128, &l, &p128, err, errlen))
		goto out;
	m->running_kernel = rg.format == PT_D128 ? p128.bytes_kernel : p64.bytes_kernel;
	m->d64_all = p64.bytes_all;
	m->d128_all = p128.bytes_all;
	rc = 0;
out:
	pt_layout_free(&l);
	return rc;
}

void pt_rep_pgtable_point(struct pt_rep *r, long vmpte_base_kb)
{
	long vmpte_kb = pt_vmpte_kb();
	struct point_model m;
	char err[256];

	if (vmpte_kb >= 0) {
		if (vmpte_base_kb >= 0)
			pt_rep_emit(r, "pgtable_bytes_kernel",
				    (double)(vmpte_kb - vmpte_base_kb) * 1024, "bytes", PT_LOWER);
		pt_rep_emit(r, "pgtable_bytes_kernel_total", (double)vmpte_kb * 1024, "bytes",
			    PT_LOWER);
	} else {
		pt_rep_note(r, "VmPTE is not readable: no measured page-table bytes");
	}
	if (model_self(&m, err, sizeof(err))) {
		pt_rep_note(r, "page-table model not computed: %s", err);
		return;
	}
	pt_rep_emit(r, "pgtable_bytes_model_running", (double)m.running_kernel, "bytes", PT_LOWER);
	if (vmpte_kb > 0)
		pt_rep_emit(r, "pgtable_model_vs_kernel_ratio",
			    (double)m.running_kernel / ((double)vmpte_kb * 1024), "ratio",
			    PT_NEITHER);
	pt_rep_emit(r, "pgtable_bytes_model_d64", (double)m.d64_all, "bytes", PT_LOWER);
	pt_rep_emit(r, "pgtable_bytes_model_d128", (double)m.d128_all, "bytes", PT_LOWER);
	if (m.d64_all)
		pt_rep_emit(r, "pgtable_d128_d64_ratio", (double)m.d128_all / (double)m.d64_all,
			    "ratio", PT_NEITHER);
}
