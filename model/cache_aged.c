// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "model/cache_aged.h"
#include "model/cachesim_sa.h"

#ifdef __SSE2__
/* pt_aged_lane[j]: 0xff in lane j, the lane pt_aged_touch clears. */
_Alignas(16) const uint8_t pt_aged_lane[PT_AGED_LANES][PT_AGED_LANES] = {
	[0][0] = 0xff,	 [1][1] = 0xff,	  [2][2] = 0xff,   [3][3] = 0xff,
	[4][4] = 0xff,	 [5][5] = 0xff,	  [6][6] = 0xff,   [7][7] = 0xff,
	[8][8] = 0xff,	 [9][9] = 0xff,	  [10][10] = 0xff, [11][11] = 0xff,
	[12][12] = 0xff, [13][13] = 0xff, [14][14] = 0xff, [15][15] = 0xff,
};
#endif

bool pt_aged_fits(uint64_t entries, unsigned ways)
{
	uint64_t sets = ways ? entries / ways : 0;

	return (ways == 4 || ways == 8 || ways == 12 || ways == 16) && sets &&
	       entries % ways == 0 && !(sets & (sets - 1));
}

int pt_aged_init(struct pt_aged *a, uint64_t entries, unsigned ways)
{
	uint64_t sets = entries / ways, s;
	unsigned j;

	memset(a, 0, sizeof(*a));
	a->key = pt_sa_alloc(entries * sizeof(*a->key));
	a->age = pt_sa_alloc(sets * PT_AGED_LANES);
	if (!a->key || !a->age) {
		pt_aged_free(a);
		return -1;
	}
	/* way j starts at age j: the empty ways are taken last way first */
	for (s = 0; s < sets; s++) {
		uint8_t *age = a->age + s * PT_AGED_LANES;

		for (j = 0; j < PT_AGED_LANES; j++)
			age[j] = j < ways ? (uint8_t)j : PT_AGED_UNUSED;
	}
	a->set_mask = sets - 1;
	a->ways = ways;
	return 0;
}

void pt_aged_free(struct pt_aged *a)
{
	free(a->key);
	free(a->age);
	a->key = NULL;
	a->age = NULL;
}
