// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fit's floor (analysis/walkcalib_floor.c): cases simulated alike get
 * one prediction whatever the latencies, so the floor is what the best
 * single value per group leaves; cases simulated apart leave nothing, and
 * checks (the half-density chase) never count.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/walkcalib.h"
#include "model/walk_pattern.h"

#define NPT 5

struct fixture {
	struct pt_calib_point p[NPT];
	double y[NPT], fitted[NPT];
	double f[NPT][PT_LAT_N];
	struct pt_walkcalib c;
};

/*
 * Points 0-2: a 4K, a THP and a hugetlb chase of one working set, simulated
 * alike (a shadow with 4K leaves); point 3 a dense case; point 4 the
 * half-density check, simulated like points 0-2 but never fitted.
 */
static void setup(struct fixture *x, const double y[NPT])
{
	size_t i;
	unsigned j;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < NPT; i++) {
		x->p[i].pattern = i == 3 ? PT_PAT_DENSE : i == 4 ? PT_PAT_CHASE_HALF : PT_PAT_CHASE;
		x->p[i].block_h = i == 1 || i == 2;
		x->p[i].ws = 64ull << 20;
		x->y[i] = y[i];
		x->fitted[i] = 100; /* any prediction: the floor does not read it */
		for (j = 0; j < PT_LAT_N; j++)
			x->f[i][j] = i == 3 ? 0.5 * j : 1.0 + j;
	}
	x->c.p = x->p;
	x->c.n = NPT;
	x->c.y = x->y;
	x->c.nh = 1;
	x->c.h[0].f = x->f;
	x->c.h[0].fitted = x->fitted;
}

/* Three alike measured 100, 200 and 100: for relative error the best single value is 1000/9. */
static void test_alike_cases_disagree(void **state)
{
	static const double y[NPT] = { 100, 200, 100, 50, 400 };
	double p = (2 / 100.0 + 1 / 200.0) / (2 / 1e4 + 1 / 4e4), sq = 0, got;
	size_t groups, grouped;
	struct fixture x;

	(void)state;
	setup(&x, y);
	sq += 2 * pow((p - 100) / 100, 2) + pow((p - 200) / 200, 2);
	got = pt_walkcalib_fit_floor(&x.c, &groups, &grouped);
	assert_int_equal(groups, 1);
	assert_int_equal(grouped, 3);
	/* four fitted cases: the check (400, far from all) is left out */
	assert_float_equal(got, sqrt(sq / 4), 1e-12);
	assert_true(got > 0.1);
}

/* Alike cases measured alike leave no floor; a case simulated apart never does. */
static void test_agreement_leaves_none(void **state)
{
	static const double y[NPT] = { 120, 120, 120, 7, 999 };
	size_t groups, grouped;
	struct fixture x;

	(void)state;
	setup(&x, y);
	assert_float_equal(pt_walkcalib_fit_floor(&x.c, &groups, &grouped), 0, 1e-15);
	assert_int_equal(groups, 1);
	/* the THP chase simulated differently: a group of two, the other alone */
	x.f[1][0] += 0.25;
	x.y[1] = 1000;
	assert_float_equal(pt_walkcalib_fit_floor(&x.c, &groups, &grouped), 0, 1e-15);
	assert_int_equal(grouped, 2);
	x.f[2][0] += 0.5;
	assert_float_equal(pt_walkcalib_fit_floor(&x.c, &groups, &grouped), 0, 1e-15);
	assert_int_equal(groups, 0);
	assert_int_equal(grouped, 0);
}

/* Nothing fitted (every case a check, or unpredicted): no figure, not a zero. */
static void test_nothing_fitted(void **state)
{
	static const double y[NPT] = { 100, 200, 100, 50, 400 };
	size_t groups, grouped, i;
	struct fixture x;

	(void)state;
	setup(&x, y);
	for (i = 0; i < NPT; i++)
		x.fitted[i] = NAN;
	assert_true(isnan(pt_walkcalib_fit_floor(&x.c, &groups, &grouped)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alike_cases_disagree),
		cmocka_unit_test(test_agreement_leaves_none),
		cmocka_unit_test(test_nothing_fitted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
