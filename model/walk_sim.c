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
			   c->l2tlb_ways, c->l1tlb_random, c->tlb_random, err, errlen))
		return -1;
	s->tlb.evictions = c->l2tlb_evictions;
	if (pt_cachesim_init(&s->dc, c->cache, c->cache_on, c->prefetch_lines, err, errlen))
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
	if (cfg->shadow)
		block_h = 0; /* the shadow maps the guest's blocks page by page */
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

/* A descriptor fetch of the walk at height h, for the back half (heights descend). */
static pt_sa_inline void record_fetch(struct pt_walk_rec *r, unsigned h, uint64_t pa)
{
	r->fetch_pa[r->nfetch++] = pa;
	r->fetch_h |= (uint8_t)(1u << h);
}

/* Offset of va's descriptor in its table at height h. */
static pt_sa_inline uint64_t desc_offset(const struct pt_geometry *g, unsigned h, uint64_t va)
{
	const struct pt_walk_level *l = &g->level[h];

	return ((va >> l->shift) & (l->entries - 1)) * g->desc_bytes;
}

/* Physical address of the descriptor for the prepared access at height h. */
static pt_sa_inline uint64_t entry_pa(struct pt_walksim *s, const struct pt_walk_prep *p,
				      unsigned h)
{
	/* a table known at preparation still maps va: tables never move */
	uint64_t t = h == p->lh ? p->table : pt_pagetable_lookup(&s->pt, h, p->va);

	if (!t)
		t = pt_pagetable_table(&s->pt, h, p->va);
	return t + desc_offset(&s->pt.g, h, p->va);
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
static void walk_va(struct pt_walksim *s, const struct pt_walk_prep *p, struct pt_walk_rec *r)
{
	unsigned lh = p->lh, top = s->pt.g.nlevels - 1, start = probe_va(s, lh, p->va), h;

	for (h = start + 1; h <= top; h++)
		s->st.step_loc[h][PT_STEP_PWC]++;
	for (h = start + 1; h-- > lh + 1;) {
		record_fetch(r, h, entry_pa(s, p, h));
		pt_sa_insert(&s->pwc.va[h], p->va >> s->pt.g.level[h].shift);
	}
	/* the leaf entry on its own: its hits and misses differ from those above */
	record_fetch(r, lh, entry_pa(s, p, lh));
}

/* PA-tagged walk: every step from the top, each table entry looked up by address. */
static void walk_pa(struct pt_walksim *s, const struct pt_walk_prep *p, struct pt_walk_rec *r)
{
	unsigned lh = p->lh, h = s->pt.g.nlevels, dshift = s->pt.g.desc_bytes == 16 ? 4 : 3;

	while (h-- > lh) {
		uint64_t pa = entry_pa(s, p, h);

		if (h > lh) {
			s->st.pwc_probes++;
			s->st.pwc_lookups[h]++;
			if (pt_sa_access(&s->pwc.pa, pa >> dshift)) {
				s->st.pwc_hits[h]++;
				s->st.step_loc[h][PT_STEP_PWC]++;
				continue;
			}
		}
		record_fetch(r, h, pa);
	}
}

static void walk(struct pt_walksim *s, const struct pt_walk_prep *p, struct pt_walk_rec *r)
{
	uint64_t probes = s->st.pwc_probes;

	s->st.walks++;
	if (s->pwc.tag == PT_PWC_PA)
		walk_pa(s, p, r);
	else
		walk_va(s, p, r);
	r->probes = (uint8_t)(s->st.pwc_probes - probes);
	r->flags |= PT_REC_WALK;
	pt_tlbsim_fill(&s->tlb, p->va, p->lh);
}

/* Do va and prev share the VA span of 2^shift bytes? */
static bool same_span(uint64_t va, uint64_t prev, unsigned shift)
{
	return shift >= 64 || !((va ^ prev) >> shift);
}

void pt_walksim_prepare_new(const struct pt_walksim *s, uint64_t va,
			    const struct pt_walk_prep *prev, struct pt_walk_prep *p)
{
	const struct pt_geometry *g = &s->pt.g;
	const struct pt_walk_level *l;
	unsigned lh;
	uint64_t in_page;

	p->va = va;
	p->table = 0;
	if (va >= s->va_limit) {
		p->lh = PT_PREP_OUTSIDE;
		p->data_pa = 0;
		return;
	}
	lh = pt_walksim_leaf_height(s, va);
	l = &g->level[lh];
	p->lh = lh;
	in_page = (1ull << l->shift) - 1;
	if (prev && prev->lh == lh && same_span(va, prev->va, l->shift)) {
		/* the page of the access before: same frame, same leaf table */
		p->data_pa = (prev->data_pa & ~in_page) | (va & in_page);
		p->table = prev->table;
		if (!same_span(va, prev->va, PT_LINE_SHIFT) && !s->back_apart)
			pt_cachesim_prefetch(&s->dc, p->data_pa);
		return;
	}
	p->data_pa = pt_pagetable_data_pa(&s->pt, lh, va);
	if (!s->back_apart)
		pt_cachesim_prefetch(&s->dc, p->data_pa);
	if (prev && prev->lh == lh && same_span(va, prev->va, l->shift + l->index_bits))
		p->table = prev->table;
	else
		p->table = pt_pagetable_lookup(&s->pt, lh, va);
	/* the leaf entry only: the few entries above it stay in the simulated L1 */
	if (p->table && !s->back_apart)
		pt_cachesim_prefetch(&s->dc, p->table + desc_offset(g, lh, va));
}

void pt_walksim_front(struct pt_walksim *s, const struct pt_walk_prep *p, struct pt_walk_rec *r)
{
	enum pt_tlb_result res;

	r->fetch_h = 0;
	r->nfetch = 0;
	r->probes = 0;
	if (p->lh == PT_PREP_OUTSIDE) {
		s->st.outside++;
		r->flags = PT_REC_OUTSIDE;
		return;
	}
	r->flags = 0;
	r->data_pa = p->data_pa;
	s->st.accesses++;
	res = pt_tlbsim_lookup(&s->tlb, p->va);
	if (res == PT_TLB_L1_HIT)
		s->st.l1tlb_hits++;
	else if (res == PT_TLB_L2_HIT)
		s->st.l2tlb_hits++;
	else
		walk(s, p, r);
}

__attribute__((flatten)) void pt_walksim_access_prepared(struct pt_walksim *s,
							 const struct pt_walk_prep *p)
{
	struct pt_walk_rec r;

	pt_walksim_front(s, p, &r);
	pt_walksim_back(&s->dc, s->cfg.lat, &r, &s->st);
}

void pt_walksim_access(struct pt_walksim *s, uint64_t va)
{
	struct pt_walk_prep p = { .va = va, .lh = PT_PREP_OUTSIDE };

	if (va < s->va_limit) {
		p.lh = pt_walksim_leaf_height(s, va);
		p.data_pa = pt_pagetable_data_pa(&s->pt, p.lh, va);
	}
	pt_walksim_access_prepared(s, &p);
}
