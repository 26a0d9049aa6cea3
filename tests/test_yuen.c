// SPDX-License-Identifier: GPL-2.0-only
/*
 * Yuen's test (util/yuen.c). The expected t, df and p come from a separate
 * implementation (Python, its own incomplete beta function) of the same
 * formulas: Yuen 1974, as Wilcox gives them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/yuen.h"

/* a: one slow value (3.0); b: 0.3 higher, one slow value (5.0) */
static const double a[10] = { 1.0, 1.2, 0.9, 1.1, 1.05, 3.0, 1.0, 0.95, 1.15, 1.02 };
static const double b[10] = { 1.3, 1.25, 1.4, 1.2, 1.35, 1.28, 5.0, 1.32, 1.22, 1.31 };

static void check(struct pt_trim trim, double diff, double t, double df, double p)
{
	struct pt_yuen y;

	assert_true(pt_yuen(a, 10, b, 10, trim, &y));
	assert_float_equal(y.diff, diff, 1e-9);
	assert_float_equal(y.t, t, 1e-8);
	assert_float_equal(y.df, df, 1e-8);
	assert_true(fabs(y.p_greater - p) < 1e-9 * p + 1e-15);
	assert_true(fabs(y.p_two - 2 * p) < 2e-9 * p + 1e-15);
}

/* No trim is Welch's t test; a symmetric and a slow-end trim. */
static void test_values(void **state)
{
	(void)state;
	check((struct pt_trim){ 0, 0 }, 0.426, 1.0125390666, 13.7342297446, 0.164393494173);
	check((struct pt_trim){ 0.2, 0.2 }, 0.248333333333, 5.65514785001, 8.3119727716,
	      0.00020832528903);
	check((struct pt_trim){ 0, 0.4 }, 0.273333333333, 7.50809980685, 9.5958246087,
	      1.28670619071e-05);
}

/* A slow value cut by the trim weighs nothing, however slow; the sides swapped, p flips. */
static void test_slow_values_cut(void **state)
{
	double b2[10];
	struct pt_yuen y, y2, sw;
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++)
		b2[i] = b[i] == 5.0 ? 500.0 : b[i];
	assert_true(pt_yuen(a, 10, b, 10, (struct pt_trim){ 0, 0.4 }, &y));
	assert_true(pt_yuen(a, 10, b2, 10, (struct pt_trim){ 0, 0.4 }, &y2));
	assert_float_equal(y.t, y2.t, 0);
	assert_float_equal(y.p_greater, y2.p_greater, 0);
	assert_true(pt_yuen(b, 10, a, 10, (struct pt_trim){ 0, 0.4 }, &sw));
	assert_float_equal(sw.t, -y.t, 1e-12);
	assert_float_equal(sw.p_greater, 1 - y.p_greater, 1e-12);
}

/* Too few values, a value not finite, no spread at all. */
static void test_edges(void **state)
{
	static const double one[1] = { 1 }, c1[4] = { 2, 2, 2, 2 }, c2[4] = { 3, 3, 3, 3 };
	double bad[10];
	struct pt_yuen y;
	size_t i;

	(void)state;
	assert_int_equal(pt_yuen_min_n((struct pt_trim){ 0, 0.4 }), 2);
	assert_int_equal(pt_yuen_min_n((struct pt_trim){ 0.2, 0.2 }), 2);
	/* 4 values keep 2, 5 keep 1 (two cut from each end): from 6 on, 2 or more */
	assert_int_equal(pt_yuen_min_n((struct pt_trim){ 0.4, 0.4 }), 6);
	assert_true(pt_yuen(a, 4, b, 10, (struct pt_trim){ 0.4, 0.4 }, &y));
	assert_false(pt_yuen(a, 5, b, 10, (struct pt_trim){ 0.4, 0.4 }, &y));
	assert_true(pt_yuen(a, 6, b, 10, (struct pt_trim){ 0.4, 0.4 }, &y));
	assert_int_equal(pt_yuen_min_n((struct pt_trim){ 0.5, 0.5 }), SIZE_MAX);
	assert_false(pt_yuen(one, 1, b, 10, (struct pt_trim){ 0, 0.4 }, &y));
	for (i = 0; i < 10; i++)
		bad[i] = i == 3 ? NAN : b[i];
	assert_false(pt_yuen(a, 10, bad, 10, (struct pt_trim){ 0, 0.4 }, &y));
	bad[3] = INFINITY;
	assert_false(pt_yuen(a, 10, bad, 10, (struct pt_trim){ 0, 0.4 }, &y));
	assert_true(pt_yuen(c1, 4, c2, 4, (struct pt_trim){ 0, 0.4 }, &y));
	assert_true(y.p_greater == 0 && y.p_two == 0 && isinf(y.t) && y.t > 0);
	assert_true(pt_yuen(c1, 4, c1, 4, (struct pt_trim){ 0, 0.4 }, &y));
	assert_true(y.p_greater == 1 && y.p_two == 1 && y.t == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_slow_values_cut),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
