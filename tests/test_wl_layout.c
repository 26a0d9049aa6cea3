// SPDX-License-Identifier: GPL-2.0-only
/*
 * The layouts of the fork and pgtable workloads on the x86-64 / arm64 4K D64
 * geometry and on 4K D128 (PMD 1M), and the checks every repetition of the
 * fork, thp and pgtable workloads makes before its numbers count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "workloads/wl_layout.h"

#define KIB 1024ull
#define MIB (1024 * KIB)
#define GIB (1024 * MIB)

static const struct wl_geom d64 = { 4 * KIB, 2 * MIB, GIB };
/* 4K granule, 128-bit descriptors: 256 entries a table. */
static const struct wl_geom d128 = { 4 * KIB, MIB, 256 * MIB };
/* arm64 64K D64: 8192 entries a table, PMD 512M. */
static const struct wl_geom g64k = { 64 * KIB, 512 * MIB, 4096 * GIB };

static void test_strides(void **state)
{
	(void)state;
	assert_int_equal(wl_layout_stride(WL_DENSE, PT_BACK_4K, &d64), 4 * KIB);
	assert_int_equal(wl_layout_stride(WL_DENSE, PT_BACK_THP, &d64), 2 * MIB);
	assert_int_equal(wl_layout_stride(WL_SPARSE_PMD, PT_BACK_4K, &d64), 2 * MIB);
	assert_int_equal(wl_layout_stride(WL_SPARSE_PUD, PT_BACK_4K, &d64), GIB);
	assert_int_equal(wl_layout_stride(WL_DENSE, PT_BACK_THP, &d128), MIB);
	assert_int_equal(wl_layout_stride(WL_SPARSE_PUD, PT_BACK_THP, &d128), 256 * MIB);
}

static void test_touches_and_resident(void **state)
{
	(void)state;
	assert_int_equal(wl_layout_touches(WL_DENSE, PT_BACK_4K, GIB, &d64), 262144);
	assert_int_equal(wl_layout_resident(WL_DENSE, PT_BACK_4K, GIB, &d64), GIB);
	assert_int_equal(wl_layout_touches(WL_DENSE, PT_BACK_THP, GIB, &d64), 512);
	assert_int_equal(wl_layout_resident(WL_DENSE, PT_BACK_THP, GIB, &d64), GIB);
	/* One page per PMD span of 64 GiB: 32768 pages, 128 MiB resident. */
	assert_int_equal(wl_layout_touches(WL_SPARSE_PMD, PT_BACK_4K, 64 * GIB, &d64), 32768);
	assert_int_equal(wl_layout_resident(WL_SPARSE_PMD, PT_BACK_4K, 64 * GIB, &d64), 128 * MIB);
	/* One huge page per PUD span: 64 of them. */
	assert_int_equal(wl_layout_resident(WL_SPARSE_PUD, PT_BACK_THP, 64 * GIB, &d64), 128 * MIB);
	/* D128: twice the PMD spans, so twice the sparse pages. */
	assert_int_equal(wl_layout_touches(WL_SPARSE_PMD, PT_BACK_4K, 64 * GIB, &d128), 65536);
	/* A partial span still gets its touch. */
	assert_int_equal(wl_layout_touches(WL_SPARSE_PMD, PT_BACK_4K, 3 * MIB, &d64), 2);
}

static void test_min_pgtable(void **state)
{
	(void)state;
	/* A dense 4K GiB: 512 PTE tables on D64 (2 MiB), 1024 on D128 (4 MiB). */
	assert_int_equal(wl_layout_min_pgtable(WL_DENSE, PT_BACK_4K, GIB, &d64), 2 * MIB);
	assert_int_equal(wl_layout_min_pgtable(WL_DENSE, PT_BACK_4K, GIB, &d128), 4 * MIB);
	assert_int_equal(wl_layout_min_pgtable(WL_SPARSE_PMD, PT_BACK_4K, 64 * GIB, &d64),
			 128 * MIB);
	assert_int_equal(wl_layout_min_pgtable(WL_SPARSE_PUD, PT_BACK_4K, 64 * GIB, &d64),
			 256 * KIB);
	assert_int_equal(wl_layout_min_pgtable(WL_DENSE, PT_BACK_THP, GIB, &d64), 0);
	/* 64K: a 64M region shares its 512M span's table; 1G covers two spans. */
	assert_int_equal(wl_layout_min_pgtable(WL_DENSE, PT_BACK_4K, 64 * MIB, &g64k), 0);
	assert_int_equal(wl_layout_min_pgtable(WL_DENSE, PT_BACK_4K, GIB, &g64k), 128 * KIB);
}

static void test_align(void **state)
{
	(void)state;
	assert_int_equal(wl_layout_align(WL_DENSE, 64 * MIB, &d64), 2 * MIB);
	assert_int_equal(wl_layout_align(WL_DENSE, GIB, &d64), GIB);
	assert_int_equal(wl_layout_align(WL_SPARSE_PUD, 64 * MIB, &d64), GIB);
	assert_int_equal(wl_layout_align(WL_DENSE, 256 * MIB, &d128), 256 * MIB);
}

static void test_touch_writes_every_stride(void **state)
{
	size_t len = 64 * 4096, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(p != MAP_FAILED);
	assert_int_equal(wl_layout_touch(p, len, 4096 * 4), 16);
	for (i = 0; i < len; i++)
		assert_int_equal(p[i], i % (4096 * 4) ? 0 : 1);
	munmap(p, len);
}

static void test_verify_resident(void **state)
{
	struct wl_expect e4k = { PT_BACK_4K, 64 * MIB }, thp = { PT_BACK_THP, 64 * MIB };
	struct pt_smaps_info s = { 0 };
	char msg[200];

	(void)state;
	s.rss_bytes = 64 * MIB;
	assert_int_equal(wl_verify_resident(&e4k, &s, msg, sizeof(msg)), 0);
	s.rss_bytes = 64 * MIB - 4096;
	assert_int_equal(wl_verify_resident(&e4k, &s, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "resident"));
	s.rss_bytes = 64 * MIB;
	s.anon_huge_bytes = 2 * MIB;
	assert_int_equal(wl_verify_resident(&e4k, &s, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "huge"));
	/* THP: at least PT_THP_MIN_FRACTION of the bytes in huge pages. */
	s.anon_huge_bytes = 58 * MIB;
	assert_int_equal(wl_verify_resident(&thp, &s, msg, sizeof(msg)), 0);
	s.anon_huge_bytes = 56 * MIB;
	assert_int_equal(wl_verify_resident(&thp, &s, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "THP"));
}

static void test_verify_faults(void **state)
{
	char msg[200];

	(void)state;
	assert_int_equal(wl_verify_faults("x", 512, 512, 1.0, 1.0, 2, msg, sizeof(msg)), 0);
	assert_int_equal(wl_verify_faults("x", 514, 512, 1.0, 1.0, 2, msg, sizeof(msg)), 0);
	assert_int_equal(wl_verify_faults("x", 515, 512, 1.0, 1.0, 2, msg, sizeof(msg)), -1);
	assert_int_equal(wl_verify_faults("cow", 511, 512, 1.0, 1.0, 2, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "cow: 511 faults"));
	assert_int_equal(wl_verify_faults("x", 8111, 8192, 0.99, 1.01, 4, msg, sizeof(msg)), 0);
	assert_int_equal(wl_verify_faults("x", 8000, 8192, 0.99, 1.01, 4, msg, sizeof(msg)), -1);
}

static void test_verify_pgtable_growth(void **state)
{
	char msg[200];

	(void)state;
	assert_int_equal(wl_verify_pgtable_growth(2101248, 2097152, msg, sizeof(msg)), 0);
	assert_int_equal(wl_verify_pgtable_growth(2093056, 2097152, msg, sizeof(msg)), -1);
	assert_int_equal(wl_verify_pgtable_growth(-4096, 0, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "-4096"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strides),
		cmocka_unit_test(test_touches_and_resident),
		cmocka_unit_test(test_min_pgtable),
		cmocka_unit_test(test_align),
		cmocka_unit_test(test_touch_writes_every_stride),
		cmocka_unit_test(test_verify_resident),
		cmocka_unit_test(test_verify_faults),
		cmocka_unit_test(test_verify_pgtable_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
