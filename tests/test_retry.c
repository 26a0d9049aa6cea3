// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transient refusals (issue 16, item 11): a repetition that returns
 * pt_rep_retry is run again from scratch, its rows dropped, the retries and
 * reasons counted for meta.json, and the case fails only when the refusal
 * persists. Fake workloads, run by the real runner into a temporary
 * directory.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/rep.h"
#include "harness/runner.h"
#include "util/fileio.h"
#include "util/path.h"

static int calls;

/* Refuses twice (after emitting a row the runner must drop), then measures. */
static int flaky_run(const struct pt_case *c, struct pt_rep *r)
{
	(void)c;
	calls++;
	if (calls <= 2) {
		pt_rep_emit(r, "ns_per_op", 999, "ns", PT_LOWER);
		return pt_rep_retry(r, "madvise(MADV_COLLAPSE): Resource temporarily unavailable");
	}
	pt_rep_emit(r, "ns_per_op", 10 + r->rep, "ns", PT_LOWER);
	return 0;
}

/* Never gets past the refusal. */
static int stubborn_run(const struct pt_case *c, struct pt_rep *r)
{
	(void)c;
	calls++;
	return pt_rep_retry(r, "huge page lost to another allocation");
}

static const struct pt_workload flaky = { .name = "flaky",
					  .primary_metric = "ns_per_op",
					  .run = flaky_run };
static const struct pt_workload stubborn = { .name = "stubborn",
					     .primary_metric = "ns_per_op",
					     .run = stubborn_run };

static char *run_fake(const struct pt_workload *w, struct pt_case_result *out, char *dir)
{
	char csv[PATH_MAX], err[PATH_MAX + 64], *text;
	struct pt_case_result res;
	struct pt_run run;
	size_t len;

	memset(&run, 0, sizeof(run));
	memset(&res, 0, sizeof(res));
	res.w = w;
	snprintf(res.c.name, sizeof(res.c.name), "c");
	snprintf(res.c.params, sizeof(res.c.params), "k=v");
	run.suite = "quick";
	run.out_dir = dir;
	run.reps = 3;
	run.warmup = 0;
	run.interleave = true;
	run.mem_frac = 1;
	run.results = &res;
	run.nresults = 1;
	run.steal_start_s = NAN;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pt_path_join(csv, sizeof(csv), dir, "results.csv"), 0);
	assert_int_equal(pt_sink_open(&run.sink, csv), 0);
	calls = 0;
	pt_run_cases(&run);
	assert_int_equal(pt_sink_close(run.sink), 0);
	*out = res;
	text = pt_read_file(csv, 1 << 20, &len, err, sizeof(err));
	assert_non_null(text);
	return text;
}

static void cleanup(const char *dir)
{
	char path[PATH_MAX];

	pt_path_join(path, sizeof(path), dir, "results.csv");
	unlink(path);
	pt_path_join(path, sizeof(path), dir, "meta.json");
	unlink(path);
	rmdir(dir);
}

static void test_transient(void **state)
{
	char dir[] = "/tmp/ptbench-retry-XXXXXX", *csv;
	struct pt_case_result res;

	(void)state;
	csv = run_fake(&flaky, &res, dir);
	assert_int_equal(res.status, PT_CASE_OK);
	assert_int_equal(res.reps_ok, 3);
	assert_int_equal(calls, 5); /* 3 repetitions, the first run 3 times */
	assert_int_equal(res.retries, 2);
	assert_string_equal(res.retry_reasons[0].why,
			    "madvise(MADV_COLLAPSE): Resource temporarily unavailable");
	assert_int_equal(res.retry_reasons[0].count, 2);
	assert_int_equal(res.retry_reasons[1].count, 0);
	/* the refused attempts' rows are gone; the summary saw only real samples */
	assert_string_equal(csv, "workload,case,params,rep,metric,value,unit,better\n"
				 "flaky,c,k=v,0,ns_per_op,10,ns,lower\n"
				 "flaky,c,k=v,1,ns_per_op,11,ns,lower\n"
				 "flaky,c,k=v,2,ns_per_op,12,ns,lower\n");
	assert_int_equal(res.nprimary, 3);
	free(csv);
	/* and meta.json says so, for the case */
	{
		char path[PATH_MAX], err[PATH_MAX + 64], *meta;
		size_t len;

		assert_int_equal(pt_path_join(path, sizeof(path), dir, "meta.json"), 0);
		meta = pt_read_file(path, 1 << 20, &len, err, sizeof(err));
		assert_non_null(meta);
		assert_non_null(strstr(meta, "\"retries\": 2"));
		assert_non_null(strstr(meta, "\"reason\": \"madvise(MADV_COLLAPSE): Resource "
					     "temporarily unavailable\""));
		free(meta);
	}
	cleanup(dir);
}

static void test_persistent(void **state)
{
	char dir[] = "/tmp/ptbench-retry-XXXXXX", *csv;
	struct pt_case_result res;

	(void)state;
	csv = run_fake(&stubborn, &res, dir);
	assert_int_equal(res.status, PT_CASE_FAILED);
	assert_int_equal(res.reps_ok, 0);
	assert_int_equal(calls, 1 + PT_REP_RETRIES);
	assert_int_equal(res.retries, PT_REP_RETRIES);
	assert_int_equal(res.retry_reasons[0].count, PT_REP_RETRIES);
	assert_non_null(
		strstr(res.notes, "huge page lost to another allocation (still after 3 retries)"));
	assert_string_equal(csv, "workload,case,params,rep,metric,value,unit,better\n");
	free(csv);
	cleanup(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transient),
		cmocka_unit_test(test_persistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
