// SPDX-License-Identifier: GPL-2.0-only
/* The walk simulator on cases with known answers (issue: D128 model part 2). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/walk_cost.h"
#include "model/walk_pattern.h"
#include "model/walk_run.h"

struct run {
	struct pt_walksim sim;
	struct pt_pattern pat;
};

static void start(struct run *r, enum pt_format f, const struct pt_walk_cfg *cfg,
		  enum pt_pattern_kind k, uint64_t ws, unsigned block_h)
{
	struct pt_geometry g;
	char err[256];

	assert_int_equal(
		pt_geometry_make(&g, f, cfg->granule_shift, cfg->va_bits, err, sizeof(err)), 0);
	assert_int_equal(pt_pattern_init(&r->pat, k, ws, 0, 7, err, sizeof(err)), 0);
	assert_int_equal(pt_walksim_init(&r->sim, &g, cfg, block_h, r->pat.base, r->pat.base + ws,
					 err, sizeof(err)),
			 0);
}

static void stop(struct run *r)
{
	pt_walksim_free(&r->sim);
	pt_pattern_free(&r->pat);
}

static uint64_t steps_at(const struct pt_walk_stats *s, unsigned h)
{
	uint64_t n = 0;
	unsigned l;

	for (l = 0; l < PT_STEP_N; l++)
		n += s->step_loc[h][l];
	return n;
}

/* Cold caches, sequential scan of N pages: N walks; N/8 (D64) or N/4 (D128) leaf lines from memory. */
static void check_sequential(enum pt_format f, uint64_t per_line)
{
	const uint64_t pages = 4096;
	struct pt_walk_cfg cfg;
	struct run r;

	pt_walk_cfg_default(&cfg);
	start(&r, f, &cfg, PT_PAT_SEQ, pages * 4096, 0);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 0, pages * 4096 / 8);
	assert_int_equal(r.sim.st.accesses, pages * 512);
	assert_int_equal(r.sim.st.walks, pages);
	assert_int_equal(steps_at(&r.sim.st, 0), pages);
	assert_int_equal(r.sim.st.step_loc[0][PT_LOC_MEM], pages / per_line);
	/* leaf tables: a D64 one maps 512 pages, a D128 one 256 */
	assert_int_equal(r.sim.pt.tables[0], pages / (f == PT_D64 ? 512 : 256));
	stop(&r);
}

static void test_sequential_d64(void **state)
{
	(void)state;
	check_sequential(PT_D64, 8);
}

static void test_sequential_d128(void **state)
{
	(void)state;
	check_sequential(PT_D128, 4);
}

static void check_no_walks(uint64_t pages, bool all_l1)
{
	struct pt_walk_cfg cfg;
	struct run r;

	pt_walk_cfg_default(&cfg);
	start(&r, PT_D128, &cfg, PT_PAT_CHASE, pages * 4096, 0);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, pages, 8 * pages);
	assert_int_equal(r.sim.st.accesses, 8 * pages);
	assert_int_equal(r.sim.st.walks, 0);
	if (all_l1)
		assert_int_equal(r.sim.st.l1tlb_hits, 8 * pages);
	else
		assert_true(r.sim.st.l2tlb_hits > 0);
	stop(&r);
}

static void test_within_tlb_reach(void **state)
{
	(void)state;
	check_no_walks(32, true); /* within the 48-entry L1 DTLB */
	check_no_walks(1024, false); /* within the 2048-entry L2 TLB */
}

/*
 * Walks per access of a chase over pages within the L2 TLB (random
 * victims), others inserting e entries per lookup.
 */
static double walks_with_evictions(uint64_t pages, double e)
{
	struct pt_walk_cfg cfg;
	struct run r;
	double w;

	pt_walk_cfg_default(&cfg);
	cfg.tlb_random = true;
	cfg.l2tlb_evictions = e;
	start(&r, PT_D64, &cfg, PT_PAT_CHASE, pages * 4096, 0);
	/* a long warm-up: others' entries fill the empty ways first */
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 64 * pages, 8 * pages);
	w = (double)r.sim.st.walks / (double)r.sim.st.accesses;
	stop(&r);
	return w;
}

/*
 * Entries others insert (tlb.l2.evictions) turn hits within the L2's
 * reach into walks: more of them the more pages the chase revisits an
 * entry after, and the more others insert.
 */
static void test_l2_evictions(void **state)
{
	double small, large;

	(void)state;
	assert_true(walks_with_evictions(1024, 0) == 0);
	small = walks_with_evictions(256, 0.25);
	large = walks_with_evictions(1024, 0.25);
	assert_true(small > 0 && small < large);
	assert_true(walks_with_evictions(1024, 1) > large);
}

static void test_beyond_tlb_reach_walks(void **state)
{
	struct pt_walk_cfg cfg;
	struct run r;

	(void)state;
	pt_walk_cfg_default(&cfg);
	start(&r, PT_D64, &cfg, PT_PAT_CHASE, 8192 * 4096ull, 0);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 8192, 8 * 8192);
	assert_true(r.sim.st.walks > r.sim.st.accesses / 2);
	stop(&r);
}

/* Largest working set (of 16M..128M) whose PMD-level walk-cache hit rate is >= 0.99. */
static uint64_t pmd_pwc_reach(enum pt_format f)
{
	struct pt_walk_cfg cfg;
	uint64_t ws, reach = 0;

	pt_walk_cfg_default(&cfg);
	cfg.pwc_entries[0] = 16;
	cfg.pwc_ways = 16;
	for (ws = 16ull << 20; ws <= 128ull << 20; ws *= 2) {
		struct run r;
		double rate;

		start(&r, f, &cfg, PT_PAT_CHASE, ws, 0);
		pt_walk_run_pattern(&r.sim, 1, &r.pat, ws / 4096, 4 * ws / 4096);
		assert_true(r.sim.st.pwc_lookups[1] > 0);
		rate = (double)r.sim.st.pwc_hits[1] / (double)r.sim.st.pwc_lookups[1];
		if (rate >= 0.99)
			reach = ws;
		stop(&r);
	}
	return reach;
}

static void test_pwc_reach_doubles(void **state)
{
	uint64_t d64 = pmd_pwc_reach(PT_D64), d128 = pmd_pwc_reach(PT_D128);

	(void)state;
	assert_int_equal(d64, 32ull << 20); /* 16 entries x 2M */
	assert_int_equal(d128, 16ull << 20); /* 16 entries x 1M */
}

/* THP: leaf at the PMD; the walk is one level shorter and no PTE tables exist. */
static void test_thp_blocks(void **state)
{
	struct pt_walk_cfg cfg;
	struct run r;

	(void)state;
	pt_walk_cfg_default(&cfg);
	start(&r, PT_D128, &cfg, PT_PAT_CHASE, 256ull << 20, 1);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 65536, 65536);
	assert_int_equal(r.sim.pt.tables[0], 0);
	assert_int_equal(steps_at(&r.sim.st, 0), 0);
	assert_int_equal(steps_at(&r.sim.st, 1), r.sim.st.walks);
	/* 256 blocks of 1M exceed the 48-entry L1 DTLB but fit the L2 TLB */
	assert_true(r.sim.st.l2tlb_hits > 0);
	assert_int_equal(r.sim.st.walks, 0);
	stop(&r);
}

/* A shadow (shadow = on) maps the same THP range page by page: 4K leaves, PTE tables, walks. */
static void test_shadow_thp(void **state)
{
	struct pt_walk_cfg cfg;
	struct run r;

	(void)state;
	pt_walk_cfg_default(&cfg);
	cfg.shadow = true;
	start(&r, PT_D128, &cfg, PT_PAT_CHASE, 256ull << 20, 1);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 65536, 65536);
	assert_true(r.sim.pt.tables[0] > 0);
	/* 65536 4K pages exceed the 2048-entry L2 TLB: most accesses walk to the PTE */
	assert_true(r.sim.st.walks > 32768);
	assert_int_equal(steps_at(&r.sim.st, 0), r.sim.st.walks);
	stop(&r);
}

/* Both walk-cache taggings: every walk has one step per level it covers. */
static void check_steps_per_walk(enum pt_pwc_tag tag)
{
	struct pt_walk_cfg cfg;
	double m[PT_M_N];
	struct run r;

	pt_walk_cfg_default(&cfg);
	cfg.pwc_tag = tag;
	start(&r, PT_D128, &cfg, PT_PAT_RANDOM, 1ull << 30, 0);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 10000, 50000);
	pt_walk_metrics(&r.sim, m);
	assert_true(r.sim.st.walks > 40000);
	assert_true(fabs(m[PT_M_STEPS_PER_WALK] - 5.0) < 1e-9);
	assert_true(m[PT_M_MEM_REFS_PER_WALK] >= 1.0 && m[PT_M_MEM_REFS_PER_WALK] <= 5.0);
	assert_true(m[PT_M_WALK_CYC_P99] >= m[PT_M_WALK_CYC_MEAN] - 1);
	assert_true(m[PT_M_WALK_CYC_ALL_L1] <= m[PT_M_WALK_CYC_MEAN] + 1e-9);
	stop(&r);
}

static void test_pwc_tags(void **state)
{
	(void)state;
	check_steps_per_walk(PT_PWC_VA);
	check_steps_per_walk(PT_PWC_PA);
}

/* The cost is linear in the latencies: doubling every latency doubles it. */
static void test_cost_linear(void **state)
{
	struct pt_walk_cfg cfg;
	double f[PT_LAT_N], lat2[PT_LAT_N];
	struct run r;
	unsigned i;

	(void)state;
	pt_walk_cfg_default(&cfg);
	start(&r, PT_D64, &cfg, PT_PAT_CHASE, 64ull << 20, 0);
	pt_walk_run_pattern(&r.sim, 1, &r.pat, 16384, 65536);
	pt_walk_features(&r.sim.st, false, f);
	for (i = 0; i < PT_LAT_N; i++)
		lat2[i] = 2 * cfg.lat[i];
	assert_true(fabs(pt_walk_cost(f, lat2) - 2 * pt_walk_cost(f, cfg.lat)) < 1e-9);
	assert_true(fabs(pt_walk_cost(f, cfg.lat) * 65536 -
			 (r.sim.st.walk_cycles +
			  cfg.lat[PT_LAT_L2TLB] * (double)(65536 - r.sim.st.l1tlb_hits))) <
		    1e-6 * r.sim.st.walk_cycles);
	stop(&r);
}

/*
 * The strided chases visit every second (fourth) page once a pass, at the
 * workload's line within it, and never a page between.
 */
static void test_strided_chases(void **state)
{
	static const struct {
		enum pt_pattern_kind k;
		uint64_t pages;
	} c[] = { { PT_PAT_CHASE, 1 }, { PT_PAT_CHASE_HALF, 2 }, { PT_PAT_CHASE_QUARTER, 4 } };
	uint64_t ws = 1 << 20, i, j;
	enum pt_pattern_kind k;
	char err[128];

	(void)state;
	for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		uint8_t seen[256] = { 0 };
		struct pt_pattern p;

		assert_int_equal(pt_pattern_init(&p, c[j].k, ws, 0, 1, err, sizeof(err)), 0);
		assert_int_equal(pt_pattern_pass(&p), ws / 4096 / c[j].pages);
		for (i = 0; i < pt_pattern_pass(&p); i++) {
			uint64_t off = pt_pattern_next(&p) - PT_PATTERN_BASE, page = off / 4096;

			assert_true(off < ws);
			assert_int_equal(page % c[j].pages, 0);
			assert_int_equal(off % 4096, pt_chase_offset(page / c[j].pages));
			assert_int_equal(seen[page], 0);
			seen[page] = 1;
		}
		pt_pattern_free(&p);
	}
	assert_int_equal(pt_pattern_parse("chase-quarter", &k), 0);
	assert_int_equal(k, PT_PAT_CHASE_QUARTER);
	assert_string_equal(pt_pattern_name(k), "chase-quarter");
}

static void test_config_keys(void **state)
{
	struct pt_walk_cfg c;
	char err[2048];

	(void)state;
	pt_walk_cfg_default(&c);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l2.entries", "1024", err, sizeof(err)), 0);
	assert_int_equal(c.l2tlb_entries, 1024);
	assert_int_equal(pt_walk_cfg_set(&c, "cache.llc.size", "8M", err, sizeof(err)), 0);
	assert_int_equal(c.cache[2].size_bytes, 8ull << 20);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l3.entries", "1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "valid keys"));
	assert_non_null(strstr(err, "pwc.pmd.entries"));
	assert_int_equal(pt_walk_cfg_set(&c, "lat.mem", "fast", err, sizeof(err)), -2);
	/* tlb.replacement sets both TLBs; tlb.l1.replacement then the L1's alone */
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.replacement", "random", err, sizeof(err)), 0);
	assert_true(c.tlb_random && c.l1tlb_random);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l1.replacement", "lru", err, sizeof(err)), 0);
	assert_true(c.tlb_random && !c.l1tlb_random);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.replacement", "plru", err, sizeof(err)), -2);
	assert_true(c.tlb_random && !c.l1tlb_random);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l2.evictions", "0.25", err, sizeof(err)), 0);
	assert_true(c.l2tlb_evictions == 0.25);
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l2.evictions", "-1", err, sizeof(err)), -2);
	/* unbounded, one lookup would insert a billion entries */
	assert_int_equal(pt_walk_cfg_set(&c, "tlb.l2.evictions", "1e9", err, sizeof(err)), -2);
	assert_non_null(strstr(err, "0 to 64"));
	assert_true(c.l2tlb_evictions == 0.25);
	assert_int_equal(pt_walk_cfg_parse_text(&c, "# x\nlat.l1 = 5\n\npwc.tag = pa\n", "f", err,
						sizeof(err)),
			 0);
	assert_true(c.lat[PT_LAT_L1] == 5 && c.pwc_tag == PT_PWC_PA);
	assert_int_equal(pt_walk_cfg_parse_text(&c, "lat.l1 = 5\nbogus = 1\n", "f.conf", err,
						sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "f.conf:2:"));
}

static void test_bad_geometry_rejected(void **state)
{
	struct pt_walk_cfg cfg;
	struct pt_walksim s;
	struct pt_geometry g;
	char err[256];

	(void)state;
	pt_walk_cfg_default(&cfg);
	cfg.l2tlb_entries = 1000; /* 125 sets: not a power of two */
	assert_int_equal(pt_geometry_make(&g, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_walksim_init(&s, &g, &cfg, 0, 0, UINT64_MAX, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "L2 TLB"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_d64),
		cmocka_unit_test(test_sequential_d128),
		cmocka_unit_test(test_within_tlb_reach),
		cmocka_unit_test(test_beyond_tlb_reach_walks),
		cmocka_unit_test(test_l2_evictions),
		cmocka_unit_test(test_pwc_reach_doubles),
		cmocka_unit_test(test_thp_blocks),
		cmocka_unit_test(test_shadow_thp),
		cmocka_unit_test(test_pwc_tags),
		cmocka_unit_test(test_cost_linear),
		cmocka_unit_test(test_strided_chases),
		cmocka_unit_test(test_config_keys),
		cmocka_unit_test(test_bad_geometry_rejected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
