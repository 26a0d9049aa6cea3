// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records scripts read a run's statistics from: ptbench summary's CSV
 * and JSON, and the interval of a change compare's JSON carries.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/runsummary.h"

#define HDR PT_CSV_HEADER "\n"

static void parse(const char *text, struct pt_rundir *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[256] = "";

	assert_non_null(f);
	memset(r, 0, sizeof(*r));
	if (pt_results_parse(f, "t.csv", r, err, sizeof(err)))
		fail_msg("parse: %s", err);
	fclose(f);
}

/* What pt_run_summary_write writes for r, NUL-terminated; free() it. */
static char *written(const struct pt_rundir *r, enum pt_summary_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pt_run_summary_write(f, r, fmt), 0);
	fclose(f);
	return buf;
}

static void test_csv_rows(void **state)
{
	/* 1..9: median 5; at n = 9 the 95% interval is [x(2), x(8)] = [2, 8]. */
	const char *csv = HDR "w,c,k=v,0,m,9,ns,lower\nw,c,k=v,1,m,1,ns,lower\n"
			      "w,c,k=v,2,m,2,ns,lower\nw,c,k=v,3,m,3,ns,lower\n"
			      "w,c,k=v,4,m,4,ns,lower\nw,c,k=v,5,m,5,ns,lower\n"
			      "w,c,k=v,6,m,6,ns,lower\nw,c,k=v,7,m,7,ns,lower\n"
			      "w,c,k=v,8,m,8,ns,lower\n"
			      "w,\"a,b\",,0,r,1,ratio,neither\nw,\"a,b\",,1,r,1,ratio,neither\n";
	struct pt_rundir r;
	char *out;

	(void)state;
	parse(csv, &r);
	out = written(&r, PT_SUMMARY_CSV);
	assert_non_null(strstr(out, "workload,case,params,metric,unit,better,n,median,ci_lo,"
				    "ci_hi,ci_valid,min,max,mean,stddev,cv,p90,p99\n"));
	/* a quoted case, two equal samples: no valid interval */
	assert_non_null(strstr(out, "w,\"a,b\",,r,ratio,neither,2,1,1,1,false,1,1,1,0,0,1,1\n"));
	assert_non_null(strstr(out, "w,c,k=v,m,ns,lower,9,5,2,8,true,1,9,5,"));
	free(out);
	pt_rundir_free(&r);
}

static void test_json_shape(void **state)
{
	const char *csv = HDR "w,c,,0,m,1.5,ns,higher\nw,c,,1,m,2.5,ns,higher\n";
	struct pt_rundir r;
	char *out;

	(void)state;
	parse(csv, &r);
	snprintf(r.path, sizeof(r.path), "DIR");
	out = written(&r, PT_SUMMARY_JSON);
	assert_non_null(strstr(out, "\"path\": \"DIR\""));
	/* no meta.json: its fields are null, not empty strings */
	assert_non_null(strstr(out, "\"kernel_release\": null"));
	assert_non_null(strstr(out, "\"better\": \"higher\""));
	assert_non_null(strstr(out, "\"median\": 2"));
	assert_non_null(strstr(out, "\"ci_valid\": false"));
	free(out);
	pt_rundir_free(&r);
}

static struct pt_cmp_row row(double blo, double bhi, double nlo, double nhi, bool valid)
{
	static struct pt_series s;
	struct pt_cmp_row w = { .base = &s, .cand = &s, .key = &s };

	w.sb = (struct pt_summary){ .ci_lo = blo, .ci_hi = bhi, .ci_valid = valid };
	w.sn = (struct pt_summary){ .ci_lo = nlo, .ci_hi = nhi, .ci_valid = true };
	return w;
}

static void test_change_interval(void **state)
{
	struct pt_cmp_row w = row(90, 110, 99, 121, true);
	double lo, hi;

	(void)state;
	pt_cmp_change_ci(&w, &lo, &hi);
	/* the extremes: new low against base high, new high against base low */
	assert_float_equal(lo, (99.0 - 110) / 110 * 100, 1e-12);
	assert_float_equal(hi, (121.0 - 90) / 90 * 100, 1e-12);
	/* negative medians: the change is relative to |base| */
	w = row(-110, -90, -121, -99, true);
	pt_cmp_change_ci(&w, &lo, &hi);
	assert_float_equal(lo, (-121.0 + 90) / 90 * 100, 1e-12);
	assert_float_equal(hi, (-99.0 + 110) / 110 * 100, 1e-12);
	/* no interval on one side, or one side missing: no interval */
	w = row(90, 110, 99, 121, false);
	pt_cmp_change_ci(&w, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	w = row(90, 110, 99, 121, true);
	w.cand = NULL;
	pt_cmp_change_ci(&w, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	/* a base bound of 0 makes the interval unbounded */
	w = row(0, 10, 1, 2, true);
	pt_cmp_change_ci(&w, &lo, &hi);
	assert_true(isinf(hi) && hi > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_rows),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_change_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
