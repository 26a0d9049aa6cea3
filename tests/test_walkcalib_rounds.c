// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rounds fitted one by one (analysis/walkcalib_judge.c): when the host's
 * memory and walk latencies change from round to round, each round's own
 * fit reproduces its points and the medians of its predictions match the
 * measured medians, where one fit to the medians cannot.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "util/stats.h"

#define NPT 12
#define NR 5

/* Made-up points: dense ones exercise the caches, 4K chases add walks (as test_walk_fit). */
static void points(struct pt_calib_point *p, double f[][PT_LAT_N])
{
	static const double loc[6][4] = { { 1, 0, 0, 0 },     { 0.2, 0.8, 0, 0 },
					  { 0, 0.3, 0.7, 0 }, { 0, 0, 0.4, 0.6 },
					  { 0, 0, 0.1, 0.9 }, { 0, 0, 0, 1 } };
	size_t i, k, n = 0;
	unsigned j;

	for (i = 0; i < 6; i++)
		for (k = 0; k < 2; k++, n++) {
			memset(&p[n], 0, sizeof(p[n]));
			memset(f[n], 0, sizeof(double) * PT_LAT_N);
			p[n].ws = 16384ull << (2 * i);
			p[n].pattern = k ? PT_PAT_CHASE : PT_PAT_DENSE;
			p[n].block_h = !k;
			snprintf(p[n].cs, sizeof(p[n].cs), "p%zu", n);
			for (j = 0; j < 4; j++)
				f[n][j] = loc[i][j] * (k ? 1 + 0.5 * (double)i : 1);
			if (k) {
				f[n][PT_LAT_L2TLB] = i >= 1;
				f[n][PT_LAT_WALK] = 0.2 * (double)i;
				f[n][PT_LAT_WALK2] = 0.1 * (double)i * (double)i;
			}
		}
}

struct fixture {
	struct pt_calib_point p[NPT];
	double f[NPT][PT_LAT_N], y[NPT], w[NPT], yr[NR * NPT], wr[NR * NPT];
	double latr[NR][PT_LAT_N], fitted[NPT];
	int rep[NR];
	struct pt_walkcalib c;
	struct pt_walkcalib_hyp h;
};

/* Round r's host: memory and walks slow in some rounds, fast in others, not together. */
static void truth_of(size_t r, double lat[PT_LAT_N])
{
	static const double mem[NR] = { 60, 300, 80, 280, 150 };
	static const double walk[NR] = { 4, 20, 9, 18, 6 };
	const double base[PT_LAT_N] = { 1.1, 4, 15, 0, 0, 2, 0, 0, 6 };

	memcpy(lat, base, sizeof(base));
	lat[PT_LAT_MEM] = mem[r];
	lat[PT_LAT_WALK] = walk[r];
}

/* nr rounds (1: the medians alone), measured without noise. */
static void setup(struct fixture *x, size_t nr)
{
	double tmp[NR];
	size_t i, r;

	memset(x, 0, sizeof(*x));
	points(x->p, x->f);
	for (i = 0; i < NPT; i++) {
		for (r = 0; r < NR; r++) {
			double lat[PT_LAT_N];

			truth_of(r, lat);
			tmp[r] = pt_walk_cost(x->f[i], lat);
		}
		pt_sort_doubles(tmp, NR);
		x->y[i] = tmp[NR / 2];
		x->w[i] = 1 / x->y[i];
		for (r = 0; r < nr; r++) {
			double lat[PT_LAT_N];

			truth_of(r, lat);
			x->yr[r * NPT + i] = nr == 1 ? x->y[i] : pt_walk_cost(x->f[i], lat);
			x->wr[r * NPT + i] = 1 / x->yr[r * NPT + i];
		}
	}
	x->c.p = x->p;
	x->c.n = NPT;
	x->c.y = x->y;
	x->c.w = x->w;
	x->c.nr = nr;
	x->c.round_rep = x->rep;
	x->c.yr = x->yr;
	x->c.wr = x->wr;
	truth_of(0, x->c.base); /* the start point and the fixed terms */
	x->h.f = x->f;
	x->h.latr = x->latr;
	x->h.fitted = x->fitted;
	snprintf(x->h.name, sizeof(x->h.name), "test");
}

static void test_rounds_fit_each_state(void **state)
{
	struct fixture x;
	char err[256];
	size_t r;

	(void)state;
	setup(&x, NR);
	assert_int_equal(pt_walkcalib_judge(&x.c, &x.h, err, sizeof(err)), 0);
	assert_true(x.h.fit < 1e-6);
	assert_true(x.h.lowo < 1e-6);
	for (r = 0; r < NR; r++) {
		double lat[PT_LAT_N];

		truth_of(r, lat);
		assert_true(fabs(x.latr[r][PT_LAT_MEM] - lat[PT_LAT_MEM]) < 1e-6 * lat[PT_LAT_MEM]);
	}
	/* the reported latency is each term's median over the rounds */
	assert_true(fabs(x.h.lat[PT_LAT_MEM] - 150) < 1e-6);
}

static void test_medians_cannot(void **state)
{
	struct fixture x;
	char err[256];

	(void)state;
	setup(&x, 1);
	assert_int_equal(pt_walkcalib_judge(&x.c, &x.h, err, sizeof(err)), 0);
	assert_true(x.h.fit > 1e-3);
}

/* A point missing from a round is left out of that round's fit and of its medians. */
static void test_missing_point(void **state)
{
	struct fixture x;
	char err[256];

	(void)state;
	setup(&x, NR);
	x.yr[2 * NPT + 5] = NAN;
	x.wr[2 * NPT + 5] = 0;
	assert_int_equal(pt_walkcalib_judge(&x.c, &x.h, err, sizeof(err)), 0);
	assert_true(isfinite(x.fitted[5]));
	assert_true(x.h.fit < 0.1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds_fit_each_state),
		cmocka_unit_test(test_medians_cannot),
		cmocka_unit_test(test_missing_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
