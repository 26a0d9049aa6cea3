// SPDX-License-Identifier: GPL-2.0-only
/* The walk calibration's points come from a run's params, hugetlb included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/calibpoints.h"

static void test_point_from_params(void **state)
{
	struct pt_calib_point p;

	(void)state;
	assert_int_equal(pt_calib_point_from_params("backing=4k;ws=65536", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE);
	assert_int_equal(p.block_h, 0);
	assert_int_equal(p.ws, 65536);
	assert_string_equal(p.backing, "4k");
	assert_int_equal(pt_calib_point_from_params("backing=thp;ws=16777216", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE);
	assert_int_equal(p.block_h, 1);
	/* hugetlb pages are PMD leaves: simulated as THP blocks are */
	assert_int_equal(pt_calib_point_from_params("backing=hugetlb;ws=1073741824", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE);
	assert_int_equal(p.block_h, 1);
	assert_int_equal(p.ws, 1ull << 30);
	assert_string_equal(p.backing, "hugetlb");
	assert_int_equal(pt_calib_point_from_params("backing=dense;ws=16384", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_DENSE);
	assert_int_equal(p.block_h, 1);
	assert_string_equal(p.backing, "dense");
	/* every second 4K page: the half-density chase, a point of its own */
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=2;ws=65536", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE_HALF);
	assert_int_equal(p.block_h, 0);
	assert_int_equal(p.ws, 65536);
	assert_string_equal(p.backing, "half");
	/* as runs made before the port wrote it */
	assert_int_equal(pt_calib_point_from_params("backing=half;ws=65536", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE_HALF);
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=1;ws=65536", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE);
	/* every fourth: the strided chase the fit uses */
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=4;ws=262144", &p), 0);
	assert_int_equal(p.pattern, PT_PAT_CHASE_QUARTER);
	assert_int_equal(p.block_h, 0);
	assert_int_equal(p.ws, 262144);
	assert_string_equal(p.backing, "quarter");
}

static void test_not_a_point(void **state)
{
	struct pt_calib_point p;

	(void)state;
	/* not a backing the model simulates, or no backing at all: left out */
	assert_int_equal(pt_calib_point_from_params("backing=mthp;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("xbacking=4k;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("backing=4kb;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("", &p), 1);
	/* strides the model has no pattern for */
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=3;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("backing=thp;stride=2;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("backing=thp;stride=4;ws=65536", &p), 1);
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=8;ws=65536", &p), 1);
	/* a backing the model simulates but no usable working set: an error */
	assert_int_equal(pt_calib_point_from_params("backing=4k", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=thp;ws=1000", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=thp;ws=0", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=thp;ws=big", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=two;ws=65536", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=2;ws=4096", &p), -1);
	assert_int_equal(pt_calib_point_from_params("backing=4k;stride=4;ws=8192", &p), -1);
}

static int parse(const char *csv, struct pt_rundir *r)
{
	FILE *f = fmemopen((void *)csv, strlen(csv), "r");
	char err[256];
	int ret;

	assert_non_null(f);
	memset(r, 0, sizeof(*r));
	ret = pt_results_parse(f, "t.csv", r, err, sizeof(err));
	fclose(f);
	snprintf(r->csv_path, sizeof(r->csv_path), "t.csv");
	return ret;
}

#define HEADER "workload,case,params,rep,metric,value,unit,better\n"

/* Names do not matter, params do; sorted by backing then working set. */
static void test_points_from_run(void **state)
{
	static const char csv[] = HEADER
		"tlb,dense-16K,backing=dense;ws=16384,0,ns_per_access,1.5,ns,lower\n"
		"tlb,chase-hugetlb-2M,backing=hugetlb;ws=2097152,0,ns_per_access,4,ns,lower\n"
		"tlb,chase-hugetlb-2M,backing=hugetlb;ws=2097152,1,ns_per_access,6,ns,lower\n"
		"tlb,chase-hugetlb-2M,backing=hugetlb;ws=2097152,2,ns_per_access,5,ns,lower\n"
		"tlb,chase-hugetlb-2M,backing=hugetlb;ws=2097152,0,thp_fraction,1,ratio,neither\n"
		"tlb,renamed,backing=4k;ws=65536,0,ns_per_access,2,ns,lower\n"
		"tlb,chase-4k-16K,backing=4k;ws=16384,0,ns_per_access,1,ns,lower\n"
		"tlb,chase-thp-16K,backing=thp;ws=16384,0,ns_per_access,1.2,ns,lower\n"
		"tlb,chase-half-16K,backing=4k;stride=2;ws=16384,0,ns_per_access,1.1,ns,lower\n"
		"tlb,chase-half-16K,backing=4k;stride=2;ws=16384,1,ns_per_access,1.3,ns,lower\n"
		"tlb,chase-quarter-256K,backing=4k;stride=4;ws=262144,0,ns_per_access,1.2,ns,lower\n"
		"fault,anon-write-4k-64M,backing=4k;ws=67108864,0,ns_per_access,9,ns,lower\n";
	static const char *const want_cs[] = { "chase-4k-16K",	    "renamed",	 "chase-thp-16K",
					       "chase-hugetlb-2M",  "dense-16K", "chase-half-16K",
					       "chase-quarter-256K" };
	struct pt_calib_point pts[8];
	struct pt_rundir run;
	char err[256];
	size_t n, i;

	(void)state;
	assert_int_equal(parse(csv, &run), 0);
	assert_int_equal(
		pt_calib_points_from_run(&run, PT_CALIB_MEDIAN, pts, 8, &n, err, sizeof(err)), 0);
	const double *v;
	size_t nv;

	assert_int_equal(n, 7);
	for (i = 0; i < n; i++)
		assert_string_equal(pts[i].cs, want_cs[i]);
	assert_string_equal(pts[3].backing, "hugetlb");
	assert_int_equal(pts[3].block_h, 1);
	assert_int_equal(pts[3].ws, 2ull << 20);
	assert_true(pts[3].measured_ns == 5); /* the median of 4, 6, 5 */
	assert_int_equal(pts[1].ws, 65536);
	assert_int_equal(pts[5].pattern, PT_PAT_CHASE_HALF);
	assert_int_equal(pts[6].pattern, PT_PAT_CHASE_QUARTER);
	/* the repetitions behind a point, for its weight and the bootstrap */
	assert_int_equal(pt_calib_point_values(&run, &pts[5], &v, &nv), 0);
	assert_int_equal(nv, 2);
	assert_true(v[0] == 1.1 && v[1] == 1.3);
	assert_int_equal(pt_calib_point_values(&run, &pts[3], &v, &nv), 0);
	assert_int_equal(nv, 3);
	/* at most max points */
	assert_int_equal(
		pt_calib_points_from_run(&run, PT_CALIB_MEDIAN, pts, 2, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	pt_rundir_free(&run);
}

static void test_points_refused(void **state)
{
	struct pt_calib_point pts[4];
	struct pt_rundir run;
	char err[256];
	size_t n;

	(void)state;
	assert_int_equal(parse(HEADER "tlb,x,backing=mthp;ws=65536,0,ns_per_access,2,ns,lower\n"
				      "fork,y,backing=4k;ws=65536,0,ns_per_access,2,ns,lower\n",
			       &run),
			 0);
	assert_int_equal(
		pt_calib_points_from_run(&run, PT_CALIB_MEDIAN, pts, 4, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.csv: no tlb ns_per_access rows"));
	pt_rundir_free(&run);
	assert_int_equal(parse(HEADER "tlb,x,backing=4k;ws=65536,0,ns_per_access,2,ns,lower\n"
				      "tlb,z,backing=hugetlb,0,ns_per_access,2,ns,lower\n",
			       &run),
			 0);
	assert_int_equal(
		pt_calib_points_from_run(&run, PT_CALIB_MEDIAN, pts, 4, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.csv:3: case z: needs ws=<bytes>"));
	pt_rundir_free(&run);
	assert_int_equal(
		parse(HEADER "tlb,x,backing=4k;ws=65536,0,ns_per_access,0,ns,lower\n", &run), 0);
	assert_int_equal(
		pt_calib_points_from_run(&run, PT_CALIB_MEDIAN, pts, 4, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "positive ns_per_access"));
	pt_rundir_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_point_from_params),
		cmocka_unit_test(test_not_a_point),
		cmocka_unit_test(test_points_from_run),
		cmocka_unit_test(test_points_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
