// SPDX-License-Identifier: GPL-2.0-only
/*
 * Geometry against the formulas for every format x granule x VA, and
 * against the values of docs d128-facts.md, typed in here (and only here)
 * as independent expectations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/geometry.h"

static const unsigned granules[] = { 12, 14, 16 };

/* Levels by walking down from the VA size, not by the ceil formula. */
static unsigned levels_by_walk(unsigned va, unsigned g, unsigned b)
{
	unsigned n = 0;
	int left = (int)va - (int)g;

	while (left > 0) {
		left -= (int)b;
		n++;
	}
	return n;
}

static int expect_valid(enum pt_format f, unsigned g, unsigned va)
{
	unsigned b = g - (f == PT_D128 ? 4 : 3);

	if (va < 25)
		return 0;
	if (f == PT_D64 && va > 52)
		return 0;
	if (va > 56)
		return 0;
	return levels_by_walk(va, g, b) <= 5;
}

static void test_every_combination(void **state)
{
	char err[160];
	unsigned gi, va, h, valid = 0, invalid = 0;
	int f;

	(void)state;
	for (f = PT_D64; f <= PT_D128; f++) {
		for (gi = 0; gi < 3; gi++) {
			for (va = 20; va <= 60; va++) {
				struct pt_geometry geo;
				unsigned g = granules[gi];
				unsigned desc = f == PT_D128 ? 16 : 8;
				unsigned b = g - (f == PT_D128 ? 4 : 3);
				unsigned sum = g;
				int rc = pt_geometry_make(&geo, f, g, va, err, sizeof(err));

				if (!expect_valid(f, g, va)) {
					assert_int_equal(rc, -1);
					assert_true(strlen(err) > 0);
					invalid++;
					continue;
				}
				assert_int_equal(rc, 0);
				valid++;
				assert_int_equal(geo.desc_bytes, desc);
				assert_int_equal(geo.bits_per_level, b);
				assert_int_equal(geo.nlevels, levels_by_walk(va, g, b));
				for (h = 0; h < geo.nlevels; h++) {
					const struct pt_walk_level *l = &geo.level[h];

					assert_int_equal(l->shift, sum);
					sum += l->index_bits;
					assert_int_equal(l->entries, 1ull << l->index_bits);
					assert_int_equal(l->table_bytes, l->entries * desc);
					if (h + 1 < geo.nlevels) {
						/* a full table is one granule */
						assert_int_equal(l->table_bytes, 1ull << g);
						assert_int_equal(l->index_bits, b);
					} else {
						assert_true(l->index_bits >= 1 &&
							    l->index_bits <= b);
						assert_string_equal(l->name, "pgd");
					}
					if (l->block_bytes)
						assert_int_equal(l->block_bytes,
								 1ull << (g + h * b));
					if (h == 0)
						assert_int_equal(l->block_bytes, 0);
					if (h == 1)
						assert_int_not_equal(l->block_bytes, 0);
				}
				assert_int_equal(sum, va);
			}
		}
	}
	/* 2 formats x 3 granules x 41 sizes, of which these are allowed */
	assert_int_equal(valid + invalid, 2 * 3 * 41);
	assert_true(valid > 100);
}

struct facts_cell {
	enum pt_format f;
	unsigned g, va, levels;
	uint64_t top_entries;
};

/* d128-facts.md, "Geometry for the common configurations". */
static const struct facts_cell facts[] = {
	{ PT_D64, 12, 39, 3, 512 },  { PT_D64, 12, 42, 4, 8 },	   { PT_D64, 12, 47, 4, 256 },
	{ PT_D64, 12, 48, 4, 512 },  { PT_D64, 12, 52, 5, 16 },	   { PT_D128, 12, 39, 4, 8 },
	{ PT_D128, 12, 42, 4, 64 },  { PT_D128, 12, 47, 5, 8 },	   { PT_D128, 12, 48, 5, 16 },
	{ PT_D128, 12, 52, 5, 256 }, { PT_D64, 14, 39, 3, 8 },	   { PT_D64, 14, 42, 3, 64 },
	{ PT_D64, 14, 47, 3, 2048 }, { PT_D64, 14, 48, 4, 2 },	   { PT_D64, 14, 52, 4, 32 },
	{ PT_D128, 14, 39, 3, 32 },  { PT_D128, 14, 42, 3, 256 },  { PT_D128, 14, 47, 4, 8 },
	{ PT_D128, 14, 48, 4, 16 },  { PT_D128, 14, 52, 4, 256 },  { PT_D64, 16, 39, 2, 1024 },
	{ PT_D64, 16, 42, 2, 8192 }, { PT_D64, 16, 47, 3, 32 },	   { PT_D64, 16, 48, 3, 64 },
	{ PT_D64, 16, 52, 3, 1024 }, { PT_D128, 16, 39, 2, 2048 }, { PT_D128, 16, 42, 3, 4 },
	{ PT_D128, 16, 47, 3, 128 }, { PT_D128, 16, 48, 3, 256 },  { PT_D128, 16, 52, 3, 4096 },
};

static void test_facts_table(void **state)
{
	struct pt_geometry geo;
	char err[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct facts_cell *c = &facts[i];

		assert_int_equal(pt_geometry_make(&geo, c->f, c->g, c->va, err, sizeof(err)), 0);
		assert_int_equal(geo.nlevels, c->levels);
		assert_int_equal(geo.level[geo.nlevels - 1].entries, c->top_entries);
	}
	/* VA 52 on D64 needs an extension, D128 does not */
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 52, err, sizeof(err)), 0);
	assert_string_equal(pt_geometry_extension(&geo), "FEAT_LPA2");
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 16, 52, err, sizeof(err)), 0);
	assert_string_equal(pt_geometry_extension(&geo), "FEAT_LVA");
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 52, err, sizeof(err)), 0);
	assert_null(pt_geometry_extension(&geo));
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_null(pt_geometry_extension(&geo));
}

#define K 1024ull
#define M (K * K)
#define G (M * K)
#define T (G * K)

struct facts_blocks {
	enum pt_format f;
	unsigned g;
	uint64_t pmd, pud; /* 0: no block at that level */
	uint64_t cont_pte_bytes, cont_pmd_bytes;
};

/* d128-facts.md, "Block sizes" and "Contiguous-bit runs". */
static const struct facts_blocks blocks[] = {
	{ PT_D64, 12, 2 * M, 1 * G, 64 * K, 32 * M },
	{ PT_D128, 12, 1 * M, 256 * M, 64 * K, 16 * M },
	{ PT_D64, 14, 32 * M, 0, 2 * M, 1 * G },
	{ PT_D128, 14, 16 * M, 16 * G, 1 * M, 256 * M },
	{ PT_D64, 16, 512 * M, 0, 2 * M, 16 * G },
	{ PT_D128, 16, 256 * M, 1 * T, 1 * M, 16 * G },
};

static void test_blocks_and_cont(void **state)
{
	struct pt_geometry geo;
	char err[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		const struct facts_blocks *c = &blocks[i];

		assert_int_equal(pt_geometry_make(&geo, c->f, c->g, 48, err, sizeof(err)), 0);
		assert_string_equal(geo.level[0].name, "pte");
		assert_string_equal(geo.level[1].name, "pmd");
		assert_int_equal(geo.level[1].block_bytes, c->pmd);
		assert_int_equal(geo.level[2].block_bytes, c->pud);
		assert_int_equal(geo.level[0].cont_entries << c->g, c->cont_pte_bytes);
		assert_int_equal(geo.level[1].cont_entries * geo.level[1].block_bytes,
				 c->cont_pmd_bytes);
	}
	/* Leaf table memory per mapped byte: 4K 0.195% vs 0.39% */
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(geo.level[0].table_bytes * 10000 / (geo.level[0].entries << 12), 39);
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(geo.level[0].table_bytes * 100000 / (geo.level[0].entries << 12), 195);
	/* x86-64 4-level naming: pte pmd pud pgd; 5-level adds p4d */
	assert_string_equal(geo.level[2].name, "pud");
	assert_string_equal(geo.level[3].name, "pgd");
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_string_equal(geo.level[3].name, "p4d");
	assert_int_equal(geo.level[3].block_bytes, 64 * G);
	assert_string_equal(geo.level[4].name, "pgd");
	assert_int_equal(geo.level[4].block_bytes, 0);
}

static void test_invalid(void **state)
{
	struct pt_geometry geo;
	char err[160] = "";

	(void)state;
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 56, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "56"));
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 16, 53, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 56, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 14, 56, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 5);
	assert_int_equal(geo.level[4].entries, 4);
	assert_string_equal(pt_geometry_extension(&geo), "FEAT_LVA3");
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 16, 56, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 4);
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 13, 48, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, (enum pt_format)7, 12, 48, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 24, err, sizeof(err)), -1);
}

static void test_skl(void **state)
{
	struct pt_geometry geo;
	char err[160];

	(void)state;
	/* d128-facts: 4K VA 48, TTBR.SKL = 1: 64 KiB top table, 4 levels */
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 0, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 4);
	assert_int_equal(geo.level[3].table_bytes, 64 * K);
	assert_int_equal(geo.level[3].shift, 36);
	assert_int_equal(geo.level[0].table_bytes, 4 * K);
	assert_int_equal(geo.ttbr_skl, 1);
	/* applying twice is refused */
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 0, err, sizeof(err)), -1);

	/* table SKL 1: 65,536-entry 1 MiB tables below the 16-entry start */
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 0, 1, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 3);
	assert_int_equal(geo.level[0].entries, 65536);
	assert_int_equal(geo.level[0].table_bytes, 1 * M);
	assert_string_equal(geo.level[0].name, "pmd+pte");
	assert_int_equal(geo.level[0].block_bytes, 0);
	assert_int_equal(geo.level[1].entries, 65536);
	assert_int_equal(geo.level[1].shift, 28);
	assert_int_equal(geo.level[1].block_bytes, 256 * M);
	assert_int_equal(geo.level[2].entries, 16);

	/* both: start table of 4 + 8 bits, then pmd+pte and a lone pud */
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 1, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 3);
	assert_int_equal(geo.level[0].index_bits, 16);
	assert_int_equal(geo.level[1].index_bits, 8);
	assert_string_equal(geo.level[1].name, "pud");
	assert_int_equal(geo.level[2].index_bits, 12);
	/* table SKL 2 merges all three levels below the start table */
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 2, err, sizeof(err)), 0);
	assert_int_equal(geo.nlevels, 2);
	assert_int_equal(geo.level[0].index_bits, 24);
	assert_string_equal(geo.level[0].name, "pud+pmd+pte");

	/* not on D64, not beyond two bits, not leaving one level */
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 0, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 4, 0, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 16, 39, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 1, 0, err, sizeof(err)), -1);
	assert_int_equal(pt_geometry_apply_skl(&geo, 0, 0, err, sizeof(err)), 0);
}

static void test_parse(void **state)
{
	enum pt_format f;
	unsigned g;

	(void)state;
	assert_int_equal(pt_format_parse("d128", &f), 0);
	assert_int_equal(f, PT_D128);
	assert_int_equal(pt_format_parse("D64", &f), 0);
	assert_int_equal(f, PT_D64);
	assert_int_equal(pt_format_parse("d32", &f), -1);
	assert_int_equal(pt_granule_parse("16k", &g), 0);
	assert_int_equal(g, 14);
	assert_int_equal(pt_granule_parse("65536", &g), 0);
	assert_int_equal(g, 16);
	assert_int_equal(pt_granule_parse("8K", &g), -1);
	assert_int_equal(pt_granule_parse(NULL, &g), -1);
	assert_string_equal(pt_format_name(PT_D128), "D128");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_combination),
		cmocka_unit_test(test_facts_table),
		cmocka_unit_test(test_blocks_and_cont),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_skl),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
