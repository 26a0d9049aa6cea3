/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What D128 does to the kernel's page-table operations (fork, mprotect,
 * munmap, faults), as a cost model (docs/opcost.md):
 *  - structural counts of one operation under each format, from the
 *    page-table model (entries read and written, table pages allocated,
 *    zeroed and freed, operations needed for the same work: a 2M THP fault
 *    is two 1M faults under 4K D128);
 *  - per component of the operation's measured D64 time (the profile's
 *    shares), a factor: D128 cost of that component over its D64 cost,
 *    from the counts and the replica's per-entry costs of each format;
 *  - the prediction T128 = T64 * sum(share * factor), as a range.
 * Pure computation: no I/O.
 */
#ifndef PTBENCH_MODEL_OPCOST_H
#define PTBENCH_MODEL_OPCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The operations predicted, each timed by one workload's primary metric. */
enum pt_op {
	PT_OP_FORK = 0, /* per fork: copy the region's tables, the child's exit */
	PT_OP_MPROTECT, /* per call over the whole region */
	PT_OP_MUNMAP, /* per 4K page of the region released */
	PT_OP_FAULT, /* per fault of fault_bytes (4K, an mTHP, a PMD block) */
	PT_OP_N,
};

/*
 * Where a page-table operation's time goes: the profile's components
 * (docs/profile.md). Their names are the profile_<name>_share rows.
 */
enum pt_comp {
	PT_COMP_COPY = 0, /* copy_page_range & co */
	PT_COMP_CHPROT, /* change_protection & co */
	PT_COMP_ZAP, /* unmap_page_range & co */
	PT_COMP_FREE, /* free_pgtables & co */
	PT_COMP_ALLOC, /* __pte_alloc & co */
	PT_COMP_SET, /* the fault path that sets entries */
	PT_COMP_ZERO, /* clear_page, folio_zero_user */
	PT_COMP_TLB, /* TLB flushes */
	PT_COMP_KOTHER, /* the rest of the kernel */
	PT_COMP_USER, /* user space */
	PT_COMP_N,
};

/* The replica loops of the ptops workload (docs/workloads-notes.md). */
enum pt_replica {
	PT_REPL_COPY = 0,
	PT_REPL_CHPROT,
	PT_REPL_ZAP,
	PT_REPL_SET,
	PT_REPL_ALLOC, /* per table page: take, zero, install, free */
	PT_REPL_N,
	PT_REPL_NONE = PT_REPL_N,
};

const char *pt_op_name(enum pt_op op);
const char *pt_comp_name(enum pt_comp c);
const char *pt_replica_name(enum pt_replica r);
/* The replica whose loop stands for component c's descriptor accesses. */
enum pt_replica pt_comp_replica(enum pt_comp c);

/* One operation on one region, as the workload ran it. */
struct pt_op_case {
	enum pt_op op;
	uint64_t region_bytes; /* the populated region the operation covers */
	bool thp; /* the region is PMD-mapped THP (else 4K pages) */
	uint64_t fault_bytes; /* PT_OP_FAULT: bytes one D64 fault maps */
	bool frees_tables; /* munmap frees tables; MADV_DONTNEED does not */
};

/* Structural counts of one operation under one format (per operation). */
struct pt_op_counts {
	double entries; /* descriptors read and written by the operation's loop */
	double tables; /* table pages allocated (or freed) */
	double zero_bytes; /* bytes zeroed: new tables, and a fault's data */
	double ops; /* operations of this format doing one D64 operation's work */
	unsigned levels; /* walk levels */
};

/*
 * Counts for D64 and D128, both with the 4K granule and 48-bit VA (the
 * x86-64 and arm64 4K D64 VA48 regime), from model/pgtable. 0, or -1 with
 * a message for a case the model cannot lay out.
 */
int pt_op_counts_make(const struct pt_op_case *c, struct pt_op_counts *d64,
		      struct pt_op_counts *d128, char *err, size_t errlen);

/* A replica's per-entry (per-table for alloc) costs, ns, with a range. */
struct pt_replica_cost {
	bool have;
	double d64, d128; /* medians */
	double ratio, ratio_lo, ratio_hi; /* D128/D64: median and 95% range */
};

/* A component's factor: its D128 cost over its D64 cost, as a range. */
struct pt_comp_factor {
	double lo, mid, hi;
	/* replica D64 cost x entries over the component's time; <0: none */
	double bound_share;
};

/*
 * The factor of component c for an operation whose component takes
 * comp_ns (D64, per operation). The descriptor part the replica accounts
 * for (its D64 cost x entries, at most comp_ns) is replaced by the
 * replica's D128 cost x D128 entries, the rest scaled with the count of
 * what it works on (lo, mid); hi scales the whole component by the
 * replica ratio and the counts, as if all of it were descriptor work.
 */
void pt_comp_factor(enum pt_comp c, double comp_ns, const struct pt_op_counts *d64,
		    const struct pt_op_counts *d128, const struct pt_replica_cost *rep,
		    struct pt_comp_factor *out);

/* The prediction of one operation: D128 over D64 for the same work. */
struct pt_op_prediction {
	double ratio, ratio_lo, ratio_hi;
	/* shares used (sum 1) and each component's factor */
	double share[PT_COMP_N];
	struct pt_comp_factor f[PT_COMP_N];
	double sampling_sd; /* sd of the ratio from the profile's sample count */
};

/*
 * Combine: shares (sum 1, from the profile; samples the count behind
 * them, 0 when there is no profile) and the operation's D64 time t64_ns.
 * The ratio's range spans lo..hi factors and two standard deviations of
 * the multinomial sampling error of the shares.
 */
void pt_op_predict(const double share[PT_COMP_N], double samples, double t64_ns,
		   const struct pt_op_counts *d64, const struct pt_op_counts *d128,
		   const struct pt_replica_cost rep[PT_REPL_N], struct pt_op_prediction *out);

#endif
