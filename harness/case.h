/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The case contract between the harness and the workloads: a workload
 * describes its cases for a suite and measures one repetition of a case;
 * the harness runs repetitions and records them. The harness sees cases
 * only through this header, so it never depends on a workload.
 */
#ifndef PTBENCH_CASE_H
#define PTBENCH_CASE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* The size of a case's per-workload data (struct pt_case.data). */
#define PT_CASE_DATA_SIZE 32

struct pt_case {
	char name[64]; /* e.g. "anon-write-4k" */
	char params[192]; /* "key=value;..." sorted by key (util/params.h) */
	/* What the shared region helpers need: the backing and its size. */
	enum pt_backing backing;
	uint64_t size; /* bytes: working set, region, resident */
	uint64_t mthp_size; /* for PT_BACK_MTHP */
	uint64_t mem_bytes; /* peak memory estimate for the guard */
	/*
	 * What else a workload needs to run the case (its kind of operation,
	 * task count): opaque bytes to the harness, which only copies cases.
	 * A workload reads and writes them through the typed accessors that
	 * PT_CASE_DATA defines, never directly.
	 */
	const char *data_type;
	_Alignas(8) unsigned char data[PT_CASE_DATA_SIZE];
	/* NULL: the workload's primary_metric; a string literal otherwise */
	const char *primary_metric;
};

/*
 * PT_CASE_DATA(struct fault_case, fault_case) defines
 *   void fault_case_set(struct pt_case *c, const struct fault_case *d);
 *   struct fault_case fault_case_get(const struct pt_case *c);
 * The data is copied in and out (memcpy), so the bytes are never read
 * through a pointer of another type; the size is checked when the
 * workload compiles; data_type records which struct was stored, and a
 * debug build asserts that a case is read as the struct it was given (a
 * case passed to the wrong workload).
 */
#define PT_CASE_DATA(type, prefix)                                                                 \
	_Static_assert(sizeof(type) <= PT_CASE_DATA_SIZE, #type " does not fit pt_case.data");     \
	static inline void prefix##_set(struct pt_case *c, const type *d)                          \
	{                                                                                          \
		c->data_type = #type;                                                              \
		memcpy(c->data, d, sizeof(*d));                                                    \
	}                                                                                          \
	static inline type prefix##_get(const struct pt_case *c)                                   \
	{                                                                                          \
		type d;                                                                            \
                                                                                                   \
		assert(c->data_type && !strcmp(c->data_type, #type));                              \
		memcpy(&d, c->data, sizeof(d));                                                    \
		return d;                                                                          \
	}

/* The suites; their names and summaries are in workloads/suite.c. */
enum pt_suite {
	PT_SUITE_QUICK = 0, /* the default */
	PT_SUITE_FULL,
	PT_SUITE_CI,
	PT_SUITE_N,
};

struct pt_suite_opts {
	enum pt_suite suite;
	uint64_t max_mem; /* bytes, from --max-mem */
	uint64_t page_size;
	uint64_t pmd_size; /* hpage_pmd_size of the running kernel */
	uint64_t pud_size; /* derived from page size and PMD size */
	int ncpus;
	bool is_root;
};

struct pt_workload {
	const char *name;
	/*
	 * The one metric that is a case's headline cost: the gate judges it,
	 * and shows the others without gating them (a config can add more).
	 * A case may name another (pt_case.primary_metric).
	 */
	const char *primary_metric;
	/*
	 * The control case (workload "control") whose time in the same round
	 * divides this workload's primary timing into <primary>_norm rows;
	 * NULL: none (a byte count needs no normalising).
	 */
	const char *control;
	/*
	 * Operations whose kernel time the profiler splits into page-table
	 * components: ptbench run adds one sampled repetition after the timed
	 * ones (harness/profile.h, docs/profile.md).
	 */
	bool profile;
	/*
	 * Each repetition maps, populates and warms its own memory before it
	 * times anything, so a warm-up repetition would only repeat that: the
	 * warm-up rounds (--warmup) skip the workload's cases.
	 */
	bool self_warming;
	const char *summary; /* one line for ptbench list */
	const char *help; /* cases and parameters, for ptbench list -v */
	/* Fill out[] with the cases of a suite; returns their number. */
	int (*cases)(const struct pt_suite_opts *o, struct pt_case *out, size_t max);
	/*
	 * One repetition: 0 ok, -1 failed (pt_rep_fail) or a transient refusal
	 * to run again (pt_rep_retry), 1 skipped.
	 */
	int (*run)(const struct pt_case *c, struct pt_rep *r);
};

/* The headline metric of case c of workload w. */
static inline const char *pt_case_primary(const struct pt_workload *w, const struct pt_case *c)
{
	return c->primary_metric ? c->primary_metric : w->primary_metric;
}

const char *pt_backing_name(enum pt_backing b);

#endif
