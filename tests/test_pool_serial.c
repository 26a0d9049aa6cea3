// SPDX-License-Identifier: GPL-2.0-only
/*
 * The correlation between runs made back to back (analysis/pool_serial.h)
 * and what it does to the pool test: runs whose noise follows an AR(1)
 * process, judged with the correlation estimated and without.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/pool.h"
#include "analysis/pool_serial.h"

#define NPOOL 30
#define NNEW 3
#define NRUN (NPOOL + NNEW)
#define NS 6
#define RUN_S 70.0 /* each run's length; the next starts 5 s after */

static const char *const cs[NS] = { "a", "b", "c", "d", "e", "f" };
static struct pt_pool_point pts[NRUN * NS];
static double t_start[NRUN], t_end[NRUN];

/* Deterministic noise, about standard normal. */
static double gauss(uint64_t *x)
{
	double s = 0;
	int i;

	for (i = 0; i < 12; i++) {
		*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
		s += (double)(*x >> 11) / 9007199254740992.0;
	}
	return s - 6;
}

/* Runs back to back (gap_s apart), each series ln = its level + AR(1) noise (phi, sd 0.05). */
static void build(uint64_t *x, double phi, double gap_s)
{
	double e[NS];
	size_t r, s;

	for (s = 0; s < NS; s++)
		e[s] = 0.05 * gauss(x);
	for (r = 0; r < NRUN; r++) {
		t_start[r] = 1e9 + (double)r * (RUN_S + gap_s);
		t_end[r] = t_start[r] + RUN_S;
		for (s = 0; s < NS; s++) {
			if (r)
				e[s] = phi * e[s] + sqrt(1 - phi * phi) * 0.05 * gauss(x);
			pts[r * NS + s] = (struct pt_pool_point){
				.workload = "w",
				.cs = cs[s],
				.params = "",
				.metric = "ns_per_op",
				.unit = "ns",
				.better = PT_LOWER,
				.stat = exp(log(100.0 * (double)(s + 1)) + e[s]),
				.is_new = r >= NPOOL,
				.run = (unsigned)r
			};
		}
	}
}

static void judge(enum pt_pool_serial_mode mode, bool times, bool run_effect,
		  struct pt_pool_result *r)
{
	static struct pt_pool_point copy[NRUN * NS];
	struct pt_pool_opts o = { .alpha = 0.05,
				  .threshold_pct = 0,
				  .min_pool = 5,
				  .run_effect = run_effect,
				  .trim = { 0.5, 0.5 },
				  .serial = mode,
				  .run_start = times ? t_start : NULL,
				  .run_end = times ? t_end : NULL,
				  .nrun_times = times ? NRUN : 0 };

	memcpy(copy, pts, sizeof(pts));
	assert_int_equal(pt_pool_compare(copy, NRUN * NS, NPOOL, NNEW, &o, r), 0);
}

/* In time order; a gap over PT_POOL_SERIAL_GAP_S or a run without times breaks the chain. */
static void test_chain(void **state)
{
	const double start[] = { 0, 75, 2000, NAN }, end[] = { 70, 145, 2070, NAN };
	const unsigned runs[] = { 3, 2, 0, 1 };
	struct pt_pool_chain c;

	(void)state;
	assert_int_equal(pt_pool_chain_make(start, end, 4, runs, 4, &c), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.run[0], 0);
	assert_int_equal(c.run[1], 1);
	assert_int_equal(c.run[2], 2);
	assert_int_equal(c.run[3], 3);
	assert_false(c.b2b[0]);
	assert_true(c.b2b[1]);
	assert_false(c.b2b[2]); /* 1855 s after the one before */
	assert_false(c.b2b[3]); /* no time */
	pt_pool_chain_free(&c);
	/* no times at all: nothing is back to back */
	assert_int_equal(pt_pool_chain_make(NULL, NULL, 0, runs, 4, &c), 0);
	assert_false(c.b2b[1] || c.b2b[2] || c.b2b[3]);
	pt_pool_chain_free(&c);
}

/* The sum of the correlations along a chain: lag 1 twice, lag 2 once, each counted both ways. */
static void test_sum(void **state)
{
	const double start[] = { 0, 75, 150 }, end[] = { 70, 145, 220 };
	const double broken[] = { 0, 75, 5000 }, broken_end[] = { 70, 145, 5070 };
	const unsigned runs[] = { 0, 1, 2 };
	struct pt_pool_serial s;
	struct pt_pool_chain c;

	(void)state;
	pt_pool_serial_set(&s, PT_POOL_SERIAL_FIXED, 0.5);
	assert_true(s.rho[1] == 0.5 && s.rho[2] == 0.25);
	assert_int_equal(pt_pool_chain_make(start, end, 3, runs, 3, &c), 0);
	assert_true(fabs(pt_pool_serial_sum(&s, &c) - (3 + 2 * (0.5 + 0.5) + 2 * 0.25)) < 1e-12);
	pt_pool_chain_free(&c);
	assert_int_equal(pt_pool_chain_make(broken, broken_end, 3, runs, 3, &c), 0);
	assert_true(fabs(pt_pool_serial_sum(&s, &c) - (3 + 2 * 0.5)) < 1e-12);
	pt_pool_chain_free(&c);
	pt_pool_serial_set(&s, PT_POOL_SERIAL_OFF, 0.5);
	assert_int_equal(pt_pool_chain_make(start, end, 3, runs, 3, &c), 0);
	assert_true(pt_pool_serial_sum(&s, &c) == 3);
	pt_pool_chain_free(&c);
}

/* Estimated over the pool: near phi and phi^2 for AR(1) runs back to back, 0 otherwise. */
static void test_estimate(void **state)
{
	struct pt_pool_result r;
	uint64_t x = 7;
	double rho1 = 0, rho2 = 0;
	int i;

	(void)state;
	/* the mean over 20 pools: one pool of 30 runs and 6 series is a noisy estimate */
	for (i = 0; i < 20; i++) {
		build(&x, 0.5, 5);
		judge(PT_POOL_SERIAL_AUTO, true, false, &r);
		assert_int_equal(r.serial.series, NS);
		assert_int_equal(r.serial.pairs[1], NS * (NPOOL - 1));
		assert_int_equal(r.serial.run_pairs, NPOOL - 1);
		rho1 += r.serial.rho[1] / 20;
		rho2 += r.serial.rho[2] / 20;
		pt_pool_result_free(&r);
	}
	/* the estimator from k runs is biased low by about 1/k */
	assert_true(rho1 > 0.35 && rho1 < 0.55);
	assert_true(rho2 > 0.12 && rho2 < 0.35);
	/* independent runs: near 0 */
	build(&x, 0, 5);
	judge(PT_POOL_SERIAL_AUTO, true, false, &r);
	assert_true(r.serial.rho[1] < 0.15);
	pt_pool_result_free(&r);
	/* correlated, but an hour apart: nothing is estimated, the runs count as independent */
	build(&x, 0.5, 3600);
	judge(PT_POOL_SERIAL_AUTO, true, false, &r);
	assert_int_equal(r.serial.pairs[1], 0);
	assert_int_equal(r.serial.run_pairs, 0);
	assert_true(r.serial.rho[1] == 0);
	assert_true(r.new_effective == NNEW);
	pt_pool_result_free(&r);
}

/* Without the runs' times, auto is off: the same standard errors. */
static void test_no_times(void **state)
{
	struct pt_pool_result a, b;
	uint64_t x = 11;
	size_t i;

	(void)state;
	build(&x, 0.5, 5);
	judge(PT_POOL_SERIAL_AUTO, false, false, &a);
	judge(PT_POOL_SERIAL_OFF, true, false, &b);
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++)
		assert_true(a.rows[i].se == b.rows[i].se);
	pt_pool_result_free(&a);
	pt_pool_result_free(&b);
}

/*
 * Identical AR(1) runs (phi 0.5), 3 NEW runs made right after the pool, each
 * series tested at one-sided 0.05, 300 pools: taken as independent, the test
 * fires on far more than 5%; with the correlation estimated, near 5%. With
 * the run effect, the residuals' test widens too.
 */
static void test_aa_rate(void **state)
{
	size_t fired[2] = { 0 }, trials = 0, i;
	uint64_t x = 3;
	struct pt_pool_result r;
	int t, m;

	(void)state;
	for (t = 0; t < 300; t++) {
		build(&x, 0.5, 5);
		for (m = 0; m < 2; m++) {
			judge(m ? PT_POOL_SERIAL_AUTO : PT_POOL_SERIAL_OFF, true, false, &r);
			for (i = 0; i < r.n; i++)
				/* p is one-sided in the direction of the change: the worse one */
				fired[m] += r.rows[i].tested && r.rows[i].p < 0.05 &&
					    r.rows[i].t > 0;
			trials += !m * r.n;
			pt_pool_result_free(&r);
		}
	}
	print_message("fired: independent %zu, estimated %zu of %zu\n", fired[0], fired[1], trials);
	assert_int_equal(trials, 300 * NS);
	assert_true((double)fired[0] / (double)trials > 0.09);
	assert_true((double)fired[1] / (double)trials < 0.075);
	/* the regression on a run effect: its standard error widens alike */
	build(&x, 0.5, 5);
	{
		struct pt_pool_result a, b;

		judge(PT_POOL_SERIAL_OFF, true, true, &a);
		judge(PT_POOL_SERIAL_AUTO, true, true, &b);
		assert_true(b.serial.rho[1] > 0);
		assert_int_equal(a.n, b.n);
		for (i = 0; i < a.n; i++)
			if (a.rows[i].tested)
				assert_true(b.rows[i].se > a.rows[i].se);
		pt_pool_result_free(&a);
		pt_pool_result_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),	 cmocka_unit_test(test_sum),
		cmocka_unit_test(test_estimate), cmocka_unit_test(test_no_times),
		cmocka_unit_test(test_aa_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
