// SPDX-License-Identifier: GPL-2.0-only
/*
 * The points' statistic (analysis/calibpoints.c: pt_calib_stat_of) and the
 * noise it leaves (analysis/walkcalib_noise.c). Repetitions that agree
 * leave no noise. Two repetitions 100 and 300 leave exactly
 * sqrt(1/8) with the median: a resample is (100, 100), (300, 300) or the
 * pair, each relative to 200. Repetitions in two states (four at 50,
 * three at 150) flip the median between the states, where the
 * geometric mean moves by a fraction of that. Check points are counted
 * apart from fitted ones.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "model/walk_pattern.h"

#define NPT 3
#define MAXR 7

struct fixture {
	struct pt_calib_point p[NPT];
	double y[NPT], reps[NPT][MAXR];
	const double *rp[NPT];
	size_t nreps[NPT];
	struct pt_walkcalib c;
};

/* Point i's repetitions v (n of them), its measured value their stat. */
static void point(struct fixture *x, size_t i, const double *v, size_t n, bool check)
{
	double tmp[MAXR];

	x->p[i].pattern = check ? PT_PAT_CHASE_HALF : PT_PAT_CHASE;
	x->p[i].ws = 64ull << 20;
	memcpy(x->reps[i], v, n * sizeof(*v));
	memcpy(tmp, v, n * sizeof(*v));
	x->rp[i] = x->reps[i];
	x->nreps[i] = n;
	x->y[i] = n ? pt_calib_stat_of(x->c.stat, tmp, n) : 0;
}

static void setup(struct fixture *x, enum pt_calib_stat s)
{
	memset(x, 0, sizeof(*x));
	x->c.p = x->p;
	x->c.n = NPT;
	x->c.y = x->y;
	x->c.reps = x->rp;
	x->c.nreps = x->nreps;
	x->c.stat = s;
}

static void test_stat_of(void **state)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, g[] = { 1, 4, 16 };

	(void)state;
	assert_float_equal(pt_calib_stat_of(PT_CALIB_MEDIAN, odd, 3), 2, 0);
	assert_float_equal(pt_calib_stat_of(PT_CALIB_MEDIAN, even, 4), 2.5, 0);
	assert_float_equal(pt_calib_stat_of(PT_CALIB_GMEAN, g, 3), 4, 1e-12);
	assert_string_equal(pt_calib_stat_name(PT_CALIB_GMEAN), "gmean");
	assert_string_equal(pt_calib_stat_name(PT_CALIB_MEDIAN), "median");
}

static void test_agreeing_reps_leave_none(void **state)
{
	static const double v[] = { 80, 80, 80, 80 };
	struct fixture x;
	size_t n;

	(void)state;
	setup(&x, PT_CALIB_MEDIAN);
	point(&x, 0, v, 4, false);
	point(&x, 1, v, 4, false);
	point(&x, 2, v, 1, false); /* one repetition: nothing to resample */
	assert_float_equal(pt_walkcalib_noise(&x.c, false, &n), 0, 0);
	assert_int_equal(n, 2);
	/* no check point: no figure */
	assert_true(isnan(pt_walkcalib_noise(&x.c, true, &n)));
	assert_int_equal(n, 0);
}

static void test_two_reps_median(void **state)
{
	static const double v[] = { 100, 300 };
	struct fixture x;
	size_t n;

	(void)state;
	setup(&x, PT_CALIB_MEDIAN);
	point(&x, 0, v, 2, false);
	point(&x, 1, v, 0, false);
	point(&x, 2, v, 0, false);
	/* 400 resamples: the estimate's own error is about 0.01 */
	assert_float_equal(pt_walkcalib_noise(&x.c, false, &n), sqrt(0.125), 0.03);
	assert_int_equal(n, 1);
}

static void test_two_states(void **state)
{
	static const double v[] = { 50, 150, 50, 150, 50, 150, 50 };
	double med, gm;
	struct fixture x;
	size_t n;

	(void)state;
	setup(&x, PT_CALIB_MEDIAN);
	point(&x, 0, v, 7, false);
	point(&x, 1, v, 7, true);
	med = pt_walkcalib_noise(&x.c, false, &n);
	assert_int_equal(n, 1);
	/* the check point alone, the same repetitions: the same figure */
	assert_float_equal(pt_walkcalib_noise(&x.c, true, &n), med, 0.15);
	setup(&x, PT_CALIB_GMEAN);
	point(&x, 0, v, 7, false);
	gm = pt_walkcalib_noise(&x.c, false, &n);
	/* about 1.18 against 0.21 (10^5 resamples) */
	assert_true(med > 0.9 && med < 1.45);
	assert_true(gm > 0.15 && gm < 0.28);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_of),
		cmocka_unit_test(test_agreeing_reps_leave_none),
		cmocka_unit_test(test_two_reps_median),
		cmocka_unit_test(test_two_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
