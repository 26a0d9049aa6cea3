// SPDX-License-Identifier: GPL-2.0-only
/* Digamma, trigamma and trigamma's inverse against closed forms. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/gammafn.h"

#define EULER_GAMMA 0.57721566490153286
#define PI 3.14159265358979324

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.15g, want %.15g", got, want);
}

static void test_digamma(void **state)
{
	(void)state;
	near(pt_digamma(1), -EULER_GAMMA, 1e-12);
	near(pt_digamma(0.5), -EULER_GAMMA - 2 * log(2), 1e-12);
	/* psi(n) = -gamma + 1 + 1/2 + ... + 1/(n-1) */
	near(pt_digamma(10),
	     -EULER_GAMMA + 1 + 1. / 2 + 1. / 3 + 1. / 4 + 1. / 5 + 1. / 6 + 1. / 7 + 1. / 8 +
		     1. / 9,
	     1e-12);
	/* the asymptotic side: psi(x) ~ ln x - 1/(2x) */
	near(pt_digamma(1e6), log(1e6) - 0.5e-6, 1e-12);
	assert_true(isnan(pt_digamma(0)));
	assert_true(isnan(pt_digamma(-1)));
}

static void test_trigamma(void **state)
{
	(void)state;
	near(pt_trigamma(1), PI * PI / 6, 1e-12);
	near(pt_trigamma(0.5), PI * PI / 2, 1e-11);
	near(pt_trigamma(2), PI * PI / 6 - 1, 1e-12);
	near(pt_trigamma(7.5), pt_trigamma(8.5) + 1 / (7.5 * 7.5), 1e-13);
	near(pt_trigamma(1e8), 1e-8, 1e-15);
	assert_true(isnan(pt_trigamma(0)));
	assert_true(pt_trigamma(INFINITY) == 0);
}

static void test_trigamma_inv(void **state)
{
	static const double xs[] = { 1e-3, 0.2, 1, 3.7, 20, 500, 1e5 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		near(pt_trigamma_inv(pt_trigamma(xs[i])) / xs[i], 1, 1e-9);
	near(pt_trigamma_inv(PI * PI / 6), 1, 1e-10);
	assert_true(isnan(pt_trigamma_inv(0)));
	assert_true(isnan(pt_trigamma_inv(-2)));
	assert_true(isnan(pt_trigamma_inv(NAN)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digamma),
		cmocka_unit_test(test_trigamma),
		cmocka_unit_test(test_trigamma_inv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
