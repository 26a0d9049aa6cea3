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

/* Access the line holding physical address pa; returns where it was. */
static inline enum pt_loc pt_cachesim_access(struct pt_cachesim *c, uint64_t pa)
{
	uint64_t line = pa >> PT_LINE_SHIFT;
	unsigned l;

	if (!c->on)
		return PT_LOC_L1;
	for (l = 0; l < PT_CACHE_LEVELS; l++)
		if (pt_sa_lookup(&c->level[l], line))
			break;
	for (unsigned f = 0; f < l && f < PT_CACHE_LEVELS; f++)
		pt_sa_insert(&c->level[f], line);
	return (enum pt_loc)l;
}

const char *pt_loc_name(enum pt_loc l);

#endif
