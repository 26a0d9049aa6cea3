// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two-dimensional walk (walk_nested.h). Guest-physical layout: data
 * frames in [0, stage2.guest.ram), scattered (a bijective scramble of the
 * guest frame number, as a long-running guest's allocator leaves them) or
 * linear; guest page tables bump-allocated from stage2.guest.ram upwards.
 * Host-physical layout: the host maps each host page (4K, or a PMD block
 * when guest RAM is THP-backed) to a scrambled frame below 2^52, and keeps
 * its own tables above 2^56, as the one-stage model does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/walk_nested.h"

static unsigned log2_exact(uint64_t v)
{
	unsigned b = 0;

	while (b < 63 && (1ull << b) < v)
		b++;
	return (1ull << b) == v ? b : 0;
}

static int check_cfg(const struct pt_walk_cfg *c, char *err, size_t errlen)
{
	unsigned rb = log2_exact(c->s2.guest_ram);

	if (c->s2.format < 0) {
		snprintf(err, errlen, "stage2 is none: use the one-stage simulator");
		return -1;
	}
	if (c->pwc_tag != PT_PWC_VA) {
		snprintf(err, errlen, "pwc.tag = pa is not modelled with stage2 (use va)");
		return -1;
	}
	if (rb < 22 || rb + 1 > c->s2.ipa_bits || c->s2.ipa_bits > 56) {
		snprintf(err, errlen,
			 "stage2.guest.ram (%llu) must be a power of two of at least 4M, and twice "
			 "it (data + guest tables) must fit in stage2.ipa.bits (%u, at most 56)",
			 (unsigned long long)c->s2.guest_ram, c->s2.ipa_bits);
		return -1;
	}
	return 0;
}

/* Walk caches are off when a size is 0 (the unit tests count bare walks). */
static bool pwc_sizes_on(const uint64_t e[PT_PWC_GROUPS])
{
	return e[0] && e[1] && e[2];
}

static int init_caches(struct pt_nestsim *s, const struct pt_geometry *g, char *err, size_t errlen)
{
	const struct pt_walk_cfg *c = &s->cfg;
	struct pt_walk_cfg hc = *c;
	char why[160];

	if (pt_tlbsim_init(&s->tlb, c->l1tlb_entries, c->l1tlb_ways, c->l2tlb_entries,
			   c->l2tlb_ways, c->l1tlb_random, c->tlb_random, err, errlen))
		return -1;
	s->tlb.evictions = c->l2tlb_evictions;
	if (pt_sa_init(&s->ntlb, c->s2.tlb_entries, c->s2.tlb_ways, 0, false, why, sizeof(why))) {
		snprintf(err, errlen, "nested TLB (stage2.tlb.*): %s", why);
		return -1;
	}
	if (pt_cachesim_init(&s->dc, c->cache, c->cache_on, c->prefetch_lines, err, errlen))
		return -1;
	if (pwc_sizes_on(c->pwc_entries) && pt_walkcache_init(&s->gpwc, c, g, err, errlen))
		return -1;
	memcpy(hc.pwc_entries, c->s2.pwc_entries, sizeof(hc.pwc_entries));
	if (pwc_sizes_on(hc.pwc_entries) &&
	    pt_walkcache_init(&s->hpwc, &hc, &s->hpt.g, err, errlen))
		return -1;
	return 0;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* TLB entries are at the smaller of the guest's and the host's page. */
static void set_tlb_classes(struct pt_nestsim *s, const struct pt_geometry *g)
{
	unsigned e0 = min_u(g->level[0].shift, s->host_shift);
	unsigned eb = min_u(g->level[s->block_h].shift, s->host_shift);

	pt_tlbsim_set_class(&s->tlb, 0, e0);
	s->tlb_class[0] = 0;
	s->tlb_class[1] = 0;
	if (eb != e0) {
		pt_tlbsim_set_class(&s->tlb, 1, eb);
		s->tlb_class[1] = 1;
	}
}

int pt_nestsim_init(struct pt_nestsim *s, const struct pt_geometry *g,
		    const struct pt_walk_cfg *cfg, unsigned block_h, uint64_t block_lo,
		    uint64_t block_hi, char *err, size_t errlen)
{
	struct pt_geometry hg;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (check_cfg(cfg, err, errlen))
		return -1;
	if (cfg->shadow)
		block_h = 0; /* the shadow maps the guest's blocks page by page */
	if (pt_geometry_make(&hg, (enum pt_format)cfg->s2.format, cfg->s2.granule_shift,
			     cfg->s2.ipa_bits, err, errlen))
		return -1;
	if ((block_h && (block_h >= g->nlevels || !g->level[block_h].block_bytes)) ||
	    (cfg->s2.block_h && !hg.level[cfg->s2.block_h].block_bytes)) {
		snprintf(err, errlen, "no block mapping at height %u (guest) / %u (host)", block_h,
			 cfg->s2.block_h);
		return -1;
	}
	s->block_h = block_h;
	s->block_lo = block_lo;
	s->block_hi = block_hi;
	s->host_h = cfg->s2.block_h;
	s->host_shift = hg.level[s->host_h].shift;
	s->ram_bits = log2_exact(cfg->s2.guest_ram);
	s->va_limit = g->va_bits >= 64 ? ~0ull : 1ull << g->va_bits;
	if (pt_pagetable_init(&s->gpt, g, err, errlen) ||
	    pt_pagetable_init(&s->hpt, &hg, err, errlen) || init_caches(s, g, err, errlen)) {
		pt_nestsim_free(s);
		return -1;
	}
	set_tlb_classes(s, g);
	return 0;
}

void pt_nestsim_free(struct pt_nestsim *s)
{
	pt_pagetable_free(&s->gpt);
	pt_pagetable_free(&s->hpt);
	pt_tlbsim_free(&s->tlb);
	pt_sa_free(&s->ntlb);
	pt_cachesim_free(&s->dc);
	pt_walkcache_free(&s->gpwc);
	pt_walkcache_free(&s->hpwc);
}

void pt_nestsim_reset_stats(struct pt_nestsim *s)
{
	memset(&s->st, 0, sizeof(s->st));
	memset(&s->x, 0, sizeof(s->x));
}

static unsigned leaf_height(const struct pt_nestsim *s, uint64_t va)
{
	uint64_t bytes, blk;

	if (!s->block_h)
		return 0;
	bytes = s->gpt.g.level[s->block_h].block_bytes;
	blk = va & ~(bytes - 1);
	return blk >= s->block_lo && blk + bytes <= s->block_hi ? s->block_h : 0;
}

static uint64_t data_ipa_at(const struct pt_nestsim *s, uint64_t va, unsigned lh)
{
	unsigned shift = s->gpt.g.level[lh].shift;
	uint64_t in = va & ((1ull << shift) - 1);

	if (s->cfg.s2.layout == PT_LAYOUT_LINEAR)
		return va & ((1ull << s->ram_bits) - 1);
	return pt_pagetable_scramble(va >> shift, s->ram_bits - shift) << shift | in;
}

uint64_t pt_nestsim_data_ipa(const struct pt_nestsim *s, uint64_t va)
{
	return data_ipa_at(s, va, leaf_height(s, va));
}

/* A guest table lives at IPA guest_ram + its offset in the guest's table area. */
static uint64_t table_ipa(const struct pt_nestsim *s, uint64_t t)
{
	return s->cfg.s2.guest_ram + (t - PT_SIM_TABLE_BASE);
}

/* One descriptor fetch (guest: host = false) through the caches; its latency. */
static double fetch(struct pt_nestsim *s, bool host, unsigned h, uint64_t pa)
{
	enum pt_loc loc = pt_cachesim_access(&s->dc, pa);

	s->st.step_loc[h][loc]++;
	if (host)
		s->x.host_steps[h][loc]++;
	else
		s->x.guest_steps[h][loc]++;
	return s->cfg.lat[PT_LAT_L1 + loc];
}

static void pwc_skipped(struct pt_nestsim *s, bool host, unsigned from, unsigned top)
{
	unsigned h;

	for (h = from; h <= top; h++) {
		s->st.step_loc[h][PT_STEP_PWC]++;
		if (host)
			s->x.host_steps[h][PT_STEP_PWC]++;
		else
			s->x.guest_steps[h][PT_STEP_PWC]++;
	}
}

/* Host walk of ipa: start below the deepest host walk-cache hit. */
static double host_walk(struct pt_nestsim *s, uint64_t ipa)
{
	const struct pt_geometry *hg = &s->hpt.g;
	unsigned lh = s->host_h, top = hg->nlevels - 1, start = top, h;
	double cyc = 0;

	s->st.walks2++;
	for (h = lh + 1; s->hpwc.nlevels && h <= top; h++) {
		s->st.pwc_probes++;
		if (pt_sa_lookup(&s->hpwc.va[h], ipa >> hg->level[h].shift)) {
			start = h - 1;
			break;
		}
	}
	pwc_skipped(s, true, start + 1, top);
	for (h = start + 1; h-- > lh;) {
		cyc += fetch(s, true, h, pt_pagetable_entry(&s->hpt, h, ipa));
		if (h > lh && s->hpwc.nlevels)
			pt_sa_insert(&s->hpwc.va[h], ipa >> hg->level[h].shift);
	}
	return cyc;
}

/* IPA -> PA through the nested TLB, walking the host table on a miss. */
static double ipa_to_pa(struct pt_nestsim *s, uint64_t ipa, uint64_t *pa)
{
	double cyc = 0;

	s->x.ntlb_lookups++;
	if (pt_sa_access(&s->ntlb, ipa >> s->host_shift))
		s->x.ntlb_hits++;
	else
		cyc = host_walk(s, ipa);
	*pa = pt_pagetable_data_pa(&s->hpt, s->host_h, ipa);
	return cyc;
}

static unsigned probe_guest(struct pt_nestsim *s, unsigned lh, uint64_t va)
{
	const struct pt_geometry *g = &s->gpt.g;
	unsigned top = g->nlevels - 1, h;

	for (h = lh + 1; s->gpwc.nlevels && h <= top; h++) {
		s->st.pwc_probes++;
		s->st.pwc_lookups[h]++;
		if (pt_sa_lookup(&s->gpwc.va[h], va >> g->level[h].shift)) {
			s->st.pwc_hits[h]++;
			return h - 1;
		}
	}
	return top;
}

/* The two-dimensional walk of va; returns the data's host-physical address. */
static uint64_t walk(struct pt_nestsim *s, uint64_t va, unsigned lh)
{
	const struct pt_geometry *g = &s->gpt.g;
	uint64_t probes = s->st.pwc_probes, walks2 = s->st.walks2, pa, bucket;
	unsigned top = g->nlevels - 1, start = probe_guest(s, lh, va), h;
	double cyc = 0;

	s->st.walks++;
	pwc_skipped(s, false, start + 1, top);
	for (h = start + 1; h-- > lh;) {
		uint64_t t = pt_pagetable_table(&s->gpt, h, va);
		uint64_t off =
			((va >> g->level[h].shift) & (g->level[h].entries - 1)) * g->desc_bytes;

		cyc += ipa_to_pa(s, table_ipa(s, t) + off, &pa);
		cyc += fetch(s, false, h, pa);
		if (h > lh && s->gpwc.nlevels)
			pt_sa_insert(&s->gpwc.va[h], va >> g->level[h].shift);
	}
	cyc += ipa_to_pa(s, data_ipa_at(s, va, lh), &pa);
	cyc += s->cfg.lat[PT_LAT_WALK] +
	       (double)(s->st.walks2 - walks2) * s->cfg.lat[PT_LAT_WALK2] +
	       (double)(s->st.pwc_probes - probes) * s->cfg.lat[PT_LAT_PWC];
	s->st.walk_cycles += cyc;
	bucket = (uint64_t)(cyc + 0.5);
	s->st.walk_hist[bucket < PT_WALK_HIST ? bucket : PT_WALK_HIST - 1]++;
	pt_tlbsim_fill(&s->tlb, va, s->tlb_class[lh ? 1 : 0]);
	return pa;
}

void pt_nestsim_access(struct pt_nestsim *s, uint64_t va)
{
	enum pt_tlb_result r;
	uint64_t pa;
	unsigned lh;

	if (va >= s->va_limit) {
		s->st.outside++;
		return;
	}
	s->st.accesses++;
	lh = leaf_height(s, va);
	r = pt_tlbsim_lookup(&s->tlb, va);
	if (r == PT_TLB_MISS) {
		pa = walk(s, va, lh);
	} else {
		if (r == PT_TLB_L1_HIT)
			s->st.l1tlb_hits++;
		else
			s->st.l2tlb_hits++;
		pa = pt_pagetable_data_pa(&s->hpt, s->host_h, data_ipa_at(s, va, lh));
	}
	s->st.data_loc[pt_cachesim_load(&s->dc, pa)]++;
}

void pt_nest_run_pattern(struct pt_nestsim *s, struct pt_pattern *p, uint64_t warmup,
			 uint64_t accesses)
{
	uint64_t i;

	for (i = 0; i < warmup; i++)
		pt_nestsim_access(s, pt_pattern_next(p));
	pt_nestsim_reset_stats(s);
	for (i = 0; i < accesses; i++)
		pt_nestsim_access(s, pt_pattern_next(p));
}

const char *pt_nest_metric_name(enum pt_nest_metric m)
{
	static const char *const n[PT_NM_N] = {
		"host_levels",
		"ntlb_hit_rate",
		"host_walks_per_kilo_access",
		"guest_fetches_per_walk",
		"host_fetches_per_walk",
	};

	return m < PT_NM_N ? n[m] : "?";
}

static double per(uint64_t n, uint64_t d)
{
	return d ? (double)n / (double)d : NAN;
}

static uint64_t fetched(const uint64_t s[PT_MAX_LEVELS][PT_STEP_N])
{
	uint64_t n = 0;
	unsigned h, l;

	for (h = 0; h < PT_MAX_LEVELS; h++)
		for (l = 0; l < PT_LOC_N; l++)
			n += s[h][l];
	return n;
}

void pt_nest_metrics(const struct pt_nestsim *s, double out[PT_NM_N])
{
	out[PT_NM_HOST_LEVELS] = s->hpt.g.nlevels;
	out[PT_NM_NTLB_HIT_RATE] = per(s->x.ntlb_hits, s->x.ntlb_lookups);
	out[PT_NM_HOST_WALKS_PER_KILO] = s->st.accesses ? 1000.0 * per(s->st.walks2, s->st.accesses)
							: NAN;
	out[PT_NM_GUEST_FETCHES_PER_WALK] = per(fetched(s->x.guest_steps), s->st.walks);
	out[PT_NM_HOST_FETCHES_PER_WALK] = per(fetched(s->x.host_steps), s->st.walks);
}
