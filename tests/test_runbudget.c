// SPDX-License-Identifier: GPL-2.0-only
/* How many repetitions fit a run's time budget (harness/runbudget.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness/runbudget.h"

/* A quick suite on a slow guest: 35 s rounds after a 4 s warm-up of guest memory. */
static const struct pt_budget_in slow = {
	.budget_s = 180,
	.elapsed_s = 39, /* guest warm and the warm-up round */
	.round_s = 35,
	.profile_s = 31,
	.warmup = 1,
	.reps = 10,
	.rounds_done = 1,
};

static void test_fits(void **state)
{
	struct pt_budget_in in = slow;

	(void)state;
	/* 180 less its headroom (18) - 39 - 31 = 92 s left: two 35 s rounds, so the floor */
	assert_int_equal(pt_budget_reps(&in), PT_BUDGET_MIN_REPS);
	/* a fast host: every repetition fits */
	in.round_s = 5;
	assert_int_equal(pt_budget_reps(&in), 10);
	/* between: 92 / 20 = 4 rounds (5 without the headroom: 110 / 20) */
	in.round_s = 20;
	assert_int_equal(pt_budget_reps(&in), 4);
	/* a second warm-up round still to come takes one round of the time */
	in.warmup = 2;
	assert_int_equal(pt_budget_reps(&in), 3);
	/* 18 s rounds: 92 / 18 = 5 rounds, where the whole 180 s would hold 6 */
	in.warmup = 1;
	in.round_s = 18;
	assert_int_equal(pt_budget_reps(&in), 5);
	/* a 200 s budget plans on 180 of it: 110 / 18 = 6 */
	in.budget_s = 200;
	assert_int_equal(pt_budget_reps(&in), 6);
}

static void test_floor(void **state)
{
	struct pt_budget_in in = slow;

	(void)state;
	/* past the budget already: never fewer than 3 */
	in.elapsed_s = 500;
	assert_int_equal(pt_budget_reps(&in), PT_BUDGET_MIN_REPS);
	/* nor more than asked for */
	in.reps = 2;
	assert_int_equal(pt_budget_reps(&in), 2);
	/* nor fewer than already run: 6 rounds done, 5 of them timed */
	in.reps = 10;
	in.rounds_done = 6;
	assert_int_equal(pt_budget_reps(&in), 5);
}

static void test_no_budget(void **state)
{
	struct pt_budget_in in = slow;

	(void)state;
	in.budget_s = 0;
	assert_int_equal(pt_budget_reps(&in), 10);
	in.budget_s = 180;
	in.round_s = NAN;
	assert_int_equal(pt_budget_reps(&in), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_no_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
