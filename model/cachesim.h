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

/*
 * Access the line in one level: a hit becomes MRU, a miss is filled at once
 * (the levels are separate arrays, so filling on the way down leaves the
 * state a fill on the way back would). Returns whether it hit. The usual
 * associativities get a scan unrolled for their number of ways.
 */
static pt_sa_inline bool pt_cache_level_access(struct pt_sa *s, uint64_t line)
{
	uint64_t *w = pt_sa_set(s, line), t = line + 1;

	if (!s->filter) {
		switch (s->ways) {
		case 4:
			return pt_sa_access_n(w, 4, t);
		case 8:
			return pt_sa_access_n(w, 8, t);
		case 16:
			return pt_sa_access_n(w, 16, t);
		}
	}
	return pt_sa_access(s, line);
}

/* Access the line holding physical address pa; returns where it was. */
static inline enum pt_loc pt_cachesim_access(struct pt_cachesim *c, uint64_t pa)
{
	uint64_t line = pa >> PT_LINE_SHIFT;

	if (!c->on || pt_cache_level_access(&c->level[0], line))
		return PT_LOC_L1;
	if (pt_cache_level_access(&c->level[1], line))
		return PT_LOC_L2;
	if (pt_cache_level_access(&c->level[2], line))
		return PT_LOC_LLC;
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
	pt_sa_prefetch(&c->level[2], line);
}

const char *pt_loc_name(enum pt_loc l);

#endif
