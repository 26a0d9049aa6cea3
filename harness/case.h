/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The case contract between the harness and the workloads: a workload
 * describes its cases for a suite and measures one repetition of a case;
 * the harness runs repetitions and records them. The harness sees cases
 * only through this header, so it never depends on a workload.
 */
#ifndef PTBENCH_CASE_H
#define PTBENCH_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/rep.h"
#include "util/units.h"

#define PT_MAX_CASES 256
/* A THP region counts as THP when huge pages cover at least this share. */
#define PT_THP_MIN_FRACTION 0.9

enum pt_backing {
	PT_BACK_4K = 0, /* base pages, MADV_NOHUGEPAGE */
	PT_BACK_THP, /* PMD-size THP, MADV_HUGEPAGE */
	PT_BACK_MTHP, /* multi-size THP of mthp_size */
	PT_BACK_HUGETLB, /* hugetlbfs pages of the PMD size */
};

struct pt_case {
	char name[64]; /* e.g. "anon-write-4k" */
	char params[192]; /* "key=value;..." sorted by key */
	enum pt_backing backing;
	uint64_t size; /* bytes: working set, region, resident */
	uint64_t span; /* bytes of address space, 0: same as size */
	uint64_t mthp_size; /* for PT_BACK_MTHP */
	uint64_t ops; /* operations per sample (e.g. loads) */
	int variant; /* workload-specific */
	int tasks; /* parallel tasks, 0 or 1: one */
	bool threads; /* tasks are threads, not processes */
	uint64_t mem_bytes; /* peak memory estimate for the guard */
};

struct pt_suite_opts {
	const char *suite; /* "quick", "full", "ci" */
	uint64_t max_mem; /* bytes, from --max-mem */
	uint64_t page_size;
	uint64_t pmd_size; /* hpage_pmd_size of the running kernel */
	uint64_t pud_size; /* derived from page size and PMD size */
	int ncpus;
	bool is_root;
};

struct pt_workload {
	const char *name;
	const char *summary; /* one line for ptbench list */
	const char *help; /* cases and parameters, for ptbench list -v */
	/* Fill out[] with the cases of a suite; returns their number. */
	int (*cases)(const struct pt_suite_opts *o, struct pt_case *out, size_t max);
	/* One repetition: 0 ok, -1 failed (pt_rep_fail), 1 skipped. */
	int (*run)(const struct pt_case *c, struct pt_rep *r);
};

/* Fill params from key/value pairs: pt_case_params(c, "size", "1M", ...) */
void pt_case_set_params(struct pt_case *c, const char *params);
const char *pt_backing_name(enum pt_backing b);

#endif
