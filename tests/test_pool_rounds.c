// SPDX-License-Identifier: GPL-2.0-only
/* The round effect (analysis/pool_rounds.c) on runs built to show what it must do. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/pool_rounds.h"

#define NR 5 /* rounds */
#define NS 5 /* series per run: a, three workload mates, one other workload */

/* The same fraction cut from each end. */
static struct pt_trim sym(double t)
{
	return (struct pt_trim){ t, t };
}

static const int rounds[NR] = { 0, 1, 2, 3, 4 };
/* a's own noise: its median over the rounds is 0.01 */
static const double noise[NR] = { 0.05, -0.05, 0.02, -0.03, 0.01 };
/* two runs' drift, the same median (0) in a different order */
static const double drift[2][NR] = { { 0, 0, 0, 0.4, 0.4 }, { 0.4, 0.4, 0, 0, 0 } };

struct run {
	double vals[NS][NR];
	struct pt_pool_point pts[NS];
};

/*
 * Run r: series a (value 100 times its noise, times slow in every round),
 * three mates in a's workload and one series of another workload, all
 * moved by the run's drift in each round.
 */
static void make_run(struct run *x, unsigned r, double slow)
{
	static const char *const cs[NS] = { "a", "m1", "m2", "m3", "other" };
	static const double base[NS] = { 100, 10, 20, 30, 40 };
	size_t s, k;

	for (s = 0; s < NS; s++) {
		for (k = 0; k < NR; k++)
			x->vals[s][k] =
				base[s] * exp(drift[r][k] + (s ? 0 : noise[k])) * (s ? 1 : slow);
		x->pts[s] = (struct pt_pool_point){ .workload = s < 4 ? "w" : "v",
						    .cs = cs[s],
						    .params = "",
						    .metric = "ns_per_op",
						    .unit = "ns",
						    .better = PT_LOWER,
						    .stat = -1, /* only the adjustment sets it */
						    .run = r,
						    .vals = x->vals[s],
						    .reps = rounds,
						    .nvals = NR,
						    .interleaved = true };
	}
}

/* Run 0 without a slowdown, run 1 with drift d and its series a slowed by slow; both in pts. */
static void two_runs(struct run x[2], struct pt_pool_point pts[2 * NS], unsigned d, double slow)
{
	size_t s;

	make_run(&x[0], 0, 1);
	make_run(&x[1], d, slow);
	for (s = 0; s < NS; s++) {
		x[1].pts[s].run = 1;
		pts[s] = x[0].pts[s];
		pts[NS + s] = x[1].pts[s];
	}
}

static const bool all_ref[2 * NS] = { true, true, true, true, true, true, true, true, true, true };

/* Drift in a different order of rounds leaves a's statistic where its own noise puts it. */
static void test_drift_removed(void **state)
{
	struct run x[2];
	struct pt_pool_point pts[2 * NS];
	size_t adjusted;

	(void)state;
	two_runs(x, pts, 1, 1);
	assert_int_equal(pt_pool_round_adjust(pts, 2 * NS, all_ref, sym(0.5), &adjusted), 0);
	assert_int_equal(adjusted, 2);
	/* the plain medians would be 100 e^0.05 and 100 e^0.02 */
	assert_true(fabs(pts[0].stat - 100 * exp(0.01)) < 1e-9);
	assert_true(fabs(pts[NS].stat - 100 * exp(0.01)) < 1e-9);
	/* the mates moved only with the drift: their drift-free values */
	assert_true(fabs(pts[1].stat - 10) < 1e-9 && fabs(pts[NS + 3].stat - 30) < 1e-9);
	/* no mates in its workload: its effect is the median over all the others, the drift */
	assert_true(fabs(pts[4].stat - 40) < 1e-9);
}

/* A series slowed in every round is slowed by exactly that much after the adjustment. */
static void test_regression_kept(void **state)
{
	struct run x[2];
	struct pt_pool_point pts[2 * NS];
	size_t adjusted, s;

	(void)state;
	two_runs(x, pts, 0, 1.1);
	assert_int_equal(pt_pool_round_adjust(pts, 2 * NS, all_ref, sym(0.5), &adjusted), 0);
	assert_true(fabs(pts[NS].stat / pts[0].stat - 1.1) < 1e-9);
	for (s = 1; s < NS; s++)
		assert_true(fabs(pts[NS + s].stat - pts[s].stat) < 1e-9);
	/* idempotent: it reads the repetitions, never the medians it wrote */
	assert_int_equal(pt_pool_round_adjust(pts, 2 * NS, all_ref, sym(0.5), &adjusted), 0);
	assert_true(fabs(pts[NS].stat / pts[0].stat - 1.1) < 1e-9);
}

/* What is left alone: sequential runs, non-references, bad round numbers, too few others. */
static void test_left_alone(void **state)
{
	static const int bad[NR] = { 0, 1, -2, 3, 4 };
	static const bool refs_a_only[NS] = { true, false, false, false, false };
	struct run x;
	size_t adjusted, s;

	(void)state;
	make_run(&x, 0, 1);
	for (s = 0; s < NS; s++)
		x.pts[s].interleaved = false;
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, all_ref, sym(0.5), &adjusted), 0);
	assert_int_equal(adjusted, 0);
	assert_true(x.pts[0].stat == -1);

	make_run(&x, 0, 1);
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, refs_a_only, sym(0.5), &adjusted), 0);
	assert_int_equal(adjusted, 0);
	for (s = 0; s < NS; s++)
		assert_true(x.pts[s].stat == -1);

	make_run(&x, 0, 1);
	x.pts[2].reps = bad; /* a bad round number: that series keeps its plain median */
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, all_ref, sym(0.5), &adjusted), 0);
	assert_true(x.pts[2].stat == -1);

	/* round 4 measured by a alone among the references: too few others there */
	make_run(&x, 0, 1);
	for (s = 1; s < NS; s++)
		x.pts[s].nvals = NR - 1;
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, all_ref, sym(0.5), &adjusted), 0);
	assert_true(x.pts[0].stat == -1);
	assert_true(x.pts[1].stat > 0);
}

/* The run statistic: a trimmed mean of the logs, the median at 0.5 or on a value <= 0. */
static void test_run_stat(void **state)
{
	double v[] = { 8, 1, 4, 2, 1000 }, bad[] = { 8, 1, 0, 2, 1000 }, scratch[5];

	(void)state;
	/* 0.2 of 5 cuts one from each end: the geometric mean of 2, 4 and 8 */
	assert_float_equal(pt_pool_run_stat(v, 5, sym(0.2), scratch), 4, 1e-9);
	assert_float_equal(pt_pool_run_stat(v, 5, sym(0.5), scratch), 4, 0);
	assert_float_equal(pt_pool_run_stat(v, 5, sym(0), scratch), pow(8 * 4 * 2 * 1000, 0.2),
			   1e-9);
	assert_float_equal(pt_pool_run_stat(bad, 5, sym(0.2), scratch), 2, 0);
	/* cut from one end: the fastest two (0, 0.6), the fastest alone (0, 1) */
	assert_float_equal(pt_pool_run_stat(v, 5, (struct pt_trim){ 0, 0.6 }, scratch), sqrt(2),
			   1e-9);
	assert_float_equal(pt_pool_run_stat(v, 5, (struct pt_trim){ 0, 1 }, scratch), 1, 1e-9);
	assert_float_equal(pt_pool_run_stat(v, 5, (struct pt_trim){ 0.2, 0.4 }, scratch), sqrt(8),
			   1e-9);
	assert_float_equal(v[0], 8, 0); /* the values stay in their rounds */
}

/* A round-adjusted statistic is the same trimmed mean of the adjusted logs. */
static void test_run_stat_rounds(void **state)
{
	struct run x[2];
	struct pt_pool_point pts[2 * NS];
	size_t adjusted;
	/* a's noise 0.05 -0.05 0.02 -0.03 0.01, one cut from each end */
	double t = (0.02 - 0.03 + 0.01) / 3;

	(void)state;
	two_runs(x, pts, 1, 1);
	assert_int_equal(pt_pool_round_adjust(pts, 2 * NS, all_ref, sym(0.2), &adjusted), 0);
	assert_true(fabs(pts[0].stat - 100 * exp(t)) < 1e-9);
	assert_true(fabs(pts[NS].stat - 100 * exp(t)) < 1e-9);
}

/* The adjusted repetitions, where asked for: each value less its round's effect, in its round. */
static void test_adjusted_values(void **state)
{
	struct run x;
	double adj[NS][NR];
	size_t adjusted, s, k;

	(void)state;
	make_run(&x, 1, 1);
	for (s = 0; s < NS; s++) {
		adj[s][0] = NAN;
		x.pts[s].adjusted = adj[s];
	}
	x.pts[3].adjusted = NULL; /* not asked: nothing written for it */
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, all_ref, sym(0.5), &adjusted), 0);
	assert_int_equal(adjusted, 1);
	/* a: 100 times its own noise, the drift 0.4 0.4 0 0 0 gone */
	for (k = 0; k < NR; k++)
		assert_true(fabs(adj[0][k] - 100 * exp(noise[k])) < 1e-9);
	/* a mate: its drift-free value in every round */
	for (k = 0; k < NR; k++)
		assert_true(fabs(adj[1][k] - 10) < 1e-9);
	assert_true(x.vals[0][0] > 100 * exp(0.4)); /* the repetitions themselves unchanged */

	/* a sequential run: not adjusted, the buffer left as it was */
	make_run(&x, 1, 1);
	for (s = 0; s < NS; s++) {
		adj[s][0] = NAN;
		x.pts[s].adjusted = adj[s];
		x.pts[s].interleaved = false;
	}
	assert_int_equal(pt_pool_round_adjust(x.pts, NS, all_ref, sym(0.5), &adjusted), 0);
	assert_true(isnan(adj[0][0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drift_removed),	cmocka_unit_test(test_regression_kept),
		cmocka_unit_test(test_left_alone),	cmocka_unit_test(test_run_stat),
		cmocka_unit_test(test_run_stat_rounds), cmocka_unit_test(test_adjusted_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
