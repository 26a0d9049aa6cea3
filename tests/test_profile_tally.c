// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arithmetic of a profiled repetition on synthetic samples: which fall
 * in the timed windows, and the profile_* rows they make. Also the live
 * profiler's first step, which must say "unsupported" where there is no
 * perf_event_open (qemu-user), never crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/profile.h"
#include "harness/profile_tally.h"
#include "harness/timer.h"
#include "util/json.h"

static const struct pt_prof_row *row(const struct pt_prof_row *rows, size_t n, const char *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].metric, m))
			return &rows[i];
	return NULL;
}

static double value(const struct pt_prof_row *rows, size_t n, const char *m)
{
	const struct pt_prof_row *r = row(rows, n, m);

	assert_non_null(r);
	return r->value;
}

/* Two windows, [1000, 2000] and [5000, 6000] ns, samples around and in them. */
static void two_windows(struct pt_prof_tally *t)
{
	pt_tally_reset(t, 100);
	assert_false(pt_tally_sample(t, 500, PT_COMP_USER)); /* before any window */
	pt_tally_begin(t, 1000);
	assert_false(pt_tally_sample(t, 999, PT_COMP_USER));
	assert_true(pt_tally_sample(t, 1000, PT_COMP_PT_COPY)); /* the edges count */
	assert_true(pt_tally_sample(t, 1500, PT_COMP_PT_COPY));
	pt_tally_end(t, 2000);
	/* read after the window closed, as the profiler does */
	assert_true(pt_tally_sample(t, 2000, PT_COMP_PT_ZAP));
	assert_false(pt_tally_sample(t, 2001, PT_COMP_PT_ZAP));
	pt_tally_begin(t, 5000);
	assert_false(pt_tally_sample(t, 3000, PT_COMP_PT_ZAP)); /* between the windows */
	assert_true(pt_tally_sample(t, 5100, PT_COMP_PT_COPY));
	assert_true(pt_tally_sample(t, 5200, PT_COMP_USER));
	assert_true(pt_tally_sample(t, 5300, (enum pt_prof_comp)77)); /* unknown: kernel_other */
	pt_tally_end(t, 6000);
	assert_false(pt_tally_sample(t, 6100, PT_COMP_USER));
}

static void test_windows(void **state)
{
	struct pt_prof_tally t;

	(void)state;
	two_windows(&t);
	assert_int_equal(t.in_window, 6);
	assert_int_equal(t.outside, 5);
	assert_int_equal(t.samples[PT_COMP_PT_COPY], 3);
	assert_int_equal(t.samples[PT_COMP_PT_ZAP], 1);
	assert_int_equal(t.samples[PT_COMP_USER], 1);
	assert_int_equal(t.samples[PT_COMP_KERNEL_OTHER], 1);
	assert_int_equal(t.elapsed_ns, 2000);
	/* an end without a begin changes nothing */
	pt_tally_end(&t, 9000);
	assert_int_equal(t.elapsed_ns, 2000);
}

static void test_rows(void **state)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	struct pt_prof_tally t;
	size_t n;

	(void)state;
	two_windows(&t);
	t.lost = 3;
	/* 2 operations; 6 samples of 100 ns in 2000 ns of windows; 1500 ns of CPU */
	n = pt_tally_rows(&t, 2, "fork", true, 1500, rows, PT_PROF_MAX_ROWS);
	assert_int_equal(n, 2 * PT_COMP_N + 5);
	assert_true(value(rows, n, "profile_pt_copy_ns_per_fork") == 150); /* 3 x 100 / 2 */
	assert_true(value(rows, n, "profile_pt_copy_share") == 0.5);
	assert_true(value(rows, n, "profile_pt_zap_ns_per_fork") == 50);
	assert_true(value(rows, n, "profile_pt_chprot_ns_per_fork") == 0);
	assert_true(value(rows, n, "profile_user_share") == 1.0 / 6);
	assert_true(value(rows, n, "profile_samples") == 6);
	assert_true(value(rows, n, "profile_period_ns") == 100);
	assert_true(value(rows, n, "profile_lost") == 3);
	assert_true(value(rows, n, "profile_coverage") == 600.0 / 2000);
	assert_true(value(rows, n, "profile_cpu_coverage") == 600.0 / 1500);
	assert_string_equal(row(rows, n, "profile_pt_copy_ns_per_fork")->unit, "ns");
	assert_string_equal(row(rows, n, "profile_pt_copy_share")->unit, "ratio");
	assert_string_equal(row(rows, n, "profile_samples")->unit, "count");
	/* CPU time unknown: no cpu coverage row, never 0 */
	n = pt_tally_rows(&t, 2, "fork", true, 0, rows, PT_PROF_MAX_ROWS);
	assert_null(row(rows, n, "profile_cpu_coverage"));
	/* no operations: no rows */
	assert_int_equal(pt_tally_rows(&t, 0, "fork", true, 0, rows, PT_PROF_MAX_ROWS), 0);
	/* a short buffer is filled, not overrun */
	assert_int_equal(pt_tally_rows(&t, 2, "fork", true, 0, rows, 3), 3);
}

static void test_unresolved_kernel(void **state)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	struct pt_prof_tally t;
	size_t n;

	(void)state;
	two_windows(&t);
	n = pt_tally_rows(&t, 1, "page", false, 0, rows, PT_PROF_MAX_ROWS);
	/* the page-table components are unknown without kallsyms: no rows */
	assert_null(row(rows, n, "profile_pt_copy_ns_per_page"));
	assert_null(row(rows, n, "profile_zero_share"));
	assert_non_null(row(rows, n, "profile_kernel_other_ns_per_page"));
	assert_non_null(row(rows, n, "profile_user_share"));
	assert_non_null(row(rows, n, "profile_coverage"));
}

static void test_no_samples(void **state)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	struct pt_prof_tally t;
	size_t n;

	(void)state;
	pt_tally_reset(&t, 50000);
	pt_tally_begin(&t, 10);
	pt_tally_end(&t, 20);
	n = pt_tally_rows(&t, 1, "call", true, 0, rows, PT_PROF_MAX_ROWS);
	/* 0/0 shares are not written; a coverage of 0 is a measurement */
	assert_null(row(rows, n, "profile_user_share"));
	assert_true(value(rows, n, "profile_samples") == 0);
	assert_true(value(rows, n, "profile_coverage") == 0);
}

/* Qemu-user has no perf_event_open: the profiler says so; natively it may work. */
static void test_live_profiler_says_why(void **state)
{
	struct pt_profile *p = pt_profile_new(PT_PROFILE_PERIOD_DEFAULT_NS, NULL);
	const struct pt_prof_tally *t;
	volatile unsigned long spin = 0;
	char err[256], *buf = NULL;
	struct pt_json j;
	uint64_t t0;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(p);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_profile_json(p, &j);
	pt_json_obj_end(&j);
	fclose(f);
	assert_non_null(strstr(buf, "\"event\":"));
	if (!pt_profile_usable(p)) {
		assert_true(pt_profile_reason(p)[0] != '\0');
		assert_non_null(strstr(buf, "\"supported\": false"));
		free(buf);
		pt_profile_free(p);
		skip();
	}
	free(buf);
	/* 50 ms of user-space work in one window: it is sampled */
	assert_int_equal(pt_profile_start(p, err, sizeof(err)), 0);
	pt_profile_window_open(p);
	t0 = pt_now_ns();
	pt_profile_window_begin(p, t0);
	while (pt_now_ns() - t0 < 50000000ull)
		spin++;
	pt_profile_window_end(p, pt_now_ns());
	pt_profile_stop(p);
	t = pt_profile_tally(p);
	assert_true(t->in_window > 0);
	assert_true(t->samples[PT_COMP_USER] > 0);
	assert_true(t->elapsed_ns >= 50000000ull);
	pt_profile_free(p);
}

static void test_off(void **state)
{
	struct pt_profile *p = pt_profile_new(PT_PROFILE_PERIOD_DEFAULT_NS, "turned off");

	(void)state;
	assert_non_null(p);
	assert_false(pt_profile_usable(p));
	assert_string_equal(pt_profile_reason(p), "turned off");
	pt_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_unresolved_kernel),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_live_profiler_says_why),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
