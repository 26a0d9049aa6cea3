// SPDX-License-Identifier: GPL-2.0-only
/* The calibration recovers latencies from a curve the simulator itself produced. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "model/calib.h"

#define NPTS 24

static size_t make_points(struct pt_calib_point *p, const struct pt_walk_cfg *cfg)
{
	static const enum pt_calib_kind kinds[] = { PT_CAL_CHASE_4K, PT_CAL_CHASE_THP,
						    PT_CAL_DENSE };
	char err[256];
	size_t n = 0, k;
	uint64_t ws;

	for (k = 0; k < 3; k++) {
		for (ws = 16ull << 10; ws <= 64ull << 20; ws *= 16) {
			p[n].kind = kinds[k];
			p[n].ws = ws;
			snprintf(p[n].cs, sizeof(p[n].cs), "%s-%llu", pt_calib_backing(kinds[k]),
				 (unsigned long long)ws);
			assert_int_equal(pt_calib_simulate(&p[n], cfg, err, sizeof(err)), 0);
			n++;
		}
	}
	return n;
}

static void test_recovers_known_latencies(void **state)
{
	static struct pt_calib_point p[NPTS];
	const double truth[PT_LAT_N] = {
		[PT_LAT_L1] = 1.3,  [PT_LAT_L2] = 4.5,	  [PT_LAT_LLC] = 14,  [PT_LAT_MEM] = 95,
		[PT_LAT_L1TLB] = 0, [PT_LAT_L2TLB] = 2.2, [PT_LAT_PWC] = 0.3, [PT_LAT_WALK] = 12
	};
	struct pt_walk_cfg cfg;
	double lat[PT_LAT_N], rms;
	size_t n, i;
	unsigned j;

	(void)state;
	pt_walk_cfg_default(&cfg);
	n = make_points(p, &cfg);
	for (i = 0; i < n; i++)
		p[i].measured_ns = pt_calib_predict(p[i].f_d64, truth);
	/* start from the defaults, fixed parameters at their true values */
	for (j = 0; j < PT_LAT_N; j++)
		lat[j] = PT_CALIB_MASK_DEFAULT >> j & 1 ? cfg.lat[j] / cfg.ghz : truth[j];
	rms = pt_calib_fit(p, n, PT_CALIB_MASK_DEFAULT, lat);
	assert_true(rms < 1e-3);
	for (j = 0; j < PT_LAT_N; j++) {
		if (fabs(lat[j] - truth[j]) > 0.02 * truth[j] + 1e-6)
			fail_msg("%s: fitted %g, true %g", pt_lat_key(j), lat[j], truth[j]);
	}
	/* D128 walks are deeper: the prediction is never cheaper for the 4K chase */
	for (i = 0; i < n; i++)
		if (p[i].kind == PT_CAL_CHASE_4K)
			assert_true(pt_calib_predict(p[i].f_d128, lat) >=
				    pt_calib_predict(p[i].f_d64, lat) - 1e-9);
}

static void test_case_names(void **state)
{
	enum pt_calib_kind k;

	(void)state;
	assert_int_equal(pt_calib_kind_of("chase-4k-64M", &k), 0);
	assert_int_equal(k, PT_CAL_CHASE_4K);
	assert_int_equal(pt_calib_kind_of("chase-thp-1G", &k), 0);
	assert_int_equal(k, PT_CAL_CHASE_THP);
	assert_int_equal(pt_calib_kind_of("dense-16K", &k), 0);
	assert_int_equal(k, PT_CAL_DENSE);
	assert_int_equal(pt_calib_kind_of("chase-hugetlb-1G", &k), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_known_latencies),
		cmocka_unit_test(test_case_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
