// SPDX-License-Identifier: GPL-2.0-only
/* The two-stage walk on cases with known answers (issue 12). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/walk_cost.h"
#include "model/walk_nested.h"
#include "model/walk_run.h"

struct nrun {
	struct pt_nestsim sim;
	struct pt_pattern pat;
};

static void nstart(struct nrun *r, enum pt_format f, const struct pt_walk_cfg *cfg,
		   enum pt_pattern_kind k, uint64_t ws, uint64_t stride, unsigned block_h)
{
	struct pt_geometry g;
	char err[256];

	assert_int_equal(
		pt_geometry_make(&g, f, cfg->granule_shift, cfg->va_bits, err, sizeof(err)), 0);
	assert_int_equal(pt_pattern_init(&r->pat, k, ws, stride, 7, err, sizeof(err)), 0);
	assert_int_equal(pt_nestsim_init(&r->sim, &g, cfg, block_h, r->pat.base, r->pat.base + ws,
					 err, sizeof(err)),
			 0);
}

static void nstop(struct nrun *r)
{
	pt_nestsim_free(&r->sim);
	pt_pattern_free(&r->pat);
}

static uint64_t fetches(const uint64_t steps[PT_MAX_LEVELS][PT_STEP_N])
{
	uint64_t n = 0;
	unsigned h, l;

	for (h = 0; h < PT_MAX_LEVELS; h++)
		for (l = 0; l < PT_LOC_N; l++)
			n += steps[h][l];
	return n;
}

/* A 1-entry TLB, a 1-entry nested TLB, no walk caches, a new page per access. */
static void bare_cfg(struct pt_walk_cfg *c, int host_fmt)
{
	pt_walk_cfg_default(c);
	c->l1tlb_entries = c->l1tlb_ways = 1;
	c->l2tlb_entries = c->l2tlb_ways = 1;
	memset(c->pwc_entries, 0, sizeof(c->pwc_entries));
	memset(c->s2.pwc_entries, 0, sizeof(c->s2.pwc_entries));
	c->s2.tlb_entries = c->s2.tlb_ways = 1;
	c->s2.format = host_fmt;
}

static void check_bare(enum pt_format guest, int host, uint64_t per_walk)
{
	const uint64_t pages = 4096;
	struct pt_walk_cfg cfg;
	struct nrun r;

	bare_cfg(&cfg, host);
	nstart(&r, guest, &cfg, PT_PAT_STRIDE, pages * 4096, 4096, 0);
	pt_nest_run_pattern(&r.sim, &r.pat, 0, pages);
	assert_int_equal(r.sim.st.walks, pages);
	/* (guest levels + 1) x (host levels + 1) - 1 fetches per TLB miss */
	assert_int_equal(fetches(r.sim.st.step_loc), pages * per_walk);
	nstop(&r);
}

/* 4-level guest over a 4-level host: (4 + 1) * (4 + 1) - 1 = 24. */
static void test_bare_24(void **state)
{
	(void)state;
	check_bare(PT_D64, PT_D64, 24);
}

/* D128 at stage 2 adds a host level at IPA 48, 4K: (4 + 1) * (5 + 1) - 1 = 29. */
static void test_d128_host_level(void **state)
{
	(void)state;
	check_bare(PT_D64, PT_D128, 29);
	/* and both stages: (5 + 1) * (5 + 1) - 1 = 35 */
	check_bare(PT_D128, PT_D128, 35);
}

/* Guest THP over host 4K: TLB entries are 4K, so a 64M chase keeps walking. */
static double walks_per_access(unsigned host_block)
{
	struct pt_walk_cfg cfg;
	struct nrun r;
	double w;

	pt_walk_cfg_default(&cfg);
	cfg.s2.format = PT_D64;
	cfg.s2.block_h = host_block;
	nstart(&r, PT_D64, &cfg, PT_PAT_CHASE, 64 << 20, 0, 1);
	pt_nest_run_pattern(&r.sim, &r.pat, 16384, 65536);
	w = (double)r.sim.st.walks / (double)r.sim.st.accesses;
	nstop(&r);
	return w;
}

static void test_host_page_reach(void **state)
{
	(void)state;
	/* 32 x 2M entries cover 64M: no walks once warm */
	assert_true(walks_per_access(1) < 0.001);
	/* 16384 4K pages against a 2048-entry L2 TLB */
	assert_true(walks_per_access(0) > 0.5);
}

/*
 * A guest THP walked bare: the guest walk stops at the PMD, (3 + 1) x
 * (4 + 1) - 1 = 19 fetches. Under a shadow (shadow = on) the hardware walks
 * the host's 4K copy to the PTE, 24, whatever the guest maps; and no
 * 2M TLB entry, so a 2M stride misses every time either way.
 */
static uint64_t thp_fetches_per_walk(bool shadow)
{
	const uint64_t blocks = 256;
	struct pt_walk_cfg cfg;
	struct nrun r;
	uint64_t per;

	bare_cfg(&cfg, PT_D64);
	cfg.shadow = shadow;
	nstart(&r, PT_D64, &cfg, PT_PAT_STRIDE, blocks << 21, 2u << 20, 1);
	pt_nest_run_pattern(&r.sim, &r.pat, 0, blocks);
	assert_int_equal(r.sim.st.walks, blocks);
	per = fetches(r.sim.st.step_loc) / blocks;
	nstop(&r);
	return per;
}

static void test_shadow_leaf(void **state)
{
	(void)state;
	assert_int_equal(thp_fetches_per_walk(false), 19);
	assert_int_equal(thp_fetches_per_walk(true), 24);
}

/* With stage 2 off the nested simulator refuses, and bad sizes name the key. */
static void test_bad_cfg(void **state)
{
	struct pt_walk_cfg cfg;
	struct pt_geometry g;
	struct pt_nestsim s;
	char err[256];

	(void)state;
	pt_walk_cfg_default(&cfg);
	assert_int_equal(pt_geometry_make(&g, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_nestsim_init(&s, &g, &cfg, 0, 0, 0, err, sizeof(err)), -1);
	cfg.s2.format = PT_D64;
	cfg.s2.guest_ram = 3ull << 30;
	assert_int_equal(pt_nestsim_init(&s, &g, &cfg, 0, 0, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "stage2.guest.ram"));
	assert_int_equal(pt_walk_cfg_set(&cfg, "stage2", "d128", err, sizeof(err)), 0);
	assert_int_equal(cfg.s2.format, PT_D128);
	assert_int_equal(pt_walk_cfg_set(&cfg, "stage2.backing", "2m", err, sizeof(err)), -2);
}

/* The cost is linear: features . latencies equals the walk cycles plus the TLB terms. */
static void test_cost_linear(void **state)
{
	struct pt_walk_cfg cfg;
	double f[PT_LAT_N], m[PT_M_N];
	struct nrun r;

	(void)state;
	pt_walk_cfg_default(&cfg);
	cfg.s2.format = PT_D64;
	nstart(&r, PT_D64, &cfg, PT_PAT_CHASE, 256 << 20, 0, 0);
	pt_nest_run_pattern(&r.sim, &r.pat, 65536, 65536);
	pt_walk_features(&r.sim.st, false, f);
	pt_walk_metrics_of(&r.sim.st, &cfg, 0, m);
	assert_true(f[PT_LAT_WALK2] > 0);
	assert_true(
		fabs(pt_walk_cost(f, cfg.lat) * (double)r.sim.st.accesses - r.sim.st.walk_cycles -
		     (double)(r.sim.st.accesses - r.sim.st.l1tlb_hits) * cfg.lat[PT_LAT_L2TLB]) <
		1e-6 * r.sim.st.walk_cycles);
	assert_true(m[PT_M_STEPS_PER_WALK] > 4);
	nstop(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_24),		cmocka_unit_test(test_d128_host_level),
		cmocka_unit_test(test_host_page_reach), cmocka_unit_test(test_bad_cfg),
		cmocka_unit_test(test_cost_linear),	cmocka_unit_test(test_shadow_leaf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
