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
	/* a chase over base pages, over PMD blocks, and the dense control */
	static const struct {
		const char *label;
		enum pt_pattern_kind pattern;
		unsigned block_h;
	} kinds[] = { { "4k", PT_PAT_CHASE, 0 },
		      { "thp", PT_PAT_CHASE, 1 },
		      { "dense", PT_PAT_DENSE, 1 } };
	char err[256];
	size_t n = 0, k;
	uint64_t ws;

	for (k = 0; k < 3; k++) {
		for (ws = 16ull << 10; ws <= 64ull << 20; ws *= 16) {
			p[n].pattern = kinds[k].pattern;
			p[n].block_h = kinds[k].block_h;
			p[n].ws = ws;
			snprintf(p[n].backing, sizeof(p[n].backing), "%s", kinds[k].label);
			snprintf(p[n].cs, sizeof(p[n].cs), "%s-%llu", kinds[k].label,
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
		if (p[i].pattern == PT_PAT_CHASE && !p[i].block_h)
			assert_true(pt_calib_predict(p[i].f_d128, lat) >=
				    pt_calib_predict(p[i].f_d64, lat) - 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_known_latencies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
