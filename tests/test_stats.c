// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/stats.h"

static void test_summary_one_to_ten(void **state)
{
	double v[] = { 7, 3, 10, 1, 5, 2, 9, 4, 8, 6 };
	struct pt_summary s;

	(void)state;
	assert_int_equal(pt_summarize(v, 10, &s), 0);
	assert_int_equal(s.n, 10);
	assert_float_equal(s.min, 1, 1e-12);
	assert_float_equal(s.max, 10, 1e-12);
	assert_float_equal(s.mean, 5.5, 1e-12);
	assert_float_equal(s.median, 5.5, 1e-12);
	assert_float_equal(s.stddev, 3.0276503540974917, 1e-12);
	assert_float_equal(s.cv, 3.0276503540974917 / 5.5, 1e-12);
	assert_float_equal(s.p90, 9.1, 1e-12);
	assert_float_equal(s.p99, 9.91, 1e-12);
	/* Binomial(10, 1/2): P(X <= 1) = 11/1024, so [x(2), x(9)] covers 97.9%. */
	assert_true(s.ci_valid);
	assert_float_equal(s.ci_lo, 2, 1e-12);
	assert_float_equal(s.ci_hi, 9, 1e-12);
}

static void test_summary_small_n(void **state)
{
	double five[] = { 5, 1, 4, 2, 3 }, six[] = { 6, 5, 1, 4, 2, 3 }, one[] = { 42 };
	struct pt_summary s;

	(void)state;
	/* Five samples cannot give a 95% interval: 1 - 2/32 < 0.95. */
	assert_int_equal(pt_summarize(five, 5, &s), 0);
	assert_false(s.ci_valid);
	assert_float_equal(s.ci_lo, 1, 0);
	assert_float_equal(s.ci_hi, 5, 0);
	assert_int_equal(pt_summarize(six, 6, &s), 0);
	assert_true(s.ci_valid);
	assert_float_equal(s.median, 3.5, 1e-12);
	assert_int_equal(pt_summarize(one, 1, &s), 0);
	assert_float_equal(s.stddev, 0, 0);
	assert_float_equal(s.median, 42, 0);
	assert_int_equal(pt_summarize(one, 0, &s), -1);
}

static void test_quantile(void **state)
{
	double v[] = { 10, 20, 30, 40 };

	(void)state;
	assert_float_equal(pt_quantile_sorted(v, 4, 0), 10, 0);
	assert_float_equal(pt_quantile_sorted(v, 4, 1), 40, 0);
	assert_float_equal(pt_quantile_sorted(v, 4, 0.5), 25, 1e-12);
	assert_float_equal(pt_quantile_sorted(v, 4, 1.0 / 3), 20, 1e-12);
	assert_true(isnan(pt_quantile_sorted(v, 0, 0.5)));
}

/* The same fraction from each end. */
static struct pt_trim sym(double t)
{
	return (struct pt_trim){ t, t };
}

static void test_trimmed_mean(void **state)
{
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };

	(void)state;
	/* 0.2 of 10 cuts 2 from each end: the mean of 3..8 */
	assert_float_equal(pt_trimmed_mean_cut(v, 10, sym(0.2)), 5.5, 1e-12);
	/* 0.1 of 10 is 1, not 0.999...: the outlier goes */
	assert_float_equal(pt_trimmed_mean_cut(v, 10, sym(0.1)), 5.5, 1e-12);
	assert_float_equal(pt_trimmed_mean_cut(v, 10, sym(0)), 14.5, 1e-12);
	assert_float_equal(pt_trimmed_mean_cut(v, 10, sym(0.5)), 5.5, 1e-12);
	/* too few to cut from: the median */
	assert_float_equal(pt_trimmed_mean_cut(v, 2, sym(0.49)), 1.5, 1e-12);
	assert_float_equal(pt_trimmed_mean_cut(v, 3, sym(0.4)), 2, 1e-12);
	assert_float_equal(pt_trimmed_mean_cut(v, 1, sym(0.2)), 1, 0);
	assert_true(isnan(pt_trimmed_mean_cut(v, 0, sym(0.2))));
}

/* Each end cut by its own fraction: the fastest few, the second to the fifth, a quantile. */
static void test_trimmed_mean_cut(void **state)
{
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };
	char s[48];

	(void)state;
	/* the fastest 3 of 10 (0.7 of 10 is 7, not 6.999...) */
	assert_float_equal(pt_trimmed_mean_cut(v, 10, (struct pt_trim){ 0, 0.7 }), 2, 1e-12);
	/* the second to the fifth */
	assert_float_equal(pt_trimmed_mean_cut(v, 10, (struct pt_trim){ 0.1, 0.5 }), 3.5, 1e-12);
	/* nothing left: the quantile lo / (lo + hi) */
	assert_float_equal(pt_trimmed_mean_cut(v, 10, (struct pt_trim){ 0, 1 }), 1, 0);
	assert_float_equal(pt_trimmed_mean_cut(v, 10, (struct pt_trim){ 0.5, 0.5 }), 5.5, 1e-12);
	assert_float_equal(pt_trimmed_mean_cut(v, 4, (struct pt_trim){ 0.25, 0.75 }), 1.75, 1e-12);
	assert_true(isnan(pt_trimmed_mean_cut(v, 0, (struct pt_trim){ 0, 0.7 })));
	pt_trim_str((struct pt_trim){ 0.2, 0.2 }, s, sizeof(s));
	assert_string_equal(s, "0.2");
	pt_trim_str((struct pt_trim){ 0, 0.7 }, s, sizeof(s));
	assert_string_equal(s, "0,0.7");
}

static void test_mann_whitney_exact(void **state)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	double c[] = { 1.1, 2.3, 3.2, 4.8, 5.0, 6.1 }, d[] = { 3.3, 4.1, 5.5, 6.6, 7.2, 8.0 };

	(void)state;
	/* Complete separation: 2 / C(10, 5). */
	assert_float_equal(pt_mann_whitney_p(a, 5, b, 5), 2.0 / 252, 1e-12);
	assert_float_equal(pt_mann_whitney_p(b, 5, a, 5), 2.0 / 252, 1e-12);
	assert_float_equal(pt_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-12);
	/* Reference value from scipy.stats.mannwhitneyu(method='exact'). */
	assert_float_equal(pt_mann_whitney_p(c, 6, d, 6), 0.09307359307359307, 1e-9);
	assert_float_equal(pt_mann_whitney_p(a, 0, b, 5), -1, 0);
}

static void test_mann_whitney_ties_normal(void **state)
{
	double a[35] = { 1, 2, 2, 3, 3, 3 }, b[37], same[] = { 1, 1, 2, 2 };
	int i;

	(void)state;
	for (i = 6; i < 35; i++)
		a[i] = i - 2;
	for (i = 0; i < 35; i++)
		b[i] = a[i] + 5;
	b[35] = 2;
	b[36] = 3;
	/* scipy.stats.mannwhitneyu(method='asymptotic', use_continuity=True). */
	assert_float_equal(pt_mann_whitney_p(a, 35, b, 37), 0.10337163471626165, 1e-6);
	/* Identical samples: no evidence of a shift. */
	assert_float_equal(pt_mann_whitney_p(same, 4, same, 4), 1, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_one_to_ten),
		cmocka_unit_test(test_summary_small_n),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_trimmed_mean),
		cmocka_unit_test(test_trimmed_mean_cut),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_ties_normal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
