// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ways the calibration gives each LLC size it searches
 * (pt_walkcalib_llc_ways): a power-of-two set count, the configured ways
 * kept where they give one, and a size no way count can index skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/walkcalib.h"

#define M (1ull << 20)

static void test_kept(void **state)
{
	(void)state;
	assert_int_equal(pt_walkcalib_llc_ways(4 * M, 16), 16);
	assert_int_equal(pt_walkcalib_llc_ways(32 * M, 8), 8);
	/* a sysfs LLC rounded to 16384 sets of 20 ways */
	assert_int_equal(pt_walkcalib_llc_ways(20 * M, 20), 20);
}

static void test_replaced(void **state)
{
	(void)state;
	/* 20 ways do not divide 1M into a power of two: the nearest that do */
	assert_int_equal(pt_walkcalib_llc_ways(1 * M, 20), 16);
	/* the sizes between the 2x steps: 3 * 2^k lines */
	assert_int_equal(pt_walkcalib_llc_ways(6 * M, 16), 12);
	assert_int_equal(pt_walkcalib_llc_ways(3 * M / 2, 16), 12);
	/* 3/4 of the 20-way 20M: 15 * 2^k lines */
	assert_int_equal(pt_walkcalib_llc_ways(15 * M, 20), 15);
	assert_int_equal(pt_walkcalib_llc_ways(30 * M, 20), 15);
}

static void test_none(void **state)
{
	(void)state;
	/* 129 lines: no count of at most PT_WALKCALIB_MAX_LLC_WAYS ways */
	assert_int_equal(pt_walkcalib_llc_ways(129 * 64, 16), 0);
	assert_int_equal(pt_walkcalib_llc_ways(100, 16), 0);
	assert_int_equal(pt_walkcalib_llc_ways(0, 16), 0);
	/* no ways given: bad input, not a direct-mapped cache */
	assert_int_equal(pt_walkcalib_llc_ways(4 * M, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_replaced),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
