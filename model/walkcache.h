/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-walk caches for the non-leaf levels. VA-tagged (the default): one
 * array per height, keyed by the VA prefix that selects the entry, and a
 * walk starts below the deepest hit. PA-tagged: one array keyed by the
 * descriptor's physical address, consulted at each step of a full walk.
 */
#ifndef PTBENCH_MODEL_WALKCACHE_H
#define PTBENCH_MODEL_WALKCACHE_H

#include "model/cachesim_sa.h"
#include "model/geometry.h"
#include "model/walk_cfg.h"

struct pt_walkcache {
	enum pt_pwc_tag tag;
	struct pt_sa va[PT_MAX_LEVELS]; /* [h] for h = 1 .. nlevels - 1 */
	struct pt_sa pa;
	unsigned nlevels;
};

int pt_walkcache_init(struct pt_walkcache *w, const struct pt_walk_cfg *c,
		      const struct pt_geometry *g, char *err, size_t errlen);
void pt_walkcache_free(struct pt_walkcache *w);

#endif
