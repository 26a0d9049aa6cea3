/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Data-cache hierarchy at 64-byte lines, physically indexed: up to three
 * levels, each filled on the way back from a miss (non-inclusive, no
 * back-invalidation). Page-table entry fetches and the trace's own data
 * accesses share it, so walks compete with data as on hardware.
 */
#ifndef PTBENCH_MODEL_CACHESIM_H
#define PTBENCH_MODEL_CACHESIM_H

#include "model/cachesim_sa.h"

#define PT_LINE_SHIFT 6
#define PT_CACHE_LEVELS 3

/* Where an access was found: a cache level, or memory. */
enum pt_loc { PT_LOC_L1 = 0, PT_LOC_L2, PT_LOC_LLC, PT_LOC_MEM, PT_LOC_N };

struct pt_cache_level_cfg {
	uint64_t size_bytes;
	unsigned ways;
};

struct pt_cachesim {
	struct pt_sa level[PT_CACHE_LEVELS];
	bool on; /* off: every access is reported as an L1 hit */
};

int pt_cachesim_init(struct pt_cachesim *c, const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS],
		     bool on, char *err, size_t errlen);
void pt_cachesim_free(struct pt_cachesim *c);

/* Look the line up in one level; on a miss, *set is where to insert it. */
static inline bool pt_cache_level_lookup(struct pt_sa *s, uint64_t line, uint64_t **set)
{
	uint64_t *w = pt_sa_set(s, line);

	*set = w;
	if (s->ways > PT_SA_NARROW)
		return pt_sa_lookup(s, line);
	return pt_sa_lookup_narrow(w, s->ways, line + 1);
}

/* Fill the line into one level after a miss there (set: from the lookup). */
static pt_sa_inline void pt_cache_level_fill(struct pt_sa *s, uint64_t line, uint64_t *set)
{
	/* cache levels are LRU arrays (never random): a fill is a push */
	if (s->filter)
		pt_sa_insert_slow(s, line);
	else
		pt_sa_push(set, s->ways, line + 1);
}

/* Access the line holding physical address pa; returns where it was. */
static inline enum pt_loc pt_cachesim_access(struct pt_cachesim *c, uint64_t pa)
{
	uint64_t line = pa >> PT_LINE_SHIFT, *w[PT_CACHE_LEVELS];

	if (!c->on)
		return PT_LOC_L1;
	if (pt_cache_level_lookup(&c->level[0], line, &w[0]))
		return PT_LOC_L1;
	if (pt_cache_level_lookup(&c->level[1], line, &w[1])) {
		pt_cache_level_fill(&c->level[0], line, w[0]);
		return PT_LOC_L2;
	}
	if (pt_cache_level_lookup(&c->level[2], line, &w[2])) {
		pt_cache_level_fill(&c->level[0], line, w[0]);
		pt_cache_level_fill(&c->level[1], line, w[1]);
		return PT_LOC_LLC;
	}
	pt_cache_level_fill(&c->level[0], line, w[0]);
	pt_cache_level_fill(&c->level[1], line, w[1]);
	pt_cache_level_fill(&c->level[2], line, w[2]);
	return PT_LOC_MEM;
}

/*
 * Hint the host to load the sets the line of pa maps to; changes nothing.
 * Written without a loop: GCC deletes a loop whose body only prefetches.
 */
static inline void pt_cachesim_prefetch(const struct pt_cachesim *c, uint64_t pa)
{
	uint64_t line = pa >> PT_LINE_SHIFT;

	if (!c->on)
		return;
	pt_sa_prefetch(&c->level[1], line);
	pt_sa_prefetch(&c->level[2], line);
}

const char *pt_loc_name(enum pt_loc l);

#endif
