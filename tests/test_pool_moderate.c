// SPDX-License-Identifier: GPL-2.0-only
/*
 * The moderated spread's prior (analysis/pool_moderate.h): the estimates
 * recover d0 and s0 from variances drawn as the model says, equal variances
 * give one variance for all, and a moderated variance lies between the
 * series' own and the prior's.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/pool_moderate.h"
#include "util/gammafn.h"
#include "util/rng.h"

#define PI 3.14159265358979324

static double uniform(uint64_t *s)
{
	return ((double)(pt_rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* chi-square with k (whole) degrees of freedom: k squared normals (Box-Muller) */
static double chi2(uint64_t *s, int k)
{
	double sum = 0;
	int i;

	for (i = 0; i < k; i++) {
		double z = sqrt(-2 * log(uniform(s))) * cos(2 * PI * uniform(s));

		sum += z * z;
	}
	return sum;
}

static void test_too_few(void **state)
{
	double var[PT_POOL_PRIOR_MIN_SERIES] = { 0 }, df[PT_POOL_PRIOR_MIN_SERIES];
	struct pt_pool_prior p;
	double out;
	size_t i;

	(void)state;
	for (i = 0; i < PT_POOL_PRIOR_MIN_SERIES; i++) {
		var[i] = 0.001 * (double)(i + 1);
		df[i] = 8;
	}
	/* one short: a zero variance and a NAN df are skipped */
	var[0] = 0;
	assert_int_equal(pt_pool_prior_fit(var, df, PT_POOL_PRIOR_MIN_SERIES, &p), -1);
	assert_int_equal(p.series, 0);
	/* an unfitted prior leaves a series as it is */
	assert_true(pt_pool_prior_var(&p, 0.004, 8, &out) == 0.004);
	assert_true(out == 8);
	var[0] = 0.0005;
	assert_int_equal(pt_pool_prior_fit(var, df, PT_POOL_PRIOR_MIN_SERIES, &p), 0);
	assert_int_equal(p.series, PT_POOL_PRIOR_MIN_SERIES);
}

static void test_equal(void **state)
{
	double var[20], df[20], out, v;
	struct pt_pool_prior p;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) {
		var[i] = 0.0016;
		df[i] = 8;
	}
	assert_int_equal(pt_pool_prior_fit(var, df, 20, &p), 0);
	/* no spread beyond sampling: d0 infinite, s0^2 the variance that sampling
	 * at 8 degrees of freedom makes 0.0016 on the log scale's mean */
	assert_true(isinf(p.df));
	assert_true(fabs(p.var / (0.0016 * exp(log(4) - pt_digamma(4))) - 1) < 1e-12);
	v = pt_pool_prior_var(&p, 0.01, 8, &out);
	assert_true(v == p.var);
	assert_true(out == PT_POOL_PRIOR_DF_MAX);
}

/* Variances drawn as the model says: sigma^2 = s0^2 d0 / chi2_d0, s^2 = sigma^2 chi2_d / d. */
static void test_recovers(void **state)
{
	enum { N = 4000, D = 8, D0 = 10 };
	static double var[N], df[N];
	const double s0sq = 0.0016;
	uint64_t seed = 0x2545f4914f6cdd1dull;
	struct pt_pool_prior p;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		double sigma2 = s0sq * D0 / chi2(&seed, D0);

		var[i] = sigma2 * chi2(&seed, D) / D;
		df[i] = D;
	}
	assert_int_equal(pt_pool_prior_fit(var, df, N, &p), 0);
	assert_int_equal(p.series, N);
	if (!(p.df > 7 && p.df < 14))
		fail_msg("d0 %g, drawn with %d", p.df, D0);
	if (!(fabs(p.var / s0sq - 1) < 0.1))
		fail_msg("s0^2 %g, drawn with %g", p.var, s0sq);
}

static void test_between(void **state)
{
	static const double var[] = { 1e-4,   4e-4,   9e-4,   1.6e-3, 2.5e-3, 3.6e-3,
				      4.9e-3, 6.4e-3, 8.1e-3, 1e-2,   2e-2,   5e-5 };
	double df[sizeof(var) / sizeof(var[0])], out, lo, hi;
	const size_t n = sizeof(var) / sizeof(var[0]);
	struct pt_pool_prior p;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++)
		df[i] = 8;
	assert_int_equal(pt_pool_prior_fit(var, df, n, &p), 0);
	/* these spread far more than sampling at 8 degrees of freedom does */
	assert_true(isfinite(p.df) && p.df > 0);
	for (i = 0; i < n; i++) {
		double v = pt_pool_prior_var(&p, var[i], 8, &out);

		lo = fmin(var[i], p.var);
		hi = fmax(var[i], p.var);
		assert_true(v >= lo && v <= hi);
		assert_true(fabs(out - (8 + p.df)) < 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_recovers),
		cmocka_unit_test(test_between),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
