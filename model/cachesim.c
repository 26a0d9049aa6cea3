// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "model/cachesim.h"

static const char *const level_names[PT_CACHE_LEVELS] = { "L1D", "L2", "LLC" };

int pt_cachesim_init(struct pt_cachesim *c, const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS],
		     bool on, unsigned prefetch_lines, char *err, size_t errlen)
{
	char why[160];
	unsigned l;

	memset(c, 0, sizeof(*c));
	c->on = on;
	if (!on)
		return 0;
	if (prefetch_lines > PT_CACHE_MAX_PREFETCH || (prefetch_lines & (prefetch_lines - 1))) {
		snprintf(err, errlen, "cache.prefetch.lines = %u: 1, 2, 4 or 8", prefetch_lines);
		return -1;
	}
	c->pf_mask = prefetch_lines > 1 ? prefetch_lines - 1 : 0;
	for (l = 0; l < PT_CACHE_LEVELS; l++) {
		uint64_t lines = cfg[l].size_bytes >> PT_LINE_SHIFT;

		if (!cfg[l].random && pt_aged_fits(lines, cfg[l].ways)) {
			if (!pt_aged_init(&c->aged[l], lines, cfg[l].ways))
				continue;
			snprintf(err, errlen, "%s cache: out of memory for %llu lines",
				 level_names[l], (unsigned long long)lines);
			pt_cachesim_free(c);
			return -1;
		}
		if (pt_sa_init(&c->level[l], lines, cfg[l].ways, 0, cfg[l].random, why,
			       sizeof(why))) {
			snprintf(err, errlen, "%s cache: %s", level_names[l], why);
			pt_cachesim_free(c);
			return -1;
		}
	}
	return 0;
}

void pt_cachesim_fill_block(struct pt_cachesim *c, uint64_t line)
{
	uint64_t n, first = line & ~c->pf_mask;

	for (n = first; n <= (first | c->pf_mask); n++) {
		if (n == line)
			continue;
		pt_cache_level_access(c, 1, n);
		pt_cache_level_access(c, 2, n);
	}
}

void pt_cachesim_free(struct pt_cachesim *c)
{
	unsigned l;

	for (l = 0; l < PT_CACHE_LEVELS; l++) {
		pt_aged_free(&c->aged[l]);
		pt_sa_free(&c->level[l]);
	}
}

const char *pt_loc_name(enum pt_loc l)
{
	static const char *const n[PT_LOC_N] = { "l1", "l2", "llc", "mem" };

	return l < PT_LOC_N ? n[l] : "?";
}
