// SPDX-License-Identifier: GPL-2.0-only
/* Student's t tail and its inverse against values of the standard t tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/student_t.h"

static void near(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.10g, want %.10g", got, want);
}

static void test_sf(void **state)
{
	(void)state;
	near(pt_t_sf(1.0, 1), 0.25, 1e-9); /* Cauchy: 1/2 - atan(1)/pi */
	near(pt_t_sf(0.0, 7), 0.5, 1e-12);
	near(pt_t_sf(-1.0, 1), 0.75, 1e-9);
	/* two-sided 5% points of the tables: P(T > t) = 0.025 */
	near(pt_t_sf(2.262157, 9), 0.025, 1e-5);
	near(pt_t_sf(2.045230, 29), 0.025, 1e-5);
	/* one-sided 0.5% point, df 29 */
	near(pt_t_sf(2.756386, 29), 0.005, 1e-5);
	/* large df approaches the normal: P(Z > 1.959964) = 0.025 */
	near(pt_t_sf(1.959964, 1e7), 0.025, 1e-5);
	/* a far tail: df 9 at t 10, P = 1.78e-6 (2 x 0.89e-6 two-sided table) */
	assert_true(pt_t_sf(10, 9) > 1e-6 && pt_t_sf(10, 9) < 2.5e-6);
	assert_true(isnan(pt_t_sf(1, 0)));
	assert_true(pt_t_sf(INFINITY, 5) == 0);
}

static void test_isf(void **state)
{
	(void)state;
	near(pt_t_isf(0.05, 9), 1.833113, 1e-5);
	near(pt_t_isf(0.025, 9), 2.262157, 1e-5);
	near(pt_t_isf(0.005, 29), 2.756386, 1e-5);
	assert_true(fabs(pt_t_isf(0.5, 3)) < 1e-9);
	/* round trip in a far tail */
	near(pt_t_sf(pt_t_isf(1e-6, 9), 9), 1e-6, 1e-6);
	assert_true(isnan(pt_t_isf(0, 9)));
	assert_true(isnan(pt_t_isf(0.1, -1)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sf),
		cmocka_unit_test(test_isf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
