// SPDX-License-Identifier: GPL-2.0-only
/* The run-to-run noise floor (harness/noisefloor.c) and steal-time parsing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/noisefloor.h"
#include "harness/steal.h"

/* The spread is the largest change between any two runs, base-relative. */
static void test_spread(void **state)
{
	const double med[] = { 100, 110, 90, NAN, 104 };

	(void)state;
	/* 90 -> 110 is the largest change: +22.2% */
	assert_float_equal(pt_floor_spread(med, 5, -1, -1), 200.0 / 9, 1e-9);
	/* without run 2 (90): 100 -> 110 = +10% */
	assert_float_equal(pt_floor_spread(med, 5, 2, -1), 10, 1e-9);
	/* without runs 1 and 2: 100 -> 104 = +4% */
	assert_float_equal(pt_floor_spread(med, 5, 1, 2), 4, 1e-9);
	/* fewer than two runs left */
	assert_true(isnan(pt_floor_spread(med, 2, 0, -1)));
	assert_true(isnan(pt_floor_spread(med, 1, -1, -1)));
}

static void test_threshold(void **state)
{
	struct pt_floor_opts o = { .base_pct = 5, .margin = 2, .max_pct = 50 };
	bool off = true;

	(void)state;
	/* 3% x 2 = 6%, above the 5% base */
	assert_float_equal(pt_floor_threshold(3, &o, &off), 6, 1e-9);
	assert_false(off);
	/* 2.1% x 2 = 4.2 -> 5%: rounded up, and the base threshold stays */
	assert_float_equal(pt_floor_threshold(2.1, &o, &off), 5, 1e-9);
	assert_false(off);
	/* nothing significant between identical runs: the base threshold */
	assert_float_equal(pt_floor_threshold(0, &o, &off), 5, 1e-9);
	assert_false(off);
	/* 80% x 2 = 160% > 50%: not gated */
	assert_float_equal(pt_floor_threshold(80, &o, &off), 160, 1e-9);
	assert_true(off);
	/* unknown: not gated */
	pt_floor_threshold(NAN, &o, &off);
	assert_true(off);
}

static void test_steal_parse(void **state)
{
	const char *stat = "cpu  344395 0 216959 4965012 925 0 555 656 0 0\n"
			   "cpu0 151180 0 24841 2587285 186 0 107 326 0 0\n";
	double s = -1;

	(void)state;
	assert_int_equal(pt_steal_parse(stat, 100, &s), 0);
	assert_float_equal(s, 6.56, 1e-9);
	assert_int_equal(pt_steal_parse("cpu  1 2 3 4 5 6 7\n", 100, &s), -1);
	assert_int_equal(pt_steal_parse("intr 1 2 3\n", 100, &s), -1);
	assert_int_equal(pt_steal_parse(stat, 0, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_steal_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
