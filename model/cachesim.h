/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Data-cache hierarchy at 64-byte lines, physically indexed: up to three
 * levels, each filled on the way back from a miss (non-inclusive, no
 * back-invalidation). Page-table entry fetches and the trace's own data
 * accesses share it, so walks compete with data as on hardware. A data
 * load can bring the rest of its aligned block with it (an adjacent-line
 * prefetcher): a load that uses one line of a page then fills the caches
 * with a neighbour it never reads.
 */
#ifndef PTBENCH_MODEL_CACHESIM_H
#define PTBENCH_MODEL_CACHESIM_H

#include "model/cache_aged.h"
#include "model/cachesim_sa.h"

#define PT_LINE_SHIFT 6
#define PT_CACHE_LEVELS 3
#define PT_CACHE_MAX_PREFETCH 8 /* lines per block of the data loads' spatial prefetch */

/* Where an access was found: a cache level, or memory. */
enum pt_loc { PT_LOC_L1 = 0, PT_LOC_L2, PT_LOC_LLC, PT_LOC_MEM, PT_LOC_N };

struct pt_cache_level_cfg {
	uint64_t size_bytes;
	unsigned ways;
	/*
	 * Random victims instead of LRU: a cyclic chase one line larger than
	 * an LRU cache misses on every access, while a cache shared with other
	 * tenants (or one whose policy is not LRU) keeps a share of it.
	 */
	bool random;
};

struct pt_cachesim {
	/* an LRU level of 4, 8, 12 or 16 ways is aged[l] (aged[l].key set), any other level[l] */
	struct pt_aged aged[PT_CACHE_LEVELS];
	struct pt_sa level[PT_CACHE_LEVELS];
	bool on; /* off: every access is reported as an L1 hit */
	/* block mask of the data loads' spatial prefetch (lines - 1); 0: none */
	uint64_t pf_mask;
};

/*
 * prefetch_lines: 0 or 1 none, else 2, 4 or 8: the aligned block a data
 * load's miss past the L2 fills into the L2 and the LLC (pt_cachesim_load).
 */
int pt_cachesim_init(struct pt_cachesim *c, const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS],
		     bool on, unsigned prefetch_lines, char *err, size_t errlen);
/* Fill the other lines of line's block into the L2 and the LLC (not timed: off the load's path). */
void pt_cachesim_fill_block(struct pt_cachesim *c, uint64_t line);
void pt_cachesim_free(struct pt_cachesim *c);

/*
 * Access the line in level l: a hit becomes MRU, a miss is filled at once
 * (the levels are separate arrays, so filling on the way down leaves the
 * state a fill on the way back would). Returns whether it hit.
 */
static pt_sa_inline bool pt_cache_level_access(struct pt_cachesim *c, unsigned l, uint64_t line)
{
	if (c->aged[l].key)
		return pt_aged_access(&c->aged[l], line);
	return pt_sa_access(&c->level[l], line);
}

/* Look up line, filling its block's other lines on a miss past the L2 when pf_mask is set. */
static inline enum pt_loc pt_cachesim_lookup(struct pt_cachesim *c, uint64_t line, uint64_t pf_mask)
{
	enum pt_loc at;

	if (!c->on || pt_cache_level_access(c, 0, line))
		return PT_LOC_L1;
	if (pt_cache_level_access(c, 1, line))
		return PT_LOC_L2;
	at = pt_cache_level_access(c, 2, line) ? PT_LOC_LLC : PT_LOC_MEM;
	if (pf_mask)
		pt_cachesim_fill_block(c, line);
	return at;
}

/* A walker's descriptor fetch at physical address pa (never prefetched); returns where it was. */
static inline enum pt_loc pt_cachesim_access(struct pt_cachesim *c, uint64_t pa)
{
	return pt_cachesim_lookup(c, pa >> PT_LINE_SHIFT, 0);
}

/*
 * A data load at pa: as pt_cachesim_access, and a miss past the L2 fills
 * the rest of its block (cache.prefetch.lines). Data only: with the
 * walker's fetches filling blocks too, three runs of this project's PVM
 * guest calibrated worse on the half-density check (0.21-0.24 against
 * 0.10-0.16) and on held-out error on two of them
 * (results/walk-calibration/NOTES.md).
 */
static inline enum pt_loc pt_cachesim_load(struct pt_cachesim *c, uint64_t pa)
{
	return pt_cachesim_lookup(c, pa >> PT_LINE_SHIFT, c->pf_mask);
}

/*
 * Hint the host to load the LLC set (keys, and ages if aged) the line of pa
 * maps to; changes nothing. The smaller levels' arrays stay in the host's
 * own caches.
 */
static inline void pt_cachesim_prefetch(const struct pt_cachesim *c, uint64_t pa)
{
	const struct pt_aged *a = &c->aged[2];
	uint64_t line = pa >> PT_LINE_SHIFT, si = line & a->set_mask;

	if (!c->on)
		return;
	if (!a->key) {
		pt_sa_prefetch(&c->level[2], line);
		return;
	}
	pt_prefetch(a->key + si * a->ways);
	pt_prefetch(a->key + si * a->ways + a->ways - 1);
	pt_prefetch(a->age + si * PT_AGED_LANES);
}

const char *pt_loc_name(enum pt_loc l);

#endif
