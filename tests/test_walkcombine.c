// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several runs' walk_model.csv combined (analysis/walkcombine.c). Three
 * runs predict one case at 1.2 [1.15, 1.25], 1.3 [1.28, 1.32] and 1.1
 * (a range the bootstrap left empty): no run's range holds another's
 * prediction (k = 1: 0 of 6), and of the three pairs only {1.3, 1.1}'s
 * envelope [1.1, 1.32] holds the third (k = 2: 1 of 3). A case at 1 in
 * every run is left out of the coverage. Files that are not walk_model.csv
 * are refused with the line and the problem.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/walkcombine.h"

#define HDR                                                                                        \
	"source,case,backing,ws_bytes,ns_per_access,rel_error,d128_over_d64,"                      \
	"d128_over_d64_lo,d128_over_d64_hi,hypothesis,reps_min_ns,reps_max_ns\n"

/* One run: chase-4k-1G at the three stages (both: b [lo, hi]) and a flat case. */
static void run_csv(char *buf, size_t len, const char *b, const char *lo, const char *hi)
{
	snprintf(buf, len,
		 HDR "measured,chase-4k-1G,4k,1073741824,200,,,,,,150,290\n"
		     "predicted-d128,chase-4k-1G,4k,1073741824,220,,1.1,1.05,1.15,h1,,\n"
		     "predicted-d128-host,chase-4k-1G,4k,1073741824,220,,1.1,1.05,1.15,h1,,\n"
		     "predicted-d128-both,chase-4k-1G,4k,1073741824,240,,%s,%s,%s,h1,,\n"
		     "predicted-d128-both,dense-1M,4k,1048576,1.2,,1.005,1,1.008,h1,,\n",
		 b, lo, hi);
}

static void add(struct pt_walkcombine *c, const char *b, const char *lo, const char *hi)
{
	char buf[2048], err[512];

	run_csv(buf, sizeof(buf), b, lo, hi);
	assert_int_equal(pt_walkcombine_add(c, buf, strlen(buf), "t.csv", err, sizeof(err)), 0);
}

static void test_summary_and_coverage(void **state)
{
	struct pt_walkcombine c;
	struct pt_walkcombine_summary s;
	struct pt_walkcombine_coverage cov;

	(void)state;
	assert_int_equal(pt_walkcombine_init(&c), 0);
	add(&c, "1.2", "1.15", "1.25");
	add(&c, "1.3", "1.28", "1.32");
	add(&c, "1.1", "", "");
	assert_int_equal(c.nruns, 3);
	assert_int_equal(c.ncases, 2);
	assert_string_equal(c.hyp[1], "h1");

	pt_walkcombine_summarize(&c, 0, PT_D128_BOTH, &s);
	assert_int_equal(s.runs, 3);
	assert_float_equal(s.median, 1.2, 1e-12);
	assert_float_equal(s.pmin, 1.1, 1e-12);
	assert_float_equal(s.pmax, 1.3, 1e-12);
	assert_float_equal(s.lo, 1.1, 1e-12);
	assert_float_equal(s.hi, 1.32, 1e-12);
	assert_true(pt_walkcombine_has_effect(&c, 0, PT_D128_BOTH));
	assert_false(pt_walkcombine_has_effect(&c, 1, PT_D128_BOTH));
	/* dense-1M has no guest row: no run predicts it there */
	pt_walkcombine_summarize(&c, 1, PT_D128_GUEST, &s);
	assert_int_equal(s.runs, 0);
	assert_true(isnan(s.median));

	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 1, &cov), 0);
	assert_int_equal(cov.subsets, 3);
	assert_int_equal(cov.points, 6);
	assert_int_equal(cov.inside, 0);
	assert_false(cov.sampled);
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 2, &cov), 0);
	assert_int_equal(cov.subsets, 3);
	assert_int_equal(cov.points, 3);
	assert_int_equal(cov.inside, 1);
	/* the guest stage: every run 1.1 [1.05, 1.15], each inside the others */
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_GUEST, 1, &cov), 0);
	assert_int_equal(cov.points, 6);
	assert_int_equal(cov.inside, 6);
	/* k must leave a run out */
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 3, &cov), -1);
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 0, &cov), -1);
	pt_walkcombine_free(&c);
}

/* Every subset up to the cap, then a fixed number drawn. */
static void test_subsets(void **state)
{
	struct pt_walkcombine c;
	struct pt_walkcombine_coverage cov;
	size_t r;

	(void)state;
	assert_int_equal(pt_walkcombine_init(&c), 0);
	for (r = 0; r < 20; r++) {
		char v[16];

		snprintf(v, sizeof(v), "%.2f", 1.1 + 0.01 * (double)r);
		add(&c, v, "", "");
	}
	/* 12 choose 6 = 924 subsets of the first 12 runs... */
	c.nruns = 12;
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 6, &cov), 0);
	assert_int_equal(cov.subsets, 924);
	assert_false(cov.sampled);
	assert_int_equal(cov.points, 924 * 6);
	/* ...of all 20, 20 choose 10 = 184756: drawn */
	c.nruns = 20;
	assert_int_equal(pt_walkcombine_cover(&c, PT_D128_BOTH, 10, &cov), 0);
	assert_true(cov.sampled);
	assert_int_equal(cov.subsets, PT_WALKCOMBINE_MAX_SUBSETS);
	assert_int_equal(cov.points, PT_WALKCOMBINE_MAX_SUBSETS * 10);
	/* the extremes 1.10 and 1.29 lie inside no envelope without them */
	assert_true(cov.inside < cov.points);
	assert_true(cov.inside > 0);
	pt_walkcombine_free(&c);
}

static void refused_len(const char *text, size_t len, const char *want)
{
	struct pt_walkcombine c;
	char err[512] = "";

	assert_int_equal(pt_walkcombine_init(&c), 0);
	if (pt_walkcombine_add(&c, text, len, "bad.csv", err, sizeof(err)) != -1)
		fail_msg("accepted: %s", text);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	assert_int_equal(c.nruns, 0);
	assert_int_equal(c.ncases, 0);
	pt_walkcombine_free(&c);
}

static void refused(const char *text, const char *want)
{
	refused_len(text, strlen(text), want);
}

static void test_refused(void **state)
{
	struct pt_walkcombine c;
	char a[2048], b[2048], err[512];

	(void)state;
	refused("", "empty file");
	refused("source,case\nmeasured,x\n", "no column 'backing'");
	refused(HDR "measured,chase-4k-1G,4k,1073741824,200,,,,,,150,290\n",
		"no predicted-d128 rows");
	refused(HDR "predicted-d128-both,x,4k,4096,1,,abc,1,1,h,,\n",
		"bad.csv:2: case x: d128_over_d64 'abc'");
	refused(HDR "predicted-d128-both,x,4k,4096,1,,-1.2,1,1,h,,\n", "expected numbers");
	refused(HDR "predicted-d128-both,x,4k,4096,1,,1.2,1,inf,h,,\n", "expected numbers");
	refused(HDR "predicted-d128-both,x,4k,4096,1,,0,0,0,h,,\n", "expected numbers");
	refused(HDR "predicted-d128-both,x,4k,-5,1,,1.2,1,1,h,,\n",
		"ws_bytes '-5' is not a byte count");
	refused(HDR "predicted-d128-both,x,4k, 5,1,,1.2,1,1,h,,\n",
		"ws_bytes ' 5' is not a byte count");
	refused(HDR "predicted-d128-both,,4k,4096,1,,1.2,1,1,h,,\n",
		"bad.csv:2: a prediction without a case name");
	refused(HDR "predicted-d128-both,x,4k,4096,1,,1.2,1,1.3,h,,\n"
		    "predicted-d128-both,x,4k,4096,1,,1.2,1,1.3,h,,\n",
		"bad.csv:3: case x, predicted-d128-both: a second row");
	refused(HDR "predicted-d128-both,x,4k\n", "bad.csv:2: 3 fields");
	/* a refusal after good rows leaves none of them */
	refused(HDR "predicted-d128-both,x,4k,4096,1,,1.2,1,1.3,h,,\n"
		    "predicted-d128-both,y,4k,4096,1,,z,1,1.3,h,,\n",
		"bad.csv:3: case y");
	refused_len("a\0b", 3, "NUL byte");

	/* the same case name with another working set in a later run */
	assert_int_equal(pt_walkcombine_init(&c), 0);
	run_csv(a, sizeof(a), "1.2", "1.1", "1.3");
	assert_int_equal(pt_walkcombine_add(&c, a, strlen(a), "a.csv", err, sizeof(err)), 0);
	snprintf(b, sizeof(b), HDR "predicted-d128-both,chase-4k-1G,4k,4096,1,,1.2,1,1.3,h,,\n");
	assert_int_equal(pt_walkcombine_add(&c, b, strlen(b), "b.csv", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "b.csv:2: case chase-4k-1G: backing 4k, ws_bytes 4096"));
	assert_int_equal(c.nruns, 1);
	assert_int_equal(c.ncases, 2);
	assert_true(isnan(c.cases[0].pt[PT_D128_BOTH][1]));
	pt_walkcombine_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_and_coverage),
		cmocka_unit_test(test_subsets),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
