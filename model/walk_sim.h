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
	/*
	 * Threads a pattern run may use (walk_run.h), same counts whatever the
	 * number: one simulator puts its data caches in a second thread
	 * (walk_pipe.h); several are spread over them (the first one's value
	 * counts). 0 or 1 is one. Left 0 by init: callers that already run
	 * simulators side by side stay at one.
	 */
	unsigned threads;
	/*
	 * The back half runs in another thread now: preparing must not
	 * prefetch the caches' arrays into this CPU, from which the other
	 * would then have to fetch them.
	 */
	bool back_apart;
	uint64_t threaded_runs; /* pattern feeds made in two threads or more (the tests look) */
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

/*
 * What the data caches see of one access: the walk's descriptor fetches,
 * highest first, then the data load. The TLBs, walk caches and page table
 * decide it (the front half); the caches alone answer it (the back half).
 * Neither half reads what the other writes, so they can run in two threads
 * (walk_pipe.h) with the results of one.
 */
#define PT_REC_OUTSIDE 1u /* above the VA size: nothing to load */
#define PT_REC_WALK 2u /* a TLB miss: fetches, and the walk's cycles to count */

struct pt_walk_rec {
	uint64_t data_pa;
	uint64_t fetch_pa[PT_MAX_LEVELS]; /* in the order of fetch_h's bits, highest first */
	uint8_t fetch_h; /* bit h: a descriptor fetched at height h */
	uint8_t nfetch; /* fetch_h's bits */
	uint8_t flags; /* PT_REC_* */
	uint8_t probes; /* the walk's walk-cache probes */
} __attribute__((aligned(64)));

/* The front half of pt_walksim_access_prepared: TLBs, walk caches, counts in s->st. */
void pt_walksim_front(struct pt_walksim *s, const struct pt_walk_prep *p, struct pt_walk_rec *r);

/*
 * The back half: r's fetches and load through the data caches dc, timed at
 * lat (a pt_walk_cfg's), counted in st (data_loc, step_loc's cache
 * columns, walk_cycles, walk_hist only).
 */
static inline void pt_walksim_back(struct pt_cachesim *dc, const double *lat,
				   const struct pt_walk_rec *r, struct pt_walk_stats *st)
{
	if (r->flags & PT_REC_OUTSIDE)
		return;
	if (r->flags & PT_REC_WALK) {
		unsigned m = r->fetch_h, i = 0;
		uint64_t bucket;
		double cyc = 0;

		/* summed in the order the walk made them, so totals do not depend on threads */
		while (m) {
			unsigned h = 31u - (unsigned)__builtin_clz(m);
			enum pt_loc loc = pt_cachesim_access(dc, r->fetch_pa[i++]);

			m &= ~(1u << h);
			st->step_loc[h][loc]++;
			cyc += lat[PT_LAT_L1 + loc];
		}
		cyc += lat[PT_LAT_WALK] + (double)r->probes * lat[PT_LAT_PWC];
		st->walk_cycles += cyc;
		bucket = (uint64_t)(cyc + 0.5);
		st->walk_hist[bucket < PT_WALK_HIST ? bucket : PT_WALK_HIST - 1]++;
	}
	st->data_loc[pt_cachesim_load(dc, r->data_pa)]++;
}

/* Forget the counts (after warm-up); TLB, caches and tables stay warm. */
void pt_walksim_reset_stats(struct pt_walksim *s);
/* Leaf height of the mapping of va. */
unsigned pt_walksim_leaf_height(const struct pt_walksim *s, uint64_t va);

#endif
