// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arithmetic of a profiled repetition on synthetic samples: which fall
 * in the timed windows, the stalls between them, and the profile_* rows
 * they make. Also the live
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

/*
 * Two windows, [1000, 2000] and [5000, 6000] ns, period 100, samples of
 * ours on CPU 0 around and in them, 100 ns apart inside: no stall.
 */
static void two_windows(struct pt_prof_tally *t)
{
	memset(t, 0, sizeof(*t));
	pt_tally_reset(t, 100);
	assert_false(pt_tally_sample(t, 0, 500, PT_COMP_USER, true)); /* before any window */
	pt_tally_begin(t, 1000);
	assert_false(pt_tally_sample(t, 0, 999, PT_COMP_USER, true));
	assert_true(pt_tally_sample(t, 0, 1000, PT_COMP_PT_COPY, true)); /* the edges count */
	assert_true(pt_tally_sample(t, 0, 1100, PT_COMP_PT_COPY, true));
	assert_false(pt_tally_sample(t, 0, 1150, PT_COMP_PT_COPY, false)); /* not ours */
	pt_tally_end(t, 2000);
	/* read after the window closed, as the profiler does */
	assert_true(pt_tally_sample(t, 0, 2000, PT_COMP_PT_ZAP, true));
	assert_false(pt_tally_sample(t, 0, 2001, PT_COMP_PT_ZAP, true));
	pt_tally_begin(t, 5000);
	assert_false(pt_tally_sample(t, 0, 3000, PT_COMP_PT_ZAP, true)); /* between the windows */
	assert_true(pt_tally_sample(t, 0, 5100, PT_COMP_PT_COPY, true));
	assert_true(pt_tally_sample(t, 0, 5200, PT_COMP_USER, true));
	assert_true(pt_tally_sample(t, 0, 5300, (enum pt_prof_comp)77, true)); /* kernel_other */
	pt_tally_end(t, 6000);
	assert_false(pt_tally_sample(t, 0, 6100, PT_COMP_USER, true));
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
	/* 2000 - 1150 (another task's sample) > 2 periods: a stall of 750 */
	assert_true(pt_tally_stall_ns(&t) == 750);
	assert_true(t.stall_ns[PT_COMP_PT_ZAP] == 750);
	/* an end without a begin changes nothing */
	pt_tally_end(&t, 9000);
	assert_int_equal(t.elapsed_ns, 2000);
	pt_tally_free(&t);
}

/* Stalls: gaps of more than 2 periods while one of our tasks ran, bounded by switches. */
static void test_stalls(void **state)
{
	struct pt_prof_tally t;

	(void)state;
	memset(&t, 0, sizeof(t));
	pt_tally_reset(&t, 100);
	pt_tally_begin(&t, 10000);
	/* the window's start to the first sample: 500, a stall of 400 */
	pt_tally_sample(&t, 1, 10500, PT_COMP_PT_CHPROT, true);
	pt_tally_sample(&t, 1, 10650, PT_COMP_PT_CHPROT, true); /* 150: jitter, no stall */
	pt_tally_sample(&t, 1, 11650, PT_COMP_USER, true); /* 1000: a stall of 900 */
	/* the run's tail up to its switch: 400, a stall of 300 */
	pt_tally_switch(&t, 1, 12050, true, true);
	pt_tally_switch(&t, 1, 12050, false, false);
	/* another task's gaps are not ours */
	pt_tally_sample(&t, 1, 13050, PT_COMP_KERNEL_OTHER, false);
	pt_tally_switch(&t, 1, 14000, true, false);
	pt_tally_switch(&t, 1, 14000, false, true);
	/* our task back: from its switch-in, 100, no stall */
	pt_tally_sample(&t, 1, 14100, PT_COMP_PT_ZAP, true);
	/* a switch-out without a sample of ours since the switch-in adds nothing */
	pt_tally_switch(&t, 0, 14500, false, true);
	pt_tally_switch(&t, 0, 15500, true, true);
	/* a CPU number past the table: counted, no stall */
	assert_true(pt_tally_sample(&t, PT_PROF_MAX_CPU + 1, 15600, PT_COMP_ZERO, true));
	pt_tally_end(&t, 20000);
	assert_true(t.stall_ns[PT_COMP_PT_CHPROT] == 400);
	assert_true(t.stall_ns[PT_COMP_USER] == 900 + 300);
	assert_true(t.stall_ns[PT_COMP_PT_ZAP] == 0);
	assert_true(pt_tally_stall_ns(&t) == 1600);
	assert_int_equal(t.in_window, 5);
	/* a new window forgets what the CPUs saw: its start bounds the first gap */
	pt_tally_begin(&t, 30000);
	pt_tally_sample(&t, 1, 30100, PT_COMP_PT_ZAP, true);
	pt_tally_end(&t, 30200);
	assert_true(t.stall_ns[PT_COMP_PT_ZAP] == 0);
	pt_tally_free(&t);
}

static void test_rows(void **state)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	struct pt_prof_tally t;
	size_t n;

	(void)state;
	two_windows(&t);
	t.lost = 3;
	/* 2 operations; 6 samples of 100 ns and a stall of 750 in 2000 ns; 1500 ns of CPU */
	n = pt_tally_rows(&t, 2, "fork", true, 1500, rows, PT_PROF_MAX_ROWS);
	assert_int_equal(n, 2 * PT_COMP_N + 7);
	assert_true(value(rows, n, "profile_pt_copy_ns_per_fork") == 150); /* 3 x 100 / 2 */
	assert_true(value(rows, n, "profile_pt_copy_share") == 0.5);
	assert_true(value(rows, n, "profile_pt_zap_ns_per_fork") == 50);
	assert_true(value(rows, n, "profile_pt_chprot_ns_per_fork") == 0);
	assert_true(value(rows, n, "profile_user_share") == 1.0 / 6);
	assert_true(value(rows, n, "profile_samples") == 6);
	assert_true(value(rows, n, "profile_period_ns") == 100);
	assert_true(value(rows, n, "profile_lost") == 3);
	assert_true(value(rows, n, "profile_stall_ns_per_fork") == 375);
	assert_true(value(rows, n, "profile_coverage") == 600.0 / 2000);
	assert_true(value(rows, n, "profile_stall_coverage") == 750.0 / 2000);
	assert_true(value(rows, n, "profile_cpu_coverage") == 1350.0 / 1500);
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
	pt_tally_free(&t);
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
	pt_tally_free(&t);
}

static void test_no_samples(void **state)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	struct pt_prof_tally t;
	size_t n;

	(void)state;
	memset(&t, 0, sizeof(t));
	pt_tally_reset(&t, 50000);
	pt_tally_begin(&t, 10);
	pt_tally_end(&t, 20);
	n = pt_tally_rows(&t, 1, "call", true, 0, rows, PT_PROF_MAX_ROWS);
	/* 0/0 shares are not written; a coverage of 0 is a measurement */
	assert_null(row(rows, n, "profile_user_share"));
	assert_true(value(rows, n, "profile_samples") == 0);
	assert_true(value(rows, n, "profile_coverage") == 0);
	pt_tally_free(&t);
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
		cmocka_unit_test(test_windows),	   cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_rows),	   cmocka_unit_test(test_unresolved_kernel),
		cmocka_unit_test(test_no_samples), cmocka_unit_test(test_live_profiler_says_why),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
