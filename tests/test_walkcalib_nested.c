// SPDX-License-Identifier: GPL-2.0-only
/*
 * The nested held-out error (analysis/walkcalib_nested.c): each working
 * set's cases are predicted by the configuration chosen without them, so
 * a configuration that wins only on the cases it is judged on does not
 * lower the figure, and one that wins everywhere leaves it equal to its own.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/walkcalib.h"

#define NWS 3
#define NPT (2 * NWS) /* per working set: a 4K chase (ws held out) and a THP one (huge too) */
#define NCFG 2

struct fixture {
	struct pt_calib_point p[NPT];
	double y[NPT];
	double huge[NCFG][NPT], lowo[NCFG][NPT];
	struct pt_walk_cfg cfg[NCFG]; /* configuration k: an LLC of 8 >> k MiB */
	struct pt_walkcalib c;
};

/*
 * rel[k][w]: configuration k's relative error on working set w's cases,
 * both held-out predictions (the THP case's huge one, every case's ws one).
 */
static void setup(struct fixture *x, const double rel[NCFG][NWS], size_t split)
{
	size_t i, k, h;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < NPT; i++) {
		x->p[i].ws = 1048576ull << (i / 2);
		x->y[i] = 10 + (double)i;
		for (k = 0; k < NCFG; k++) {
			double pred = x->y[i] * (1 + rel[k][i / 2]);

			x->lowo[k][i] = pred;
			x->huge[k][i] = i % 2 ? pred : NAN;
		}
	}
	x->c.p = x->p;
	x->c.n = NPT;
	x->c.y = x->y;
	/* the configurations in one hypothesis or split over two: the choice spans them all */
	x->c.nh = split ? 2 : 1;
	for (k = 0; k < NCFG; k++) {
		x->cfg[k].cache[2].size_bytes = 8ull << 20 >> k;
		x->cfg[k].s2.format = -1;
	}
	for (h = 0; h < x->c.nh; h++) {
		size_t from = split && h ? split : 0, to = split && !h ? split : NCFG;

		snprintf(x->c.h[h].name, sizeof(x->c.h[h].name), "h%zu", h);
		x->c.h[h].ncv = to - from;
		x->c.h[h].cv_huge = &x->huge[from][0];
		x->c.h[h].cv_ws = &x->lowo[from][0];
		x->c.h[h].cv_cfg = &x->cfg[from];
	}
	/* configuration 0, the best over every case in both tests, is the chosen one */
	x->c.best = 0;
	x->c.h[0].cfg = x->cfg[0];
}

static double rms(const double *e, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += e[i] * e[i];
	return sqrt(s / (double)n);
}

/*
 * With the configurations in one hypothesis or split over two, the nested
 * errors are those of the per-case relative errors want_ws (every case)
 * and want_huge (the THP cases); want_other: how the one working set that
 * chose another configuration (4M) lists it, after its hypothesis' name,
 * or NULL for none.
 */
static void check(const double rel[NCFG][NWS], const double want_ws[NPT],
		  const double want_huge[NWS], const char *want_other)
{
	struct fixture x;
	size_t split;

	for (split = 0; split < 2; split++) {
		setup(&x, rel, split);
		pt_walkcalib_nested(&x.c);
		assert_int_equal(x.c.nested_other, want_other ? 1 : 0);
		if (want_other) {
			char want[96];

			/* configuration 1 is hypothesis 1's when split, else hypothesis 0's */
			snprintf(want, sizeof(want), "4M=h%zu%s", split, want_other);
			assert_string_equal(x.c.nested_choice[0], want);
		}
		assert_float_equal(x.c.nested_ws, rms(want_ws, NPT), 1e-12);
		assert_float_equal(x.c.nested_huge, rms(want_huge, NWS), 1e-12);
		assert_float_equal(x.c.nested_worse, fmax(rms(want_ws, NPT), rms(want_huge, NWS)),
				   1e-12);
	}
}

/* One configuration best everywhere: the nested figure is its own error. */
static void test_best_everywhere(void **state)
{
	static const double rel[NCFG][NWS] = { { 0.10, 0.05, 0.20 }, { 0.30, 0.40, 0.25 } };
	static const double ws[NPT] = { 0.10, 0.10, 0.05, 0.05, 0.20, 0.20 },
			    huge[NWS] = { 0.10, 0.05, 0.20 };

	(void)state;
	check(rel, ws, huge, NULL);
}

/*
 * Configuration 0 is best over all cases only because of working set 2,
 * which it alone predicts well; without working set 2 configuration 1
 * wins, so working set 2 is predicted by configuration 1, badly. Without
 * working set 0 or 1, configuration 0 (0.12 and 0 over the rest) beats
 * configuration 1 (0.10 and 0.50).
 */
static void test_win_on_one_set_only(void **state)
{
	static const double rel[NCFG][NWS] = { { 0.12, 0.12, 0.00 }, { 0.10, 0.10, 0.50 } };
	static const double ws[NPT] = { 0.12, 0.12, 0.12, 0.12, 0.50, 0.50 },
			    huge[NWS] = { 0.12, 0.12, 0.50 };

	(void)state;
	check(rel, ws, huge, " llc=4M tlb=0/0");
}

/* Nothing judged: no figure, not a zero. */
static void test_nothing_judged(void **state)
{
	static const double rel[NCFG][NWS] = { { 0, 0, 0 }, { 0, 0, 0 } };
	struct fixture x;

	(void)state;
	setup(&x, rel, 0);
	x.c.h[0].ncv = 0;
	pt_walkcalib_nested(&x.c);
	assert_true(isnan(x.c.nested_worse));
	assert_true(isnan(x.c.nested_ws));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_best_everywhere),
		cmocka_unit_test(test_win_on_one_set_only),
		cmocka_unit_test(test_nothing_judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
