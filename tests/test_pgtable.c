// SPDX-License-Identifier: GPL-2.0-only
/* Page-table counts for synthetic layouts, computed by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/pgtable.h"

#define K 1024ull
#define M (K * K)
#define G (M * K)
#define BASE (64 * G) /* 64 GiB: aligned for every table span used here */

static void model(enum pt_format f, unsigned gshift, unsigned va, const struct pt_layout *l,
		  bool deposit, struct pt_pgtable *out)
{
	struct pt_geometry geo;
	char err[160];

	assert_int_equal(pt_geometry_make(&geo, f, gshift, va, err, sizeof(err)), 0);
	assert_int_equal(pt_pgtable_model(&geo, l, deposit, out, err, sizeof(err)), 0);
}

static void dense(struct pt_layout *l, uint64_t bytes, enum pt_map_kind kind, unsigned hshift)
{
	pt_layout_init(l, 12);
	assert_int_equal(pt_layout_add(l, BASE, bytes, kind, hshift), 0);
}

static void test_dense_1g_4k(void **state)
{
	struct pt_layout l;
	struct pt_pgtable p;

	(void)state;
	dense(&l, 1 * G, PT_MAP_BASE, 0);
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.nlevels, 4);
	assert_int_equal(p.level[0].tables, 512);
	assert_int_equal(p.level[1].tables, 1);
	assert_int_equal(p.level[2].tables, 1);
	assert_int_equal(p.level[3].tables, 1);
	assert_int_equal(p.bytes_kernel, (512 + 1 + 1) * 4 * K);
	assert_int_equal(p.bytes_all, (512 + 1 + 1 + 1) * 4 * K);
	assert_true(p.kernel_comparable);
	assert_int_equal(p.mapped_bytes, 1 * G);

	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.nlevels, 5);
	assert_int_equal(p.level[0].tables, 1024); /* 1 MiB per leaf table */
	assert_int_equal(p.level[1].tables, 4); /* 256 MiB per PMD table */
	assert_int_equal(p.level[2].tables, 1);
	assert_int_equal(p.level[3].tables, 1);
	assert_int_equal(p.level[4].tables, 1);
	assert_int_equal(p.level[4].bytes, 16 * 16); /* 16-entry start table */
	assert_false(p.level[3].kernel_counted); /* no nr_p4ds */
	assert_int_equal(p.bytes_kernel, (1024 + 4 + 1) * 4 * K);
	assert_int_equal(p.bytes_all, (1024 + 4 + 1 + 1) * 4 * K + 256);

	/* 16K and 64K granules: 32 MiB and 512 MiB per leaf table under D64 */
	model(PT_D64, 14, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 32);
	model(PT_D64, 16, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 2);
	model(PT_D128, 16, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 4);
	pt_layout_free(&l);
}

static void test_sparse_one_page_per_pmd(void **state)
{
	struct pt_layout l;
	struct pt_pgtable p;
	uint64_t a;

	(void)state;
	pt_layout_init(&l, 12);
	for (a = 0; a < 1 * G; a += 2 * M)
		assert_int_equal(pt_layout_add(&l, BASE + a, 4 * K, PT_MAP_BASE, 0), 0);
	assert_int_equal(l.n, 512);
	assert_int_equal(pt_layout_bytes(&l), 2 * M);
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 512); /* one leaf table per page */
	assert_int_equal(p.level[1].tables, 1);
	assert_int_equal(p.bytes_kernel, 514 * 4 * K);
	/* D128: every other 1 MiB span is touched, so the leaf count stays 512 */
	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 512);
	assert_int_equal(p.level[1].tables, 4);
	assert_int_equal(p.bytes_kernel, (512 + 4 + 1) * 4 * K);
	/* 64K granule: one page rounds out to 64K, one leaf table per 512M */
	model(PT_D64, 16, 48, &l, true, &p);
	assert_int_equal(p.mapped_bytes, 512 * 64 * K);
	assert_int_equal(p.level[0].tables, 2);
	pt_layout_free(&l);

	/* one page per 1 MiB: D64 512 leaf tables, D128 1024 */
	pt_layout_init(&l, 12);
	for (a = 0; a < 1 * G; a += 1 * M)
		assert_int_equal(pt_layout_add(&l, BASE + a, 4 * K, PT_MAP_BASE, 0), 0);
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 512);
	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 1024);
	pt_layout_free(&l);
}

static void test_thp_deposit(void **state)
{
	struct pt_layout l;
	struct pt_pgtable p;

	(void)state;
	dense(&l, 1 * G, PT_MAP_THP, 21);
	/* Linux: a deposited PTE table under each of the 512 PMD blocks */
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 512);
	assert_int_equal(p.level[1].blocks, 512);
	assert_int_equal(p.level[1].tables, 1);
	assert_int_equal(p.bytes_kernel, 514 * 4 * K);
	/* without the deposit the leaf tables go */
	model(PT_D64, 12, 48, &l, false, &p);
	assert_int_equal(p.level[0].tables, 0);
	assert_int_equal(p.bytes_kernel, 2 * 4 * K);
	/* 4K D128: each 2M THP becomes two 1M blocks, each with its deposit */
	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.level[1].blocks, 1024);
	assert_int_equal(p.level[0].tables, 1024);
	assert_int_equal(p.level[1].tables, 4);
	model(PT_D128, 12, 48, &l, false, &p);
	assert_int_equal(p.level[0].tables, 0);
	/* 64K granule: a 512M PMD block exceeds the 2M THP: page-mapped */
	model(PT_D64, 16, 48, &l, true, &p);
	assert_int_equal(p.level[1].blocks, 0);
	assert_int_equal(p.level[0].tables, 2);
	model(PT_D64, 16, 48, &l, false, &p);
	assert_int_equal(p.level[0].tables, 2);
	pt_layout_free(&l);
}

static void test_file_thp_has_no_deposit(void **state)
{
	struct pt_layout l;
	struct pt_pgtable p;

	(void)state;
	dense(&l, 1 * G, PT_MAP_THP_FILE, 21);
	/* shmem/file THP: PMD blocks and no PTE table below them, deposit or not */
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[1].blocks, 512);
	assert_int_equal(p.level[0].tables, 0);
	assert_int_equal(p.bytes_kernel, 2 * 4 * K);
	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.level[1].blocks, 1024);
	assert_int_equal(p.level[0].tables, 0);
	pt_layout_free(&l);
}

static void test_hugetlb(void **state)
{
	struct pt_layout l;
	struct pt_pgtable p;

	(void)state;
	dense(&l, 1 * G, PT_MAP_HUGETLB, 21);
	model(PT_D64, 12, 48, &l, true, &p); /* no deposit for hugetlb */
	assert_int_equal(p.level[0].tables, 0);
	assert_int_equal(p.level[1].blocks, 512);
	assert_int_equal(p.level[1].tables, 1);
	model(PT_D128, 12, 48, &l, true, &p);
	assert_int_equal(p.level[0].tables, 0);
	assert_int_equal(p.level[1].blocks, 1024);
	pt_layout_free(&l);

	dense(&l, 2 * G, PT_MAP_HUGETLB, 30);
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[2].blocks, 2);
	assert_int_equal(p.level[1].tables, 0);
	assert_int_equal(p.level[2].tables, 1);
	model(PT_D128, 12, 48, &l, true, &p); /* 256M PUD blocks */
	assert_int_equal(p.level[2].blocks, 8);
	assert_int_equal(p.level[1].tables, 0);
	pt_layout_free(&l);

	/* a hugetlb extent not made of whole blocks is page-mapped */
	pt_layout_init(&l, 12);
	assert_int_equal(pt_layout_add(&l, BASE + 4 * K, 2 * M, PT_MAP_HUGETLB, 21), 0);
	model(PT_D64, 12, 48, &l, true, &p);
	assert_int_equal(p.level[1].blocks, 0);
	assert_int_equal(p.level[0].tables, 2);
	pt_layout_free(&l);
}

static void test_kernel_levels_and_skl(void **state)
{
	struct pt_geometry geo;
	struct pt_layout l;
	struct pt_pgtable p;
	char err[160];

	(void)state;
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 39, err, sizeof(err)), 0);
	assert_true(pt_pgtable_kernel_counts(&geo, 0));
	assert_true(pt_pgtable_kernel_counts(&geo, 1));
	assert_false(pt_pgtable_kernel_counts(&geo, 2)); /* the pgd of 3 levels */
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_true(pt_pgtable_kernel_counts(&geo, 2));
	assert_false(pt_pgtable_kernel_counts(&geo, 3));

	dense(&l, 1 * G, PT_MAP_BASE, 0);
	assert_int_equal(pt_geometry_make(&geo, PT_D128, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_apply_skl(&geo, 0, 1, err, sizeof(err)), 0);
	assert_int_equal(pt_pgtable_model(&geo, &l, true, &p, err, sizeof(err)), 0);
	assert_false(p.kernel_comparable);
	assert_int_equal(p.bytes_kernel, 0);
	assert_int_equal(p.level[0].tables, 4); /* 256 MiB per 1 MiB leaf table */
	assert_int_equal(p.level[0].bytes, 4 * M);
	assert_int_equal(p.level[1].tables, 1);
	assert_int_equal(p.level[2].tables, 1);
	pt_layout_free(&l);
}

static void test_layout_errors(void **state)
{
	struct pt_geometry geo;
	struct pt_layout l;
	struct pt_pgtable p;
	char err[160] = "";

	(void)state;
	pt_layout_init(&l, 12);
	assert_int_equal(pt_layout_add(&l, BASE, 8 * K, PT_MAP_BASE, 0), 0);
	assert_int_equal(pt_layout_add(&l, BASE + 8 * K, 4 * K, PT_MAP_BASE, 0), 0);
	assert_int_equal(l.n, 1); /* merged */
	assert_int_equal(pt_layout_add(&l, BASE, 4 * K, PT_MAP_BASE, 0), -1);
	assert_int_equal(pt_layout_add(&l, BASE + 1 * M, 0, PT_MAP_BASE, 0), -1);
	assert_int_equal(pt_layout_add(&l, BASE + 1 * M, 2 * M, PT_MAP_THP, 21), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(pt_layout_bytes_of(&l, PT_MAP_THP), 2 * M);
	assert_int_equal(pt_layout_check(&l, err, sizeof(err)), 0);

	/* out of the VA */
	assert_int_equal(pt_layout_add(&l, 1ull << 48, 4 * K, PT_MAP_BASE, 0), 0);
	assert_int_equal(pt_geometry_make(&geo, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_pgtable_model(&geo, &l, true, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "beyond"));
	l.n--;

	/* corrupt by hand: overlap, misalignment, kind */
	l.ext[1].start = BASE;
	assert_int_equal(pt_pgtable_model(&geo, &l, true, &p, err, sizeof(err)), -1);
	l.ext[1].start = BASE + 1 * M + 1;
	assert_int_equal(pt_layout_check(&l, err, sizeof(err)), -1);
	l.ext[1].start = BASE + 1 * M;
	l.ext[1].kind = 9;
	assert_int_equal(pt_layout_check(&l, err, sizeof(err)), -1);
	l.ext[1].kind = PT_MAP_BASE;
	assert_int_equal(pt_layout_check(&l, err, sizeof(err)), -1); /* huge_shift on base */
	l.ext[1].huge_shift = 0;
	assert_int_equal(pt_layout_check(&l, err, sizeof(err)), 0);
	pt_layout_free(&l);

	/* empty layout: no tables at all */
	pt_layout_init(&l, 12);
	assert_int_equal(pt_pgtable_model(&geo, &l, true, &p, err, sizeof(err)), 0);
	assert_int_equal(p.bytes_all, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dense_1g_4k),
		cmocka_unit_test(test_sparse_one_page_per_pmd),
		cmocka_unit_test(test_thp_deposit),
		cmocka_unit_test(test_file_thp_has_no_deposit),
		cmocka_unit_test(test_hugetlb),
		cmocka_unit_test(test_kernel_levels_and_skl),
		cmocka_unit_test(test_layout_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
