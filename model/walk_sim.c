// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "model/walk_sim.h"

static int init_parts(struct pt_walksim *s, const struct pt_geometry *g, char *err, size_t errlen)
{
	const struct pt_walk_cfg *c = &s->cfg;

	if (pt_pagetable_init(&s->pt, g, err, errlen))
		return -1;
	if (pt_tlbsim_init(&s->tlb, c->l1tlb_entries, c->l1tlb_ways, c->l2tlb_entries,
			   c->l2tlb_ways, c->tlb_random, err, errlen))
		return -1;
	if (pt_cachesim_init(&s->dc, c->cache, c->cache_on, err, errlen))
		return -1;
	return pt_walkcache_init(&s->pwc, c, g, err, errlen);
}

int pt_walksim_init(struct pt_walksim *s, const struct pt_geometry *g,
		    const struct pt_walk_cfg *cfg, unsigned block_h, uint64_t block_lo,
		    uint64_t block_hi, char *err, size_t errlen)
{
	unsigned h;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (block_h && (block_h >= g->nlevels || block_h >= PT_TLB_CLASSES ||
			!g->level[block_h].block_bytes)) {
		snprintf(err, errlen, "%s%s has no block mapping at height %u",
			 pt_format_name(g->format), g->ttbr_skl || g->table_skl ? " (SKL)" : "",
			 block_h);
		return -1;
	}
	s->block_h = block_h;
	s->block_lo = block_lo;
	s->block_hi = block_hi;
	s->va_limit = g->va_bits >= 64 ? ~0ull : 1ull << g->va_bits;
	if (init_parts(s, g, err, errlen)) {
		pt_walksim_free(s);
		return -1;
	}
	for (h = 0; h < g->nlevels && h < PT_TLB_CLASSES; h++)
		pt_tlbsim_set_class(&s->tlb, h, g->level[h].shift);
	return 0;
}

void pt_walksim_free(struct pt_walksim *s)
{
	pt_pagetable_free(&s->pt);
	pt_tlbsim_free(&s->tlb);
	pt_cachesim_free(&s->dc);
	pt_walkcache_free(&s->pwc);
}

void pt_walksim_reset_stats(struct pt_walksim *s)
{
	memset(&s->st, 0, sizeof(s->st));
}

unsigned pt_walksim_leaf_height(const struct pt_walksim *s, uint64_t va)
{
	uint64_t bytes, blk;

	if (!s->block_h)
		return 0;
	bytes = s->pt.g.level[s->block_h].block_bytes;
	blk = va & ~(bytes - 1);
	if (blk >= s->block_lo && blk + bytes <= s->block_hi && blk + bytes > blk)
		return s->block_h;
	return 0;
}

/* One descriptor fetch through the data caches; returns its latency. */
static double fetch(struct pt_walksim *s, unsigned h, uint64_t pa)
{
	enum pt_loc loc = pt_cachesim_access(&s->dc, pa);

	s->st.step_loc[h][loc]++;
	return s->cfg.lat[PT_LAT_L1 + loc];
}

static unsigned probe_va(struct pt_walksim *s, unsigned lh, uint64_t va)
{
	unsigned top = s->pt.g.nlevels - 1, h;

	for (h = lh + 1; h <= top; h++) {
		s->st.pwc_probes++;
		s->st.pwc_lookups[h]++;
		if (pt_sa_lookup(&s->pwc.va[h], va >> s->pt.g.level[h].shift)) {
			s->st.pwc_hits[h]++;
			return h - 1;
		}
	}
	return top;
}

/* VA-tagged walk: start below the deepest walk-cache hit. */
static double walk_va(struct pt_walksim *s, unsigned lh, uint64_t va)
{
	unsigned top = s->pt.g.nlevels - 1, start = probe_va(s, lh, va), h;
	double cyc = 0;

	for (h = start + 1; h <= top; h++)
		s->st.step_loc[h][PT_STEP_PWC]++;
	for (h = start + 1; h-- > lh;) {
		cyc += fetch(s, h, pt_pagetable_entry(&s->pt, h, va));
		if (h > lh)
			pt_sa_insert(&s->pwc.va[h], va >> s->pt.g.level[h].shift);
	}
	return cyc;
}

/* PA-tagged walk: every step from the top, each table entry looked up by address. */
static double walk_pa(struct pt_walksim *s, unsigned lh, uint64_t va)
{
	unsigned h = s->pt.g.nlevels, dshift = s->pt.g.desc_bytes == 16 ? 4 : 3;
	double cyc = 0;

	while (h-- > lh) {
		uint64_t pa = pt_pagetable_entry(&s->pt, h, va);

		if (h > lh) {
			s->st.pwc_probes++;
			s->st.pwc_lookups[h]++;
			if (pt_sa_access(&s->pwc.pa, pa >> dshift)) {
				s->st.pwc_hits[h]++;
				s->st.step_loc[h][PT_STEP_PWC]++;
				continue;
			}
		}
		cyc += fetch(s, h, pa);
	}
	return cyc;
}

static void walk(struct pt_walksim *s, unsigned lh, uint64_t va)
{
	uint64_t probes = s->st.pwc_probes;
	double cyc;
	uint64_t bucket;

	s->st.walks++;
	cyc = s->pwc.tag == PT_PWC_PA ? walk_pa(s, lh, va) : walk_va(s, lh, va);
	cyc += s->cfg.lat[PT_LAT_WALK] +
	       (double)(s->st.pwc_probes - probes) * s->cfg.lat[PT_LAT_PWC];
	s->st.walk_cycles += cyc;
	bucket = (uint64_t)(cyc + 0.5);
	s->st.walk_hist[bucket < PT_WALK_HIST ? bucket : PT_WALK_HIST - 1]++;
	pt_tlbsim_fill(&s->tlb, va, lh);
}

void pt_walksim_access(struct pt_walksim *s, uint64_t va)
{
	enum pt_tlb_result r;
	unsigned lh;

	if (va >= s->va_limit) {
		s->st.outside++;
		return;
	}
	s->st.accesses++;
	lh = pt_walksim_leaf_height(s, va);
	r = pt_tlbsim_lookup(&s->tlb, va);
	if (r == PT_TLB_L1_HIT)
		s->st.l1tlb_hits++;
	else if (r == PT_TLB_L2_HIT)
		s->st.l2tlb_hits++;
	else
		walk(s, lh, va);
	s->st.data_loc[pt_cachesim_access(&s->dc, pt_pagetable_data_pa(&s->pt, lh, va))]++;
}
