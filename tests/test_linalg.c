// SPDX-License-Identifier: GPL-2.0-only
/* pt_sym_eigen and pt_solve against matrices with known answers (util/linalg.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/linalg.h"

/* A symmetric matrix with eigenvalues 6, 3, 1: those, descending, with A v = l v, |v| = 1. */
static void test_eigen_known(void **state)
{
	static const double a[9] = { 4, 1, -1, 1, 3, -2, -1, -2, 3 };
	double val[3], vec[9];
	size_t i, r;

	(void)state;
	assert_int_equal(pt_sym_eigen(a, 3, val, vec), 0);
	/* trace 10 and determinant 18 leave the three roots of l^3 - 10 l^2 + 27 l - 18 */
	assert_true(fabs(val[0] - 6) < 1e-9);
	assert_true(fabs(val[1] - 3) < 1e-9);
	assert_true(fabs(val[2] - 1) < 1e-9);
	for (i = 0; i < 3; i++) {
		double norm = 0;

		for (r = 0; r < 3; r++) {
			double av = a[r * 3] * vec[i * 3] + a[r * 3 + 1] * vec[i * 3 + 1] +
				    a[r * 3 + 2] * vec[i * 3 + 2];

			assert_true(fabs(av - val[i] * vec[i * 3 + r]) < 1e-9);
			norm += vec[i * 3 + r] * vec[i * 3 + r];
		}
		assert_true(fabs(norm - 1) < 1e-9);
	}
}

/* Already diagonal, out of order: sorted, and the vectors are the unit axes. */
static void test_eigen_diagonal(void **state)
{
	static const double a[4] = { 1, 0, 0, 5 };
	double val[2], vec[4];

	(void)state;
	assert_int_equal(pt_sym_eigen(a, 2, val, vec), 0);
	assert_true(val[0] == 5 && val[1] == 1);
	assert_true(fabs(fabs(vec[1]) - 1) < 1e-12 && fabs(vec[0]) < 1e-12);
}

static void test_solve(void **state)
{
	/* a zero first pivot: partial pivoting must swap rows */
	double a[9] = { 0, 2, 1, 1, 1, 1, 2, 1, 3 }, b[3] = { 5, 5, 12 };
	double s[4] = { 1, 2, 2, 4 }, c[2] = { 1, 2 };

	(void)state;
	assert_int_equal(pt_solve(a, b, 3), 0);
	assert_true(fabs(b[0] - 1) < 1e-12 && fabs(b[1] - 1) < 1e-12 && fabs(b[2] - 3) < 1e-12);
	assert_int_equal(pt_solve(s, c, 2), -1); /* singular */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eigen_known),
		cmocka_unit_test(test_eigen_diagonal),
		cmocka_unit_test(test_solve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
