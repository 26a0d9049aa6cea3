// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "model/walkcache.h"

static uint64_t entries_at(const struct pt_walk_cfg *c, unsigned h)
{
	return c->pwc_entries[h - 1 < PT_PWC_GROUPS ? h - 1 : PT_PWC_GROUPS - 1];
}

int pt_walkcache_init(struct pt_walkcache *w, const struct pt_walk_cfg *c,
		      const struct pt_geometry *g, char *err, size_t errlen)
{
	char why[160];
	unsigned h;

	memset(w, 0, sizeof(*w));
	w->tag = c->pwc_tag;
	w->nlevels = g->nlevels;
	if (w->tag == PT_PWC_PA) {
		if (pt_sa_init(&w->pa, c->pwc_pa_entries, c->pwc_ways, 0, false, why,
			       sizeof(why))) {
			snprintf(err, errlen, "walk cache (pwc.pa.entries, pwc.ways): %s", why);
			return -1;
		}
		return 0;
	}
	for (h = 1; h < g->nlevels; h++) {
		if (pt_sa_init(&w->va[h], entries_at(c, h), c->pwc_ways, 0, false, why,
			       sizeof(why))) {
			snprintf(err, errlen,
				 "walk cache at height %u (pwc.*.entries, pwc.ways): %s", h, why);
			pt_walkcache_free(w);
			return -1;
		}
	}
	return 0;
}

void pt_walkcache_free(struct pt_walkcache *w)
{
	unsigned h;

	for (h = 0; h < PT_MAX_LEVELS; h++)
		pt_sa_free(&w->va[h]);
	pt_sa_free(&w->pa);
}
