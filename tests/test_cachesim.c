// SPDX-License-Identifier: GPL-2.0-only
/*
 * The set-associative arrays behind the simulated caches, TLBs and walk
 * caches, checked access by access against a plain LRU list per set: every
 * associativity the fast paths special-case (4, 8 and 16 ways, unrolled),
 * the generic narrow and wide scans, the filtered rings of small wide
 * arrays, and the aged arrays of the data caches (keys in place, an age
 * per way); then the three-level data cache against three such lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/cachesim.h"

/* A reference LRU array: per set, keys from MRU to LRU. */
struct ref_lru {
	uint64_t *key;
	unsigned *used;
	uint64_t sets;
	unsigned ways, idx_shift;
};

static void ref_init(struct ref_lru *r, uint64_t entries, unsigned ways, unsigned idx_shift)
{
	r->sets = entries / ways;
	r->ways = ways;
	r->idx_shift = idx_shift;
	r->key = calloc(entries, sizeof(*r->key));
	r->used = calloc(r->sets, sizeof(*r->used));
	assert_non_null(r->key);
	assert_non_null(r->used);
}

static void ref_free(struct ref_lru *r)
{
	free(r->key);
	free(r->used);
}

/* Access key: true on a hit; either way it ends up MRU. */
static bool ref_access(struct ref_lru *r, uint64_t key)
{
	uint64_t set = (key >> r->idx_shift) & (r->sets - 1);
	uint64_t *w = r->key + set * r->ways;
	unsigned n = r->used[set], i;
	bool hit = false;

	for (i = 0; i < n; i++) {
		if (w[i] == key) {
			hit = true;
			break;
		}
	}
	if (!hit && n < r->ways)
		r->used[set] = ++n;
	if (i == n)
		i = n - 1; /* a miss: the LRU way (or the new one) goes */
	memmove(w + 1, w, i * sizeof(*w));
	w[0] = key;
	return hit;
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

typedef bool (*access_fn)(void *array, uint64_t key);

static bool sa_access(void *s, uint64_t key)
{
	return pt_sa_access(s, key);
}

static bool aged_access(void *a, uint64_t key)
{
	return pt_aged_access(a, key);
}

/*
 * Access array and a reference LRU list with the same keys, from a space a
 * little larger than the array, so that hits, misses and evictions all
 * happen at every LRU position; every answer must agree. high: keys that
 * share their low 32 bits too (the aged arrays' SSE2 filter matches on them).
 */
static void drive(const char *what, void *array, access_fn access, uint64_t entries, unsigned ways,
		  unsigned idx_shift, unsigned span, bool high)
{
	struct ref_lru r;
	uint64_t x = 0x1234567 + entries * 31 + ways, i, space = entries * span / 4 + 1;
	unsigned hits = 0;

	ref_init(&r, entries, ways, idx_shift);
	for (i = 0; i < 200000; i++) {
		uint64_t key = (xorshift(&x) % space) << idx_shift |
			       (x >> 60 & ((1u << idx_shift) - 1));
		bool want, got;

		key += high ? x >> 62 << 32 : 0;
		want = ref_access(&r, key);
		got = access(array, key);
		if (got != want)
			fail_msg(
				"%s %llu entries, %u ways: access %llu of key %llu: %s, expected %s",
				what, (unsigned long long)entries, ways, (unsigned long long)i,
				(unsigned long long)key, got ? "hit" : "miss",
				want ? "hit" : "miss");
		hits += got;
	}
	assert_true(hits > 1000 && hits < 199000);
	ref_free(&r);
}

static void check_lru(uint64_t entries, unsigned ways, unsigned idx_shift, unsigned span)
{
	struct pt_sa s;
	char err[160];

	assert_int_equal(pt_sa_init(&s, entries, ways, idx_shift, false, err, sizeof(err)), 0);
	drive("LRU", &s, sa_access, entries, ways, idx_shift, span, false);
	pt_sa_free(&s);
}

static void test_lru_unrolled_ways(void **state)
{
	(void)state;
	check_lru(1024, 4, 0, 5);
	check_lru(2048, 8, 2, 5);
	check_lru(512, 16, 0, 6);
}

static void test_lru_generic_narrow_ways(void **state)
{
	(void)state;
	check_lru(96, 3, 0, 5);
	check_lru(1536, 12, 2, 5);
	check_lru(64, 2, 0, 6);
	check_lru(16, 1, 0, 8);
}

static void test_lru_filtered_ring(void **state)
{
	(void)state;
	check_lru(48, 48, 2, 5); /* the default L1 DTLB: one 48-way ring */
	check_lru(1024, 32, 2, 5); /* 32 rings of 32 ways */
	check_lru(255, 255, 0, 5);
	check_lru(17, 17, 0, 12);
}

static void test_lru_wide_unfiltered(void **state)
{
	(void)state;
	check_lru(128 * 20, 20, 0, 5); /* more sets than filtered arrays have */
}

/* The aged array: keys stay in place, ages decide; the same answers as LRU. */
static void check_aged(uint64_t entries, unsigned ways, unsigned span)
{
	struct pt_aged a;

	assert_true(pt_aged_fits(entries, ways));
	assert_int_equal(pt_aged_init(&a, entries, ways), 0);
	drive("aged", &a, aged_access, entries, ways, 0, span, true);
	pt_aged_free(&a);
}

static void test_aged_against_lru(void **state)
{
	(void)state;
	check_aged(1024, 4, 5);
	check_aged(2048, 8, 5);
	check_aged(512, 16, 6);
	check_aged(16, 16, 8); /* one set */
	check_aged(768, 12, 5); /* a 48 KiB 12-way L1D, as CPUID gives on Zen 4 */
	assert_false(pt_aged_fits(96, 6));
	assert_false(pt_aged_fits(96, 4)); /* 24 sets: not a power of two */
}

/* Random replacement: the key just inserted hits; no set holds a key twice. */
static void test_random_replacement(void **state)
{
	static const unsigned ways[] = { 4, 48 };
	uint64_t x = 99;
	unsigned k, i;
	char err[160];

	(void)state;
	for (k = 0; k < 2; k++) {
		struct pt_sa s;

		assert_int_equal(pt_sa_init(&s, 4 * ways[k], ways[k], 0, true, err, sizeof(err)),
				 0);
		for (i = 0; i < 50000; i++) {
			uint64_t key = xorshift(&x) % (8 * ways[k]);

			pt_sa_access(&s, key);
			assert_true(pt_sa_lookup(&s, key));
		}
		for (i = 0; i < 4 * ways[k]; i++) {
			const uint64_t *w = s.slot + i / ways[k] * ways[k];
			unsigned j;

			for (j = 0; j < ways[k]; j++)
				assert_true(!w[j] || w[j] != s.slot[i] || w + j == s.slot + i);
		}
		pt_sa_free(&s);
	}
}

static unsigned count_present(struct pt_sa *s, uint64_t keys)
{
	unsigned n = 0;
	uint64_t key;

	for (key = 0; key < keys; key++)
		n += pt_sa_lookup(s, key);
	return n;
}

/*
 * Entries inserted by others (tlb.l2.evictions): into a full array each
 * displaces one entry by the set's replacement (LRU: one of the keys
 * there, as none of the foreign keys is older), and none is ever found.
 */
static void test_insert_foreign(void **state)
{
	/* narrow LRU, a filtered ring (48 ways, 4 sets), narrow random */
	static const struct {
		unsigned ways;
		bool random;
	} c[] = { { 8, false }, { 48, false }, { 8, true } };
	unsigned k, i, left;
	char err[160];

	(void)state;
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		uint64_t entries = 4 * c[k].ways, key;
		struct pt_sa s;

		assert_int_equal(
			pt_sa_init(&s, entries, c[k].ways, 0, c[k].random, err, sizeof(err)), 0);
		for (key = 0; key < entries; key++)
			pt_sa_access(&s, key);
		assert_int_equal(count_present(&s, entries), entries);
		for (i = 0; i < 8; i++)
			pt_sa_insert_foreign(&s);
		left = count_present(&s, entries);
		if (c[k].random)
			assert_true(left >= entries - 8 && left < entries);
		else
			assert_int_equal(left, entries - 8);
		pt_sa_free(&s);
	}
}

/*
 * Others' entries displace every way of a random set in time: a victim
 * tied to the set a foreign key went to (consecutive xorshift64 states)
 * left half of each set's keys in place for good.
 */
static void test_foreign_reaches_every_way(void **state)
{
	uint64_t entries = 256 * 8, key; /* the default L2 TLB's sets: the tie needed 8 set bits */
	struct pt_sa s;
	unsigned i;
	char err[160];

	(void)state;
	assert_int_equal(pt_sa_init(&s, entries, 8, 2, true, err, sizeof(err)), 0);
	for (key = 0; key < entries; key++)
		pt_sa_access(&s, key << 2);
	for (i = 0; i < 256 * 160; i++)
		pt_sa_insert_foreign(&s);
	for (key = 0; key < entries; key++)
		assert_false(pt_sa_lookup(&s, key << 2));
	pt_sa_free(&s);
}

/* The data-cache hierarchy: where each line is found, against three lists. */
static void test_hierarchy_against_reference(void **state)
{
	const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS] = { { 4 << 10, 4, false },
								 { 16 << 10, 8, false },
								 { 64 << 10, 16, false } };
	struct pt_cachesim c;
	struct ref_lru r[PT_CACHE_LEVELS];
	uint64_t x = 7, i;
	unsigned l, seen[PT_LOC_N] = { 0 };
	char err[160];

	(void)state;
	assert_int_equal(pt_cachesim_init(&c, cfg, true, 1, err, sizeof(err)), 0);
	for (l = 0; l < PT_CACHE_LEVELS; l++)
		ref_init(&r[l], cfg[l].size_bytes >> PT_LINE_SHIFT, cfg[l].ways, 0);
	for (i = 0; i < 300000; i++) {
		uint64_t pa = (xorshift(&x) % (96 << 10)) & ~7ull;
		enum pt_loc want = PT_LOC_MEM;

		for (l = 0; l < PT_CACHE_LEVELS; l++) {
			if (ref_access(&r[l], pa >> PT_LINE_SHIFT)) {
				want = (enum pt_loc)l;
				break;
			}
		}
		assert_int_equal(pt_cachesim_access(&c, pa), want);
		seen[want]++;
	}
	for (l = 0; l < PT_LOC_N; l++)
		assert_true(seen[l] > 1000);
	pt_cachesim_free(&c);
	for (l = 0; l < PT_CACHE_LEVELS; l++)
		ref_free(&r[l]);
}

/* LLC hits of a cycle over 5/4 of the LLC's lines, after three warming cycles. */
static unsigned cyclic_llc_hits(bool random)
{
	const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS] = { { 4 << 10, 4, false },
								 { 16 << 10, 8, false },
								 { 256 << 10, 16, random } };
	uint64_t lines = (cfg[2].size_bytes >> PT_LINE_SHIFT) * 5 / 4, i;
	unsigned hits = 0, pass;
	struct pt_cachesim c;
	char err[160];

	assert_int_equal(pt_cachesim_init(&c, cfg, true, 1, err, sizeof(err)), 0);
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < lines; i++) {
			enum pt_loc at = pt_cachesim_access(&c, i << PT_LINE_SHIFT);

			hits += pass == 3 && at == PT_LOC_LLC;
		}
	pt_cachesim_free(&c);
	return hits;
}

/*
 * cache.llc.replacement: an LRU LLC misses every access of a cycle larger
 * than itself; a random one keeps a share of it (about 60% at 5/4 here).
 */
static void test_llc_random_replacement(void **state)
{
	unsigned lines = (256 << 10) >> PT_LINE_SHIFT;

	(void)state;
	assert_int_equal(cyclic_llc_hits(false), 0);
	assert_true(cyclic_llc_hits(true) > lines / 2);
}

/*
 * cache.prefetch.lines: a data load's miss past the L2 fills its aligned
 * block's other lines into the L2 and the LLC, not the L1; a line of
 * another block is not filled; a walker's fetch fills nothing; values other
 * than 1, 2, 4, 8 are refused.
 */
static void test_spatial_prefetch(void **state)
{
	const struct pt_cache_level_cfg cfg[PT_CACHE_LEVELS] = { { 4 << 10, 4, false },
								 { 16 << 10, 8, false },
								 { 64 << 10, 16, false } };
	const uint64_t line = 64ull << PT_LINE_SHIFT; /* block 64-67 at 4 lines */
	struct pt_cachesim c;
	char err[160];

	(void)state;
	assert_int_equal(pt_cachesim_init(&c, cfg, true, 4, err, sizeof(err)), 0);
	assert_int_equal(pt_cachesim_load(&c, line + (2 << PT_LINE_SHIFT)), PT_LOC_MEM);
	assert_int_equal(pt_cachesim_load(&c, line), PT_LOC_L2);
	assert_int_equal(pt_cachesim_load(&c, line + (3 << PT_LINE_SHIFT)), PT_LOC_L2);
	assert_int_equal(pt_cachesim_load(&c, line + (1 << PT_LINE_SHIFT)), PT_LOC_L2);
	assert_int_equal(pt_cachesim_load(&c, line + (4 << PT_LINE_SHIFT)), PT_LOC_MEM);
	assert_int_equal(pt_cachesim_load(&c, line - (1 << PT_LINE_SHIFT)), PT_LOC_MEM);
	pt_cachesim_free(&c);

	/* a walker's fetch does not fill its block */
	assert_int_equal(pt_cachesim_init(&c, cfg, true, 4, err, sizeof(err)), 0);
	assert_int_equal(pt_cachesim_access(&c, line), PT_LOC_MEM);
	assert_int_equal(pt_cachesim_load(&c, line + (1 << PT_LINE_SHIFT)), PT_LOC_MEM);
	pt_cachesim_free(&c);

	/* the same loads without it: every line is its own miss */
	assert_int_equal(pt_cachesim_init(&c, cfg, true, 1, err, sizeof(err)), 0);
	assert_int_equal(pt_cachesim_load(&c, line + (2 << PT_LINE_SHIFT)), PT_LOC_MEM);
	assert_int_equal(pt_cachesim_load(&c, line), PT_LOC_MEM);
	pt_cachesim_free(&c);

	assert_int_equal(pt_cachesim_init(&c, cfg, true, 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cache.prefetch.lines"));
	assert_int_equal(pt_cachesim_init(&c, cfg, true, 16, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_unrolled_ways),
		cmocka_unit_test(test_llc_random_replacement),
		cmocka_unit_test(test_lru_generic_narrow_ways),
		cmocka_unit_test(test_lru_filtered_ring),
		cmocka_unit_test(test_lru_wide_unfiltered),
		cmocka_unit_test(test_aged_against_lru),
		cmocka_unit_test(test_random_replacement),
		cmocka_unit_test(test_foreign_reaches_every_way),
		cmocka_unit_test(test_insert_foreign),
		cmocka_unit_test(test_hierarchy_against_reference),
		cmocka_unit_test(test_spatial_prefetch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
