// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-table operation cost model: structural counts against the
 * geometry worked by hand, component factors, and the combination.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/opcost.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* fork of 1G of 4K pages: 262144 PTEs either way; tables 512+1+1+1 vs 1024+4+1+1+1. */
static void test_fork_4k_counts(void **state)
{
	struct pt_op_case c = { .op = PT_OP_FORK, .region_bytes = GIB, .fault_bytes = 4096 };
	struct pt_op_counts a, b;
	char err[128];

	(void)state;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), 0);
	assert_true(near(a.entries, 262144) && near(b.entries, 262144));
	assert_true(near(a.tables, 515) && near(b.tables, 1031));
	assert_int_equal(a.levels, 4);
	assert_int_equal(b.levels, 5);
	assert_true(near(a.zero_bytes, 515 * 4096.0) && near(b.zero_bytes, 1031 * 4096.0));
	assert_true(near(a.ops, 1) && near(b.ops, 1));
}

/* A 2M THP fault is two 1M block faults under D128, each with a deposited table. */
static void test_thp_fault_counts(void **state)
{
	struct pt_op_case c = {
		.op = PT_OP_FAULT, .region_bytes = 64 * MIB, .thp = true, .fault_bytes = 2 * MIB
	};
	struct pt_op_counts a, b;
	char err[128];

	(void)state;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), 0);
	assert_true(near(a.entries, 1) && near(b.entries, 2));
	assert_true(near(a.ops, 1) && near(b.ops, 2));
	/* per D64 fault: 2M of data, then the deposit tables and the amortised upper ones */
	assert_true(a.zero_bytes > 2 * MIB && a.zero_bytes < 2 * MIB + 2 * 4096);
	assert_true(b.zero_bytes > a.zero_bytes);
}

/* munmap per 4K page: one PTE; a table per 512 pages (D64) or 256 (D128). */
static void test_munmap_counts(void **state)
{
	struct pt_op_case c = { .op = PT_OP_MUNMAP,
				.region_bytes = 256 * MIB,
				.fault_bytes = 4096,
				.frees_tables = true };
	struct pt_op_counts a, b;
	char err[128];

	(void)state;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), 0);
	assert_true(near(a.entries, 1) && near(b.entries, 1));
	assert_true(a.tables > 1.0 / 512 && a.tables < 1.1 / 512);
	assert_true(b.tables > 1.0 / 256 && b.tables < 1.1 / 256);
	c.frees_tables = false;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), 0);
	assert_true(near(a.tables, 0) && near(b.tables, 0));
}

static void test_bad_cases(void **state)
{
	struct pt_op_case c = { .op = PT_OP_FORK, .region_bytes = 0, .fault_bytes = 4096 };
	struct pt_op_counts a, b;
	char err[128];

	(void)state;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	c.op = PT_OP_FAULT;
	c.region_bytes = 4 * MIB;
	c.fault_bytes = 8 * MIB;
	assert_int_equal(pt_op_counts_make(&c, &a, &b, err, sizeof(err)), -1);
}

/*
 * A component of 100 ns over 10 entries whose replica costs 2.5 ns (D64)
 * and twice that under D128: a quarter of it is descriptor work, so its
 * factor is 1.25; the upper end scales all of it (2x).
 */
static void test_factor_bound(void **state)
{
	struct pt_op_counts a = { .entries = 10, .ops = 1 }, b = { .entries = 10, .ops = 1 };
	struct pt_replica_cost rc = {
		.have = true, .d64 = 2.5, .d128 = 5, .ratio = 2, .ratio_lo = 1.8, .ratio_hi = 2.2
	};
	struct pt_comp_factor f;

	(void)state;
	pt_comp_factor(PT_COMP_COPY, 100, &a, &b, &rc, &f);
	assert_true(near(f.bound_share, 0.25));
	assert_true(near(f.mid, 1.25));
	assert_true(near(f.lo, 1.2));
	assert_true(near(f.hi, 2.2));
	/* a replica dearer than the kernel's whole component is capped at it */
	rc.d64 = 20;
	pt_comp_factor(PT_COMP_COPY, 100, &a, &b, &rc, &f);
	assert_true(f.bound_share > 1 && near(f.mid, 2));
	/* per-operation work follows the operations: two 1M faults per 2M */
	b.ops = 2;
	pt_comp_factor(PT_COMP_KOTHER, 100, &a, &b, NULL, &f);
	assert_true(near(f.mid, 2) && near(f.lo, 2) && near(f.hi, 2));
	pt_comp_factor(PT_COMP_TLB, 100, &a, &b, NULL, &f);
	assert_true(near(f.mid, 1));
}

/* Shares 0.5 copy (factor 1.25) + 0.5 other (1): 1.125, sampling sd from n. */
static void test_predict(void **state)
{
	struct pt_op_counts a = { .entries = 10, .ops = 1 }, b = { .entries = 10, .ops = 1 };
	struct pt_replica_cost rc[PT_REPL_N] = {
		{ .have = true, .d64 = 0.625, .d128 = 1.25, .ratio = 2, .ratio_lo = 2, .ratio_hi = 2 }
	};
	double share[PT_COMP_N] = { 0 };
	struct pt_op_prediction p;
	double sd;

	(void)state;
	share[PT_COMP_COPY] = 0.5;
	share[PT_COMP_KOTHER] = 0.5;
	pt_op_predict(share, 400, 50, &a, &b, rc, &p);
	assert_true(near(p.f[PT_COMP_COPY].mid, 1.25));
	assert_true(near(p.ratio, 1.125));
	sd = sqrt((0.5 * 1.25 * 1.25 + 0.5 - 1.125 * 1.125) / 400);
	assert_true(near(p.sampling_sd, sd));
	assert_true(near(p.ratio_lo, 1.125 - 2 * sd));
	/* the upper end: copy scaled whole (2x) */
	assert_true(near(p.ratio_hi, 1.5 + 2 * sd));
	/* no profile: no sampling term */
	pt_op_predict(share, 0, 50, &a, &b, rc, &p);
	assert_true(near(p.sampling_sd, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_4k_counts), cmocka_unit_test(test_thp_fault_counts),
		cmocka_unit_test(test_munmap_counts),  cmocka_unit_test(test_bad_cases),
		cmocka_unit_test(test_factor_bound),   cmocka_unit_test(test_predict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
