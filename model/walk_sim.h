/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace-driven translation simulator for one descriptor format: every
 * data access goes through the TLBs; a miss walks the simulated page table
 * through the walk caches and the data-cache hierarchy; then the access
 * itself goes through the data caches. Only counts are kept per access;
 * cycles come from the linear cost model (walk_cost.h).
 */
#ifndef PTBENCH_MODEL_WALK_SIM_H
#define PTBENCH_MODEL_WALK_SIM_H

#include "model/cachesim.h"
#include "model/tlbsim.h"
#include "model/walk_cfg.h"
#include "model/walk_pt.h"
#include "model/walkcache.h"

#define PT_STEP_PWC PT_LOC_N /* a walk step served by the walk cache */
#define PT_STEP_N (PT_LOC_N + 1)
#define PT_WALK_HIST 8192 /* walk-cycle histogram, 1-cycle buckets */

struct pt_walk_stats {
	uint64_t accesses; /* data accesses simulated */
	uint64_t outside; /* skipped: above the VA size */
	uint64_t l1tlb_hits, l2tlb_hits, walks;
	uint64_t walks2; /* stage-2 (host) walks; 0 in the one-stage model */
	uint64_t data_loc[PT_LOC_N];
	uint64_t step_loc[PT_MAX_LEVELS][PT_STEP_N]; /* [height][where] */
	uint64_t pwc_lookups[PT_MAX_LEVELS], pwc_hits[PT_MAX_LEVELS];
	uint64_t pwc_probes; /* walk-cache lookups, all levels */
	uint64_t walk_hist[PT_WALK_HIST]; /* walks by cycles, last = overflow */
	double walk_cycles; /* sum, at the configured latencies */
};

struct pt_walksim {
	struct pt_walk_cfg cfg;
	struct pt_pagetable pt;
	struct pt_tlbsim tlb;
	struct pt_cachesim dc;
	struct pt_walkcache pwc;
	unsigned block_h; /* leaf height of huge mappings, 0: none */
	uint64_t block_lo, block_hi; /* huge mappings only inside [lo, hi) */
	uint64_t va_limit;
	struct pt_walk_stats st;
};

/*
 * block_h: 0 for base pages only, 1 for PMD blocks, 2 for PUD blocks,
 * applied to the blocks wholly inside [block_lo, block_hi).
 */
int pt_walksim_init(struct pt_walksim *s, const struct pt_geometry *g,
		    const struct pt_walk_cfg *cfg, unsigned block_h, uint64_t block_lo,
		    uint64_t block_hi, char *err, size_t errlen);
void pt_walksim_free(struct pt_walksim *s);
void pt_walksim_access(struct pt_walksim *s, uint64_t va);

/*
 * An access worked out ahead of its turn: what depends on va alone, and
 * its leaf table if it exists. Preparing also prefetches the host memory the
 * access will touch, so that the host misses of several accesses overlap.
 */
#define PT_PREP_OUTSIDE (~0u) /* lh of an access above the VA size */

struct pt_walk_prep {
	uint64_t va;
	uint64_t data_pa;
	uint64_t table; /* the leaf table, 0: not created yet */
	unsigned lh; /* leaf height, or PT_PREP_OUTSIDE */
};

/*
 * Prepare an access to va; prev: the access prepared just before it on s,
 * or NULL. Reads s only: any number of accesses may be prepared before they
 * are made, in order, with pt_walksim_access_prepared (same results as
 * pt_walksim_access).
 */
void pt_walksim_prepare_new(const struct pt_walksim *s, uint64_t va,
			    const struct pt_walk_prep *prev, struct pt_walk_prep *p);

static inline void pt_walksim_prepare(const struct pt_walksim *s, uint64_t va,
				      const struct pt_walk_prep *prev, struct pt_walk_prep *p)
{
	/* the line of the access before (sequential scans): all but va is known */
	if (prev && !((va ^ prev->va) >> PT_LINE_SHIFT)) {
		*p = *prev;
		p->va = va;
		p->data_pa = (prev->data_pa & ~((1ull << PT_LINE_SHIFT) - 1)) |
			     (va & ((1ull << PT_LINE_SHIFT) - 1));
		return;
	}
	pt_walksim_prepare_new(s, va, prev, p);
}
void pt_walksim_access_prepared(struct pt_walksim *s, const struct pt_walk_prep *p);
/* Forget the counts (after warm-up); TLB, caches and tables stay warm. */
void pt_walksim_reset_stats(struct pt_walksim *s);
/* Leaf height of the mapping of va. */
unsigned pt_walksim_leaf_height(const struct pt_walksim *s, uint64_t va);

#endif
