// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/fleet.h"

/* Three runs on host a (two on kernel 6.1, one on 6.12), one on host b. */
static const struct pt_fleet_run runs[] = {
	{ "r1", "base", "a", "cpu-a", "6.1" },	{ "r2", "base", "a", "cpu-a", "6.1" },
	{ "r3", "cand", "a", "cpu-a", "6.12" }, { "r4", "base", "b", "cpu-b", "6.1" },
	{ "r5", "cand", "a", "cpu-a", "6.1" },
};

#define PT(run, cs, metric, better, median, primary)                                               \
	{                                                                                          \
		run, "fault", cs, "", metric, "ns", better, median, primary                        \
	}

static const struct pt_fleet_point pts[] = {
	/* the primary metric: on (a, 6.1) runs of 100, 110 and 120 */
	PT(0, "anon", "ns_per_fault", PT_LOWER, 100, true),
	PT(1, "anon", "ns_per_fault", PT_LOWER, 110, true),
	PT(4, "anon", "ns_per_fault", PT_LOWER, 120, true),
	PT(2, "anon", "ns_per_fault", PT_LOWER, 220, true),
	PT(3, "anon", "ns_per_fault", PT_LOWER, 55, true),
	/* higher is better: the relative cost is inverted */
	PT(0, "rate", "faults_per_sec", PT_HIGHER, 10, true),
	PT(2, "rate", "faults_per_sec", PT_HIGHER, 20, true),
	PT(3, "rate", "faults_per_sec", PT_HIGHER, 40, true),
	/* not primary, not modelled: left out */
	PT(0, "anon", "ticks_per_fault", PT_LOWER, 1, false),
	/* modelled, on host b only */
	PT(3, "anon", "d128_predicted_ns_per_fault", PT_LOWER, 70, false),
	/* its range rows, and the page-table model outside the pgtable workload: left out */
	PT(3, "anon", "d128_predicted_ns_per_fault_lo", PT_LOWER, 60, false),
	PT(3, "anon", "d128_predicted_ns_per_fault_hi", PT_LOWER, 80, false),
	PT(3, "anon", "pgtable_bytes_model_d128", PT_LOWER, 8192, false),
};

static void test_modelled_names(void **state)
{
	(void)state;
	assert_true(pt_fleet_is_modelled("d128_predicted_ns_per_access"));
	assert_true(pt_fleet_is_modelled("pgtable_bytes_model_d128"));
	assert_true(pt_fleet_is_modelled("pgtable_d128_d64_ratio"));
	assert_false(pt_fleet_is_modelled("pgtable_bytes_model_d64"));
	assert_false(pt_fleet_is_modelled("ns_per_fault"));
}

static void test_groups_and_cells(void **state)
{
	struct pt_fleet f;
	const struct pt_fleet_cell *c;

	(void)state;
	assert_int_equal(pt_fleet_build(runs, 5, pts, sizeof(pts) / sizeof(pts[0]), &f), 0);
	assert_false(f.undeclared);
	/* groups by host, then kernel: (a, 6.1), (a, 6.12), (b, 6.1) */
	assert_int_equal(f.ngroups, 3);
	assert_string_equal(f.groups[0].kernel_release, "6.1");
	assert_int_equal(f.groups[0].nruns, 3);
	assert_string_equal(f.groups[0].tags, "base, cand");
	assert_string_equal(f.groups[1].kernel_release, "6.12");
	assert_string_equal(f.groups[2].host, "b");
	/* measured first (anon, rate), then modelled; ticks_per_fault left out */
	assert_int_equal(f.nseries, 3);
	assert_string_equal(f.series[0].metric, "ns_per_fault");
	assert_string_equal(f.series[1].metric, "faults_per_sec");
	assert_true(f.series[2].modelled);
	assert_string_equal(f.series[2].metric, "d128_predicted_ns_per_fault");
	/* (a, 6.1): median of 100, 110, 120; half the range is 10 = 9.09% */
	c = pt_fleet_cell(&f, 0, 0);
	assert_int_equal(c->nruns, 3);
	assert_true(c->median == 110 && c->min == 100 && c->max == 120);
	assert_true(fabs(c->spread_pct - 100.0 / 11) < 1e-9);
	assert_true(isnan(pt_fleet_cell(&f, 0, 1)->spread_pct)); /* one run */
	/* fleet median of 110, 220, 55 is 110: costs 1, 2, 0.5 */
	assert_true(f.series[0].fleet_median == 110);
	assert_true(pt_fleet_cell(&f, 0, 1)->rel == 2);
	assert_true(pt_fleet_cell(&f, 0, 2)->rel == 0.5);
	/* higher is better: 10, 20, 40 against 20 cost 2, 1, 0.5 */
	assert_true(pt_fleet_cell(&f, 1, 0)->rel == 2);
	assert_true(pt_fleet_cell(&f, 1, 2)->rel == 0.5);
	/* modelled on b only: nothing on a */
	assert_int_equal(pt_fleet_cell(&f, 2, 0)->nruns, 0);
	assert_true(pt_fleet_cell(&f, 2, 2)->rel == 1);
	/* group summaries: (a, 6.1) costs 1 and 2, median 1.5; b 0.5 and 0.5 */
	assert_int_equal(f.groups[0].nmeasured, 2);
	assert_true(f.groups[0].measured_rel == 1.5);
	assert_true(f.groups[2].measured_rel == 0.5);
	assert_true(isnan(f.groups[0].modelled_rel));
	assert_int_equal(f.groups[2].nmodelled, 1);
	pt_fleet_free(&f);
}

static void test_undeclared(void **state)
{
	static const struct pt_fleet_point old[] = {
		PT(0, "anon", "ns_per_fault", PT_LOWER, 100, false),
		PT(0, "anon", "ticks_per_fault", PT_LOWER, 1, false),
		PT(3, "anon", "ns_per_fault", PT_LOWER, 0, false),
	};
	struct pt_fleet f;

	(void)state;
	assert_int_equal(pt_fleet_build(runs, 5, old, 3, &f), 0);
	assert_true(f.undeclared); /* runs without primary metrics: every series kept */
	assert_int_equal(f.nseries, 2);
	/* a median of 0 has no ratio */
	assert_true(isnan(pt_fleet_cell(&f, 0, 2)->rel));
	pt_fleet_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modelled_names),
		cmocka_unit_test(test_groups_and_cells),
		cmocka_unit_test(test_undeclared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
