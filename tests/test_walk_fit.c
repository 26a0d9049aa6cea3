// SPDX-License-Identifier: GPL-2.0-only
/* The exact NNLS solver and the two-stage fit on problems with known answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/nnls.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"

/* Unconstrained optimum inside the orthant: NNLS returns it. */
static void test_nnls_interior(void **state)
{
	const double a[] = { 1, 0, 0, 1, 1, 1 }, b[] = { 2, 3, 5 };
	double x[2];

	(void)state;
	assert_int_equal(pt_nnls(a, b, 3, 2, x), 0);
	assert_true(fabs(x[0] - 2) < 1e-9 && fabs(x[1] - 3) < 1e-9);
}

/*
 * Unconstrained optimum has x1 < 0: the answer is on the face x1 = 0, with
 * x0 the one-variable least squares (checked against the closed form).
 */
static void test_nnls_active(void **state)
{
	const double a[] = { 1, 1, 1, 2, 1, 3 }, b[] = { 3, 2, 1 };
	double x[2];

	(void)state;
	assert_int_equal(pt_nnls(a, b, 3, 2, x), 0);
	assert_true(fabs(x[1]) < 1e-12);
	assert_true(fabs(x[0] - 2) < 1e-9); /* mean of b */
}

/* Features of made-up points: dense ones exercise the caches, chases add walks. */
static void synth(struct pt_calib_point *p, double f[][PT_LAT_N], double *y, size_t *n,
		  const double lat[PT_LAT_N])
{
	static const double loc[6][4] = { { 1, 0, 0, 0 },     { 0.2, 0.8, 0, 0 },
					  { 0, 0.3, 0.7, 0 }, { 0, 0, 0.4, 0.6 },
					  { 0, 0, 0.1, 0.9 }, { 0, 0, 0, 1 } };
	size_t i, k;

	*n = 0;
	for (i = 0; i < 6; i++)
		for (k = 0; k < 2; k++) {
			struct pt_calib_point *q = &p[*n];
			double *g = f[*n];
			unsigned j;

			memset(q, 0, sizeof(*q));
			memset(g, 0, sizeof(double) * PT_LAT_N);
			q->ws = 16384ull << (2 * i);
			q->pattern = k ? PT_PAT_CHASE : PT_PAT_DENSE;
			q->block_h = !k; /* the dense control sits in huge pages */
			for (j = 0; j < 4; j++)
				g[j] = loc[i][j] * (k ? 1 + 0.5 * (double)i : 1);
			if (k) {
				g[PT_LAT_L2TLB] = i >= 1;
				g[PT_LAT_WALK] = 0.2 * (double)i;
				g[PT_LAT_WALK2] = 0.1 * (double)i * (double)i;
			}
			y[(*n)++] = pt_walk_cost(g, lat);
		}
}

static void test_fit2_recovers(void **state)
{
	const double truth[PT_LAT_N] = { 1.1, 4, 15, 120, 0, 2, 0, 10, 6 };
	struct pt_calib_point p[12];
	double f[12][PT_LAT_N], y[12], lat[PT_LAT_N] = { 0 };
	bool use[12];
	size_t n, i;
	unsigned j;

	(void)state;
	synth(p, f, y, &n, truth);
	for (i = 0; i < n; i++)
		use[i] = true;
	struct pt_fit_set s = { n, p, (const double(*)[PT_LAT_N])f, y, NULL };

	assert_int_equal(pt_fit2(&s, use, lat), 0);
	for (j = 0; j < PT_LAT_N; j++)
		assert_true(fabs(lat[j] - truth[j]) < 1e-6 * (1 + truth[j]));
	assert_true(pt_fit_rms(&s, use, lat) < 1e-9);
	assert_true(pt_fit_heldout_ws(&s, lat) < 1e-6);
}

/* A memory term that two points barely use cannot run off to microseconds. */
static void test_fit2_mem_bounded(void **state)
{
	struct pt_calib_point p[2] = { { .pattern = PT_PAT_CHASE, .ws = 1 << 20 },
				       { .pattern = PT_PAT_CHASE, .ws = 1 << 30 } };
	double f[2][PT_LAT_N] = { { 0 } }, y[2] = { 1, 100 }, lat[PT_LAT_N] = { 0 };
	bool use[2] = { true, true };

	(void)state;
	f[0][PT_LAT_L1] = 1;
	f[1][PT_LAT_L1] = 0.99;
	f[1][PT_LAT_MEM] = 0.01; /* 100 ns would need a 10 us memory */
	struct pt_fit_set s = { 2, p, (const double(*)[PT_LAT_N])f, y, NULL };

	assert_int_equal(pt_fit2(&s, use, lat), 0);
	assert_true(lat[PT_LAT_MEM] <= PT_FIT_MEM_MAX_NS);
	assert_true(lat[PT_LAT_L1] <= lat[PT_LAT_MEM]);
	/* and says so: the bound is not a measured latency */
	assert_true(pt_fit_at_bound(PT_LAT_MEM, lat));
	assert_false(pt_fit_at_bound(PT_LAT_L1, lat));
	/* a memory the points can pay for is fitted inside it, and is not at it */
	y[1] = 0.99 * y[0] + 0.01 * 200;
	memset(lat, 0, sizeof(lat));
	assert_int_equal(pt_fit2(&s, use, lat), 0);
	assert_true(fabs(lat[PT_LAT_MEM] - 200) < 1e-6);
	assert_false(pt_fit_at_bound(PT_LAT_MEM, lat));
}

/*
 * A walk term the chases barely exercise keeps its configured latency: a
 * nested TLB that hides nearly every host walk leaves lat.walk2 nothing to
 * be measured from, and fitted it would mend one point's residual with
 * milliseconds that every D128 prediction using it would carry.
 */
static void test_fit2_walk_unexercised(void **state)
{
	const double truth[PT_LAT_N] = { 1.1, 4, 15, 120, 0, 2, 0, 10, 6 };
	struct pt_calib_point p[12];
	double f[12][PT_LAT_N], y[12], lat[PT_LAT_N] = { 0 };
	bool use[12];
	size_t n, i;

	(void)state;
	synth(p, f, y, &n, truth);
	for (i = 0; i < n; i++) {
		use[i] = true;
		f[i][PT_LAT_WALK2] = 0;
	}
	f[n - 1][PT_LAT_WALK2] = 1e-5; /* one host walk in 100000 accesses */
	for (i = 0; i < n; i++)
		y[i] = pt_walk_cost(f[i], truth);
	y[n - 1] += 20; /* a residual the other terms do not explain */
	lat[PT_LAT_WALK2] = 1.5; /* the configured latency */
	struct pt_fit_set s = { n, p, (const double(*)[PT_LAT_N])f, y, NULL };

	assert_int_equal(pt_fit2(&s, use, lat), 0);
	assert_true(lat[PT_LAT_WALK2] == 1.5);
	assert_true(lat[PT_LAT_WALK] < 100);
	/* and calibrate can say so */
	assert_true(pt_fit_term_held(&s, use, PT_LAT_WALK2));
	assert_false(pt_fit_term_held(&s, use, PT_LAT_WALK));
	assert_false(pt_fit_term_held(&s, use, PT_LAT_L1)); /* a cache term is never held */
	/* exercised, the same term is fitted */
	f[n - 1][PT_LAT_WALK2] = 0.5;
	y[n - 1] = pt_walk_cost(f[n - 1], truth);
	assert_int_equal(pt_fit2(&s, use, lat), 0);
	assert_true(fabs(lat[PT_LAT_WALK2] - truth[PT_LAT_WALK2]) < 1e-6);
	assert_false(pt_fit_term_held(&s, use, PT_LAT_WALK2));
}

/* Roles come from the pattern and leaf size, never from a name. */
static void test_roles(void **state)
{
	struct pt_calib_point p = { .pattern = PT_PAT_DENSE, .block_h = 1 };

	(void)state;
	assert_int_equal(pt_fit_role_of(&p), PT_FIT_DENSE);
	p.pattern = PT_PAT_CHASE;
	assert_int_equal(pt_fit_role_of(&p), PT_FIT_HUGE);
	p.block_h = 0;
	assert_int_equal(pt_fit_role_of(&p), PT_FIT_BASE);
	p.pattern = PT_PAT_CHASE_HALF;
	assert_int_equal(pt_fit_role_of(&p), PT_FIT_CHECK);
	/* every fourth page: fitted with the base-page chases */
	p.pattern = PT_PAT_CHASE_QUARTER;
	assert_int_equal(pt_fit_role_of(&p), PT_FIT_BASE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nnls_interior),
		cmocka_unit_test(test_nnls_active),
		cmocka_unit_test(test_fit2_recovers),
		cmocka_unit_test(test_fit2_mem_bounded),
		cmocka_unit_test(test_fit2_walk_unexercised),
		cmocka_unit_test(test_roles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
